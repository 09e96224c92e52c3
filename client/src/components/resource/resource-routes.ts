import type { Params } from 'react-router-dom';
import type { QueryParams } from '../../http/client';
import type { LazyPage, RouteEntry, RouteMenuEntry } from '../../app/routes/types';

export interface ResourceRoutesOptions {
  /** list path, e.g. `/settings/holiday` (`/settings/option/:key`) */
  path: string;
  /** API collection, e.g. `/api/holidays` or `(p) => \`/api/options/${p.key}\`` */
  api: string | ((params: Params) => string);
  /** permission module (`settings` → `settings.view`, `settings.create`) */
  module: string;
  titleKey: string;
  list: LazyPage;
  /** the form page; none for a read-only resource */
  form?: LazyPage;
  /**
   * @deprecated the list reads its own data (`ResourceTable`); a filter's default is its `defaultValue`.
   * Kept so that older route tables still compile.
   */
  listQuery?: (params: Params) => QueryParams;
  /** a permission other than `${module}.view` for the list and records (the audit log: admins only) */
  viewPermission?: string;
  menu?: RouteMenuEntry;
}

/**
 * The route-table entries of one resource screen: the list (`path`; its table reads its own pages through
 * RTK Query, the route only guards), the new-record form (`path/create`, data: `GET api/create`) and a record
 * (`path/:id`, data: `GET api/{id}`). The pages are the generic list and form pages configured by the
 * resource's config file.
 */
export function resourceRoutes(o: ResourceRoutesOptions): RouteEntry[] {
  const api = (p: Params) => (typeof o.api === 'function' ? o.api(p) : o.api);
  const view = o.viewPermission ?? `${o.module}.view`;
  const routes: RouteEntry[] = [
    {
      path: o.path,
      access: 'signed-in',
      page: o.list,
      permission: view,
      titleKey: o.titleKey,
      menu: o.menu,
    },
  ];
  if (o.form) {
    routes.push(
      {
        path: `${o.path}/create`,
        access: 'signed-in',
        page: o.form,
        data: { url: (p) => `${api(p)}/create` },
        permission: `${o.module}.create`,
        titleKey: o.titleKey,
      },
      {
        path: `${o.path}/:id`,
        access: 'signed-in',
        page: o.form,
        data: { url: (p) => `${api(p)}/${p.id}` },
        permission: view,
        titleKey: o.titleKey,
      },
    );
  }
  return routes;
}

export interface RecordTabRoutesOptions {
  /** the resource's screens, e.g. `/schools`: a tab is `${base}/${tab}/:id` */
  base: string;
  /**
   * the tabs in order, as in the page's config; a tab may need a permission of its own, and may open records of
   * its own (a child resource's: `records`, their module) at `${base}/${key}/:id/create` and
   * `${base}/${key}/:id/:childId`
   */
  tabs: readonly (
    | string
    | {
        key: string;
        /** the path segment when not the key (spec `/students/invoice/:id` for the tab `order`) */
        segment?: string;
        permission?: string;
        records?: { module: string };
        /**
         * a tab listing several children: each one's records at `${base}/${key}/:id/${part}/create` and
         * `${base}/${key}/:id/${part}/:childId`
         */
        parts?: readonly { part: string; module: string }[];
      }
  )[];
  /** permission module (`schools` → `schools.view`) */
  module: string;
  titleKey: string;
  /** the record page (a `ResourceRecordPage` with the same tabs) */
  page: LazyPage;
  /** a permission other than `${module}.view` */
  viewPermission?: string;
}

/**
 * The route-table entries of a record page whose tabs are path segments (spec routes such as
 * `/schools/{basic,subject,admission,attachment}/:id`): one entry per tab, all on the same page, which reads
 * the record itself (`GET api/{id}?tab=…`, through RTK Query); the routes only guard.
 */
export function recordTabRoutes(o: RecordTabRoutesOptions): RouteEntry[] {
  const view = o.viewPermission ?? `${o.module}.view`;
  return o.tabs.flatMap((tab) => {
    const key = typeof tab === 'string' ? tab : (tab.segment ?? tab.key);
    const permission = typeof tab === 'string' ? undefined : tab.permission;
    const records = typeof tab === 'string' ? undefined : tab.records;
    const parts = typeof tab === 'string' ? [] : (tab.parts ?? []);
    const entry = (path: string, needs: string): RouteEntry => ({
      path,
      access: 'signed-in',
      page: o.page,
      permission: needs,
      titleKey: o.titleKey,
    });
    const routes = [entry(`${o.base}/${key}/:id`, permission ?? view)];
    if (records)
      routes.push(
        entry(`${o.base}/${key}/:id/create`, `${records.module}.create`),
        entry(`${o.base}/${key}/:id/:childId`, permission ?? `${records.module}.view`),
      );
    for (const { part, module } of parts)
      routes.push(
        entry(`${o.base}/${key}/:id/${part}/create`, `${module}.create`),
        entry(`${o.base}/${key}/:id/${part}/:childId`, permission ?? `${module}.view`),
      );
    return routes;
  });
}
