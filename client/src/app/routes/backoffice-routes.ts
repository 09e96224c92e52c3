import {
  BranchesOutlined,
  CalendarOutlined,
  DashboardOutlined,
  ApiOutlined,
  FolderOpenOutlined,
  HomeOutlined,
  IdcardOutlined,
  LockOutlined,
  SafetyOutlined,
  ShopOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { ADMINS_ONLY } from '../../../../shared/permissions';
import { DECLARATIONS } from '../../../../shared/resources';
import { DECLARED_MENU_GROUPS, routesFromDeclarations } from '../../components/resource/declared-routes';
import { resourceRoutes } from '../../components/resource/resource-routes';
import { REPORTS_MENU_GROUP, routesFromReports } from '../../components/report/report-routes';
import { CATALOGUE_MENU_GROUPS, CATALOGUE_PAGES } from '../../features/catalogue/catalogue-pages';
import { SCHOOL_PAGE } from '../../features/schools/school-page';
import { STUDENT_PAGE } from '../../features/students/student-page';
import { SALES_MENU_GROUPS, SALES_PAGES } from '../../features/sales/sales-pages';
import { MONEY_PAGES } from '../../features/money/money-pages';
import { SETTINGS_MENU_GROUP, settingsRoutes } from '../../features/settings/settings-routes';
import { reloadView } from '../../features/system/reload';
import { withAntd } from './antd-page';
import { ERROR_ROUTES } from './common-routes';
import type { RouteTable } from './types';

/**
 * The back-office route table (spec §2). Menu, guards and loaders all read it. A feature screen is one
 * more entry: path, lazy page, data call, permission key, menu entry. For example:
 *
 *   { path: '/settings/holiday', access: 'signed-in', page: () => import('…/holiday-page'),
 *     data: { url: '/api/holidays', query: () => ({ year: String(new Date().getFullYear()) }) },
 *     permission: 'settings.view', menu: { labelKey: 'menu.holidays', group: 'settings' } }
 */
export const backofficeRoutes: RouteTable = {
  menuGroups: [
    SETTINGS_MENU_GROUP,
    ...DECLARED_MENU_GROUPS,
    ...CATALOGUE_MENU_GROUPS,
    ...SALES_MENU_GROUPS,
    REPORTS_MENU_GROUP,
    { id: 'account', labelKey: 'menu.account', icon: IdcardOutlined, order: 850 },
  ],
  routes: [
    // `/` → the calendar (spec §2); someone who may not see it starts on /home, never on an error screen
    {
      path: '/',
      access: 'signed-in',
      redirectTo: '/calendar',
      permission: 'calendar.view',
      deniedRedirect: '/home',
    },

    // Public (spec §2): sign-in screens (guests only) and /test.
    {
      path: '/login',
      access: 'guest',
      titleKey: 'auth.login.title',
      page: () => import('../../features/auth/login-page'),
    },
    {
      path: '/register',
      access: 'guest',
      titleKey: 'auth.register.title',
      page: withAntd(() => import('../../features/auth/register-page')),
    },
    {
      path: '/two-factor-challenge',
      access: 'guest',
      titleKey: 'auth.twoFactor.title',
      page: withAntd(() => import('../../features/auth/two-factor-page')),
    },
    {
      path: '/password/reset',
      access: 'guest',
      titleKey: 'auth.forgot.title',
      page: withAntd(() => import('../../features/auth/forgot-password-page')),
    },
    {
      path: '/email/verify',
      access: 'public',
      titleKey: 'auth.verify.title',
      page: withAntd(() => import('../../features/auth/verify-email-page')),
    },
    {
      path: '/test',
      access: 'public',
      titleKey: 'test.title',
      page: withAntd(() => import('../../features/system/test-page')),
    },

    // Signed in.
    {
      path: '/logout',
      access: 'signed-in',
      titleKey: 'auth.logout.title',
      page: () => import('../../features/auth/logout-page'),
    },
    // "Reload view": no screen of its own, the screen `to` opened again (features/system/reload.ts)
    { path: '/reload', access: 'signed-in', redirectTo: reloadView },
    {
      path: '/home',
      access: 'signed-in',
      titleKey: 'home.title',
      page: () => import('../../features/settings-accounts/home-page'),
      menu: { labelKey: 'menu.home', icon: HomeOutlined, order: 0 },
    },

    // The dashboard (issue 29): figures for the user's branch scope, recharts in its chunk only; without
    // dashboard.view the route sends the user to /home (spec §2)
    {
      path: '/dashboard',
      access: 'signed-in',
      titleKey: 'dashboard.title',
      page: () => import('../../features/dashboard/dashboard-page'),
      data: { url: '/api/dashboard/show' },
      permission: 'dashboard.view',
      deniedRedirect: '/home',
      menu: { labelKey: 'menu.dashboard', icon: DashboardOutlined, order: 1 },
    },

    // The calendar (issue 12): the month and the list of the calendar feed; FullCalendar only in their chunk.
    {
      path: '/calendar',
      access: 'signed-in',
      titleKey: 'calendar.title',
      page: () => import('../../features/calendar/calendar-page'),
      permission: 'calendar.view',
      menu: { labelKey: 'menu.calendar', icon: CalendarOutlined, order: 5 },
    },
    {
      path: '/calendar/list',
      access: 'signed-in',
      titleKey: 'calendar.listTitle',
      page: () => import('../../features/calendar/calendar-list-page'),
      permission: 'calendar.view',
    },

    // Accounts and access (issue 4): the user's own account.
    {
      path: '/user/profile',
      access: 'signed-in',
      titleKey: 'profile.title',
      page: () => import('../../features/profile/profile-page'),
      data: { url: '/api/user/profile' },
      menu: { labelKey: 'menu.profile', group: 'account', icon: UserOutlined, order: 1 },
    },
    {
      path: '/user/api-tokens',
      access: 'signed-in',
      titleKey: 'apiTokens.title',
      page: () => import('../../features/api-tokens/api-tokens-page'),
      feature: 'hasApiFeatures',
      menu: { labelKey: 'menu.apiTokens', group: 'account', icon: ApiOutlined, order: 2 },
    },
    ERROR_ROUTES['403'],
    ERROR_ROUTES['404'],
    ERROR_ROUTES['500'],
    ERROR_ROUTES.noConnection,

    // Settings: users, roles, companies, branches (issue 4), on the generic list and form pages.
    ...resourceRoutes({
      path: '/settings/users',
      api: '/api/users',
      module: 'users',
      titleKey: 'resources.user.title',
      list: () => import('../../features/settings-accounts/users-list-page'),
      form: () => import('../../features/settings-accounts/users-form-page'),
      menu: { labelKey: 'menu.users', group: 'settings', icon: TeamOutlined, order: 1 },
    }),
    ...resourceRoutes({
      path: '/settings/roles',
      api: '/api/roles',
      module: 'roles',
      titleKey: 'resources.role.title',
      list: () => import('../../features/settings-accounts/roles-list-page'),
      form: () => import('../../features/settings-accounts/roles-form-page'),
      menu: { labelKey: 'menu.roles', group: 'settings', icon: SafetyOutlined, order: 2 },
    }),
    ...resourceRoutes({
      path: '/settings/companies',
      api: '/api/companies',
      module: 'companies',
      titleKey: 'resources.company.title',
      list: () => import('../../features/settings-accounts/companies-list-page'),
      form: () => import('../../features/settings-accounts/companies-form-page'),
      menu: { labelKey: 'menu.companies', group: 'settings', icon: ShopOutlined, order: 3 },
    }),
    ...resourceRoutes({
      path: '/settings/branches',
      api: '/api/branches',
      module: 'branches',
      titleKey: 'resources.branch.title',
      list: () => import('../../features/settings-accounts/branches-list-page'),
      form: () => import('../../features/settings-accounts/branches-form-page'),
      menu: { labelKey: 'menu.branches', group: 'settings', icon: BranchesOutlined, order: 4 },
    }),
    {
      path: '/settings/security',
      access: 'signed-in',
      page: () => import('../../features/settings-accounts/security-settings-page'),
      data: { url: '/api/settings/accounts' },
      // security settings are admins' alone (access rules): no role can be given them
      permission: ADMINS_ONLY,
      titleKey: 'accounts.security.title',
      menu: { labelKey: 'menu.security', group: 'settings', icon: LockOutlined, order: 5 },
    },

    // UI showcase (spec §2 "/components/ pages"): open by their address, for developers, in no menu.
    {
      path: '/components/alerts',
      access: 'signed-in',
      titleKey: 'showcase.alerts.title',
      page: () => import('../../features/showcase/alerts-page'),
    },
    {
      path: '/components/avatar',
      access: 'signed-in',
      titleKey: 'showcase.avatar.title',
      page: () => import('../../features/showcase/avatar-page'),
    },
    {
      path: '/components/buttons',
      access: 'signed-in',
      titleKey: 'showcase.buttons.title',
      page: () => import('../../features/showcase/buttons-page'),
    },
    {
      path: '/components/inputs',
      access: 'signed-in',
      titleKey: 'showcase.inputs.title',
      page: () => import('../../features/showcase/inputs-page'),
    },
    {
      path: '/components/badges',
      access: 'signed-in',
      titleKey: 'showcase.badges.title',
      page: () => import('../../features/showcase/badges-page'),
    },
    {
      path: '/components/forms',
      access: 'signed-in',
      titleKey: 'showcase.forms.title',
      page: () => import('../../features/showcase/forms-page'),
    },
    {
      path: '/components/tables',
      access: 'signed-in',
      titleKey: 'showcase.tables.title',
      page: () => import('../../features/showcase/tables-page'),
    },
    {
      path: '/components/modals',
      access: 'signed-in',
      titleKey: 'showcase.modals.title',
      page: () => import('../../features/showcase/modals-page'),
    },
    {
      path: '/components/tabs',
      access: 'signed-in',
      titleKey: 'showcase.tabs.title',
      page: () => import('../../features/showcase/tabs-page'),
    },

    // Files (issue 12): the media manager, with the storage used against the quota.
    {
      path: '/media',
      access: 'signed-in',
      titleKey: 'files.media.title',
      page: () => import('../../features/files/media-manager-page'),
      permission: 'files.view',
      menu: { labelKey: 'menu.media', icon: FolderOpenOutlined, order: 700 },
    },

    // Settings: reference data (issue 5).
    ...settingsRoutes,

    // The reports (issue 29): each definition's criteria and result screens (shared/reports)
    ...routesFromReports(),

    // The declared resources' screens (shared/resources, issue 11): student categories …
    ...routesFromDeclarations(DECLARATIONS, {
      school: SCHOOL_PAGE,
      student: STUDENT_PAGE,
      ...CATALOGUE_PAGES,
      ...SALES_PAGES,
      ...MONEY_PAGES,
    }),
  ],
};
