import type { ComponentType } from 'react';
import { BankOutlined, SolutionOutlined } from '@ant-design/icons';
import { childOfTab, childrenOfTab, DECLARATIONS } from '../../../../shared/resources';
import type { ResourceDeclaration } from '../../../../shared/resources/declaration';
import type { LazyPage, MenuGroup, RouteEntry } from '../../app/routes/types';
import type { DeclarationOverrides } from './from-declaration';
import { recordTabRoutes, resourceRoutes } from './resource-routes';

/**
 * The back-office screens of the declared resources (shared/resources): for each declaration with a `page`,
 * its list (`route`), new-record form (`route/create`) and record (`route/:id`) on the generic pages, and a menu
 * entry under the page's menu group labelled with the resource's title. A declaration with `tabs` has a record
 * page whose tabs are path segments instead (spec `/schools/basic/:id`, `/schools/subject/:id` …): its list at
 * `route`, a new record at `route/{first tab}/create`, each tab at `route/{tab}/:id`, and a tab naming a child
 * resource (`subject` of `school`: `school_subject`) lists it, its records at `route/{tab}/:id/create` and
 * `route/{tab}/:id/:childId`. A screen needing more than its declaration (what a tab shows, toolbar buttons,
 * custom cells, locked fields) names a module of overrides in `pages`, loaded with the screen.
 */

/** The menu groups declared screens go under (the settings group is the settings feature's). */
export const DECLARED_MENU_GROUPS: MenuGroup[] = [
  { id: 'schools', labelKey: 'menu.schools', icon: BankOutlined, order: 90 },
  { id: 'students', labelKey: 'menu.students', icon: SolutionOutlined, order: 100 },
];

// the children a record page's tab lists, as the server's `?tab=` answers them (shared/resources/index.ts)
export { childOfTab, childrenOfTab };

/** The small page config of one declared screen, beyond its declaration. */
export interface DeclaredPageOptions {
  /** the menu entry's icon */
  icon?: ComponentType;
  /** a permission other than `${module}.view` for the list and records */
  viewPermission?: string;
  /** the screen's overrides of its derived config (a module whose default export they are) */
  overrides?: () => Promise<{ default: DeclarationOverrides }>;
  /** a record tab's path segment when not its key (spec `/students/invoice/:id` for the tab `order`) */
  tabSegments?: Readonly<Record<string, string>>;
}

function lazyScreen(
  decl: ResourceDeclaration,
  kind: 'list' | 'form' | 'record',
  options: DeclaredPageOptions | undefined,
): LazyPage {
  return async () => {
    const overrides = (await options?.overrides?.())?.default;
    if (kind === 'list') {
      const { declaredListScreen } = await import('./declared-list-page');
      return { default: declaredListScreen(decl, overrides) };
    }
    if (kind === 'record') {
      const { declaredRecordScreen } = await import('./declared-record-page');
      return {
        default: declaredRecordScreen(decl, overrides, decl.tabChildren, options?.tabSegments),
      };
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
    const route = decl.page.route;
    const api = `/api${decl.path}`;
    const tabs = decl.tabs ?? [];
    const list = resourceRoutes({
      path: route,
      api,
      module: decl.module,
      titleKey,
      list: lazyScreen(decl, 'list', options),
      // a record page with tabs has its own routes, below
      form: decl.readOnly || tabs.length ? undefined : lazyScreen(decl, 'form', options),
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
    if (!tabs.length) return list;
    const create: RouteEntry[] = decl.readOnly
      ? []
      : [
          {
            path: decl.page.createRoute ?? `${route}/${tabs[0]}/create`,
            access: 'signed-in',
            page: lazyScreen(decl, 'form', options),
            data: { url: () => `${api}/create` },
            permission: `${decl.module}.create`,
            titleKey,
          },
        ];
    const record = recordTabRoutes({
      base: route,
      tabs: tabs.map((key) => {
        const segment = options?.tabSegments?.[key];
        if (segment) return { key, segment };
        const several = decl.tabChildren?.[key];
        if (several)
          return {
            key,
            parts: childrenOfTab(decl, key, several, declarations)
              .filter(({ child }) => !child.readOnly)
              .map(({ part, child }) => ({ part, module: child.module })),
          };
        const child = childOfTab(decl, key, declarations);
        return child && !child.readOnly ? { key, records: { module: child.module } } : key;
      }),
      module: decl.module,
      titleKey,
      page: lazyScreen(decl, 'record', options),
      viewPermission: options?.viewPermission,
    });
    return [...list, ...create, ...record];
  });
}
