import type { ComponentType } from 'react';
import type { ResourceDeclaration } from '../../../../shared/resources/declaration';
import { declaredScreen } from './declared-pages';
import type { DeclarationOverrides } from './from-declaration';
import { resourceListScreen } from './resource-list-page';

/** The list screen of a declared resource. */
export function declaredListScreen(
  decl: ResourceDeclaration,
  overrides?: DeclarationOverrides,
): ComponentType {
  return declaredScreen(decl, 'list', overrides, resourceListScreen);
}
