import { DASHBOARD_PERMISSION } from '../../../../shared/dashboard';
import { abortSignalOf, contextOf } from '../../http/context';
import type { ModuleDeps } from '../module';
import { createDashboardService } from './dashboard.service';
import { registerMoneyFigures } from './money.figures';
import { registerStudentFigures } from './students.figures';

/**
 * The dashboard (issue 29, item 5): `GET /api/dashboard/show` (`dashboard.view`) answers the registered figures the
 * caller may see. The students' figures and the money figures (this month's invoiced, received and outstanding,
 * overdue invoices, receipts awaiting approval, invoiced per month; per currency) are registered here
 * (`registerDashboardFigure`).
 */
export function registerDashboardModule(deps: ModuleDeps): void {
  registerMoneyFigures();
  registerStudentFigures();
  const dashboard = createDashboardService(deps.db);
  deps.api.add({
    method: 'get',
    path: '/dashboard/show',
    access: 'staff',
    permission: DASHBOARD_PERMISSION,
    schemas: {},
    handler: async (req, res) => {
      res.json(await dashboard.show({ ...contextOf(req), signal: abortSignalOf(req) }));
    },
  });
}
