import type { ComponentType } from 'react';
import { SolutionOutlined } from '@ant-design/icons';
import { DECLARATIONS } from '../../../../shared/resources';
import type { ResourceDeclaration } from '../../../../shared/resources/declaration';
import type { LazyPage, MenuGroup, RouteEntry } from '../../app/routes/types';
import type { DeclarationOverrides } from './from-declaration';
import { resourceRoutes } from './resource-routes';

/**
 * The back-office screens of the declared resources (shared/resources): for each declaration with a `page`,
 * its list (`route`), new-record form (`route/create`) and record (`route/:id`) on the generic pages, and a menu
 * entry under the page's menu group labelled with the resource's title. A screen needing more than its
 * declaration (tabs, toolbar buttons, custom cells, locked fields) names a module of overrides in `pages`,
 * loaded with the screen.
 */

/** The menu groups declared screens go under (the settings group is the settings feature's). */
export const DECLARED_MENU_GROUPS: MenuGroup[] = [
  { id: 'students', labelKey: 'menu.students', icon: SolutionOutlined, order: 100 },
];

/** The small page config of one declared screen, beyond its declaration. */
export interface DeclaredPageOptions {
  /** the menu entry's icon */
  icon?: ComponentType;
  /** a permission other than `${module}.view` for the list and records */
  viewPermission?: string;
  /** the screen's overrides of its derived config (a module whose default export they are) */
  overrides?: () => Promise<{ default: DeclarationOverrides }>;
}

function lazyScreen(
  decl: ResourceDeclaration,
  kind: 'list' | 'form',
  options: DeclaredPageOptions | undefined,
): LazyPage {
  return async () => {
    const overrides = (await options?.overrides?.())?.default;
    if (kind === 'list') {
      const { declaredListScreen } = await import('./declared-list-page');
      return { default: declaredListScreen(decl, overrides) };
    }
    const { declaredFormScreen } = await import('./declared-form-page');
    return { default: declaredFormScreen(decl, overrides) };
  };
}

/** The route-table entries (and so the menu entries) of every declaration with a `page`. */
export function routesFromDeclarations(
  declarations: readonly ResourceDeclaration[] = DECLARATIONS,
  pages: Readonly<Record<string, DeclaredPageOptions>> = {},
): RouteEntry[] {
  return declarations.flatMap((decl) => {
    if (!decl.page) return [];
    const options = pages[decl.name];
    const titleKey = `resources.${decl.name}.title`;
    return resourceRoutes({
      path: decl.page.route,
      api: `/api${decl.path}`,
      module: decl.module,
      titleKey,
      list: lazyScreen(decl, 'list', options),
      form: decl.readOnly ? undefined : lazyScreen(decl, 'form', options),
      viewPermission: options?.viewPermission,
      menu: decl.page.menu
        ? {
            labelKey: titleKey,
            group: decl.page.menu.group,
            order: decl.page.menu.order,
            icon: options?.icon,
          }
        : undefined,
    });
  });
}
