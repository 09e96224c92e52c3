import { ERROR_ROUTES } from './common-routes';
import type { RouteTable } from './types';

/**
 * The student portal's route table (spec §2). Feature issues add /index, /family, /select-application,
 * /application and /document here, e.g.
 *   { path: '/index', access: 'signed-in', page: () => import('…'), data: { url: '/api/student' },
 *     menu: { labelKey: 'portal.menu.personal' } }
 */
export const portalRoutes: RouteTable = {
  menuGroups: [],
  routes: [
    { path: '/', access: 'signed-in', redirectTo: '/index' },
    {
      path: '/login',
      access: 'guest',
      titleKey: 'portal.login.title',
      page: () => import('../../features/portal/portal-login-page'),
    },
    {
      path: '/logout',
      access: 'signed-in',
      titleKey: 'auth.logout.title',
      page: () => import('../../features/portal/portal-logout-page'),
    },
    ERROR_ROUTES['403'],
    // The HTTP client sends a 404 answer here; any other unknown path gets the same screen (catch-all).
    ERROR_ROUTES['404'],
    ERROR_ROUTES['500'],
    ERROR_ROUTES.noConnection,
  ],
};
