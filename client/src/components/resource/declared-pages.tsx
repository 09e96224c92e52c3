import type { ComponentType } from 'react';
import type { ResourceDeclaration } from '../../../../shared/resources/declaration';
import { configFromDeclaration, type DeclarationOverrides } from './from-declaration';
import type { ResourceConfig } from './types';

/**
 * The config of a declared resource (its declaration and its page's overrides), built once per resource, and
 * the screens bound to it — each kind in a module of its own (declared-list-page / declared-form-page /
 * declared-record-page), so that opening a list does not load the form and the other way round.
 */
const configs = new Map<string, ResourceConfig>();
const screens = new Map<string, ComponentType>();

export function declaredScreen(
  decl: ResourceDeclaration,
  kind: 'list' | 'form' | 'record',
  overrides: DeclarationOverrides | undefined,
  bind: (config: ResourceConfig) => ComponentType,
): ComponentType {
  const key = `${decl.name}:${kind}`;
  let screen = screens.get(key);
  if (!screen) {
    let config = configs.get(decl.name);
    if (!config) {
      config = configFromDeclaration(decl, overrides);
      configs.set(decl.name, config);
    }
    screen = bind(config);
    screens.set(key, screen);
  }
  return screen;
}
