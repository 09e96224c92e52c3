import type { ComponentType } from 'react';
import type { ResourceDeclaration } from '../../../../shared/resources/declaration';
import { declaredScreen } from './declared-pages';
import type { DeclarationOverrides } from './from-declaration';
import { recordActionsOf } from './record-actions';
import { resourceFormScreen } from './resource-form-page';

/** The form screen (a new record, a record) of a declared resource: a record's moves, print and actions by its title. */
export function declaredFormScreen(
  decl: ResourceDeclaration,
  overrides?: DeclarationOverrides,
): ComponentType {
  return declaredScreen(decl, 'form', overrides, (config) =>
    resourceFormScreen(config, recordActionsOf(decl, config, overrides?.recordActions)),
  );
}
