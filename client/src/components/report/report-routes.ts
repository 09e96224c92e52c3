import { BarChartOutlined } from '@ant-design/icons';
import { REPORTS } from '../../../../shared/reports';
import {
  reportKeys,
  reportPermission,
  resultRoute,
  type ReportDefinition,
} from '../../../../shared/reports/definition';
import type { MenuGroup, RouteEntry } from '../../app/routes/types';

/** The menu group of the reports (before the media manager and the settings). */
export const REPORTS_MENU_GROUP: MenuGroup = {
  id: 'reports',
  labelKey: 'menu.reports',
  icon: BarChartOutlined,
  order: 600,
};

/**
 * The screens of every report (shared/reports): its criteria screen (`route`, a menu entry in the reports group) and
 * its result screen (`route-result`), each behind the report group's key (`reports.<group>`); the screens' code
 * loads with them.
 */
export function routesFromReports(reports: readonly ReportDefinition[] = REPORTS): RouteEntry[] {
  return reports.flatMap((def) => {
    const titleKey = reportKeys.title(def);
    const permission = reportPermission(def.group);
    return [
      {
        path: def.route,
        access: 'signed-in',
        titleKey,
        permission,
        page: async () => ({ default: (await import('./report-criteria-page')).reportCriteriaScreen(def) }),
        menu: { labelKey: titleKey, group: REPORTS_MENU_GROUP.id, order: def.order },
      },
      {
        path: resultRoute(def),
        access: 'signed-in',
        titleKey,
        permission,
        page: async () => ({ default: (await import('./report-result-page')).reportResultScreen(def) }),
      },
    ];
  });
}
