import {
  AuditOutlined,
  CalendarOutlined,
  EnvironmentOutlined,
  FileTextOutlined,
  MailOutlined,
  NumberOutlined,
  SettingOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { resourceRoutes } from '../../components/resource/resource-routes';
import type { MenuGroup, RouteEntry } from '../../app/routes/types';

/** The settings menu group (users, roles … and the reference data below). */
export const SETTINGS_MENU_GROUP: MenuGroup = {
  id: 'settings',
  labelKey: 'settings.menu.group',
  icon: SettingOutlined,
  order: 800,
};

/**
 * Reference data and settings screens (issue 5), at the spec's routes under Settings: each CRUD screen on the
 * generic list and form pages, configured from its declaration (shared/resources) by its config file.
 */
export const settingsRoutes: RouteEntry[] = [
  ...resourceRoutes({
    path: '/settings/holiday',
    api: '/api/holidays',
    module: 'settings',
    titleKey: 'resources.holiday.title',
    list: () => import('./holidays/holiday-list-page'),
    form: () => import('./holidays/holiday-form-page'),
    menu: { labelKey: 'settings.menu.holiday', group: 'settings', icon: CalendarOutlined, order: 20 },
  }),
  ...resourceRoutes({
    path: '/settings/area',
    api: '/api/areas',
    module: 'settings',
    titleKey: 'resources.area.title',
    list: () => import('./areas/area-list-page'),
    form: () => import('./areas/area-form-page'),
    menu: { labelKey: 'settings.menu.area', group: 'settings', icon: EnvironmentOutlined, order: 21 },
  }),
  {
    path: '/settings/option',
    access: 'signed-in',
    redirectTo: '/settings/option/nationality',
    permission: 'settings.view',
    menu: { labelKey: 'settings.menu.option', group: 'settings', icon: UnorderedListOutlined, order: 22 },
  },
  ...resourceRoutes({
    path: '/settings/option/:key',
    api: (p) => `/api/options/${p.key}`,
    module: 'settings',
    titleKey: 'settings.option.title',
    list: () => import('./options/option-list-page'),
    form: () => import('./options/option-form-page'),
  }),
  ...resourceRoutes({
    path: '/settings/order/terms',
    api: '/api/order-terms',
    module: 'settings',
    titleKey: 'resources.order_terms.title',
    list: () => import('./terms/order-terms-list-page'),
    form: () => import('./terms/order-terms-form-page'),
    menu: { labelKey: 'settings.menu.orderTerms', group: 'settings', icon: FileTextOutlined, order: 23 },
  }),
  ...resourceRoutes({
    path: '/settings/refund/terms',
    api: '/api/refund-terms',
    module: 'settings',
    titleKey: 'resources.refund_terms.title',
    list: () => import('./terms/refund-terms-list-page'),
    form: () => import('./terms/refund-terms-form-page'),
    menu: { labelKey: 'settings.menu.refundTerms', group: 'settings', icon: FileTextOutlined, order: 24 },
  }),
  {
    path: '/settings/code',
    access: 'signed-in',
    page: () => import('./code/code-page'),
    data: { url: '/api/settings' },
    permission: 'settings.view',
    titleKey: 'settings.code.title',
    menu: { labelKey: 'settings.menu.code', group: 'settings', icon: NumberOutlined, order: 25 },
  },
  {
    path: '/settings/general',
    access: 'signed-in',
    page: () => import('./general/general-page'),
    data: { url: '/api/settings' },
    permission: 'settings.view',
    titleKey: 'settings.general.title',
    menu: { labelKey: 'settings.menu.general', group: 'settings', icon: MailOutlined, order: 26 },
  },
  ...resourceRoutes({
    path: '/settings/audit-log',
    api: '/api/audit-logs',
    module: 'settings',
    viewPermission: 'admin',
    titleKey: 'resources.audit_log.title',
    list: () => import('./audit/audit-list-page'),
    menu: { labelKey: 'settings.menu.audit', group: 'settings', icon: AuditOutlined, order: 30 },
  }),
  {
    path: '/settings/audit-log/:entity/:id',
    access: 'signed-in',
    page: () => import('./audit/audit-record-page'),
    permission: 'admin',
    titleKey: 'resources.audit_log.title',
  },
];
