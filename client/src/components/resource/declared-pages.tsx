import type { ComponentType } from 'react';
import type { ResourceDeclaration } from '../../../../shared/resources/declaration';
import { configFromDeclaration, type DeclarationOverrides } from './from-declaration';
import { resourceFormScreen } from './resource-form-page';
import { resourceListScreen } from './resource-list-page';

/**
 * The list and form screens of a declared resource: the generic pages bound to the config its declaration
 * (and its page's overrides) gives, as a hand-written page module does with its config file. Built once per
 * resource, so a screen keeps its identity between navigations.
 */
const screens = new Map<string, { list: ComponentType; form: ComponentType }>();

function screensOf(decl: ResourceDeclaration, overrides?: DeclarationOverrides) {
  let built = screens.get(decl.name);
  if (!built) {
    const config = configFromDeclaration(decl, overrides);
    built = { list: resourceListScreen(config), form: resourceFormScreen(config) };
    screens.set(decl.name, built);
  }
  return built;
}

export function declaredListScreen(
  decl: ResourceDeclaration,
  overrides?: DeclarationOverrides,
): ComponentType {
  return screensOf(decl, overrides).list;
}

export function declaredFormScreen(
  decl: ResourceDeclaration,
  overrides?: DeclarationOverrides,
): ComponentType {
  return screensOf(decl, overrides).form;
}
