import type { ModuleDeps } from '../module';
import { appUrl } from '../profile/profile.service';
import { buildOpenApiDocument } from './openapi.document';

/**
 * `GET /api/openapi.json`: the API description of every route an API token can call (openapi.document.ts), for
 * any signed-in staff user or token. Registered last; the document is made from the routes at the first request
 * and kept (the routes do not change while the app runs).
 */
export function registerOpenApiRoute({ api, config }: ModuleDeps): void {
  let document: object | null = null;
  api.add({
    method: 'get',
    path: '/openapi.json',
    access: 'staff',
    handler: (_req, res) => {
      document ??= buildOpenApiDocument(api.routes, { serverUrl: appUrl(config), version: '1' });
      res.json(document);
    },
  });
}
