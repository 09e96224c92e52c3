import { getStoredLocale } from '../../i18n/locale';
import { withAntd } from './antd-page';
import { ERROR_ROUTES } from './common-routes';
import type { RouteGuard, RouteTable } from './types';

const passwordPages = () => import('../../features/portal/password-pages');

/** The routes open while a password staff set must still be changed. */
const OPEN_BEFORE_CHANGE = new Set(['/password/change', '/logout']);

/** A student whose password staff set changes it before anything else (`must_change_password`). */
export const mustChangePasswordFirst: RouteGuard = (entry, { student }) =>
  student?.must_change_password === true &&
  !OPEN_BEFORE_CHANGE.has(entry.path) &&
  entry.access === 'signed-in'
    ? '/password/change'
    : null;

/**
 * The student portal's route table (spec §2): every screen lazy, each with its data call. The menu's icons are the
 * (lazy) portal layout's, so that the first load carries no icon.
 */
export const portalRoutes: RouteTable = {
  menuGroups: [],
  guard: mustChangePasswordFirst,
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
    {
      path: '/index',
      access: 'signed-in',
      titleKey: 'portal.menu.personal',
      page: () => import('../../features/portal/personal-page'),
      data: { url: '/api/student' },
      menu: { labelKey: 'portal.menu.personal', order: 10 },
    },
    {
      path: '/family',
      access: 'signed-in',
      titleKey: 'portal.menu.family',
      page: () => import('../../features/portal/family-page'),
      data: { url: '/api/family' },
      menu: { labelKey: 'portal.menu.family', order: 20 },
    },
    {
      path: '/select-application',
      access: 'signed-in',
      titleKey: 'portal.menu.select',
      page: () => import('../../features/portal/select-application-page'),
      data: { url: '/api/select-application' },
      menu: { labelKey: 'portal.menu.select', order: 30 },
    },
    {
      path: '/application',
      access: 'signed-in',
      titleKey: 'portal.menu.applications',
      page: () => import('../../features/portal/applications-page'),
      data: { url: '/api/application' },
      menu: { labelKey: 'portal.menu.applications', order: 40 },
    },
    {
      path: '/document',
      access: 'signed-in',
      titleKey: 'portal.menu.documents',
      page: () => import('../../features/portal/documents-page'),
      // the checklist's names in the stored language
      data: { url: '/api/document', query: () => ({ locale: getStoredLocale() }) },
      menu: { labelKey: 'portal.menu.documents', order: 50 },
    },
    {
      path: '/password/change',
      access: 'signed-in',
      titleKey: 'portal.password.changeTitle',
      page: () => passwordPages().then((m) => ({ default: m.ChangePasswordPage })),
    },
    {
      path: '/password/set',
      access: 'public',
      titleKey: 'portal.password.setTitle',
      page: withAntd(() => passwordPages().then((m) => ({ default: m.SetPasswordPage })), 'portal'),
    },
    {
      path: '/password/forgot',
      access: 'public',
      titleKey: 'portal.password.forgotTitle',
      page: withAntd(() => passwordPages().then((m) => ({ default: m.ForgotPasswordPage })), 'portal'),
    },
    ERROR_ROUTES['403'],
    // The HTTP client sends a 404 answer here; any other unknown path gets the same screen (catch-all).
    ERROR_ROUTES['404'],
    ERROR_ROUTES['500'],
    ERROR_ROUTES.noConnection,
  ],
};
