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
  /** defaults of the list call (the URL's query is appended on top), e.g. the current year */
  listQuery?: (params: Params) => QueryParams;
  /** a permission other than `${module}.view` for the list and records (the audit log: admins only) */
  viewPermission?: string;
  menu?: RouteMenuEntry;
}

/**
 * The route-table entries of one resource screen: the list (`path`), the new-record form (`path/create`,
 * data: `GET api/create`) and a record (`path/:id`, data: `GET api/{id}`). The pages are the generic list and
 * form pages configured by the resource's config file.
 */
export function resourceRoutes(o: ResourceRoutesOptions): RouteEntry[] {
  const api = (p: Params) => (typeof o.api === 'function' ? o.api(p) : o.api);
  const view = o.viewPermission ?? `${o.module}.view`;
  const routes: RouteEntry[] = [
    {
      path: o.path,
      access: 'signed-in',
      page: o.list,
      data: { url: api, query: (p) => ({ ...(o.listQuery?.(p) ?? {}), per_page: 20 }) },
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
