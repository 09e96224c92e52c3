import type { Knex } from 'knex';
import type { DashboardAnswer, DashboardFigure } from '../../../../shared/dashboard';
import { hongKongDay } from '../../../../shared/reports/criteria';
import { can } from '../../../../shared/permissions';
import type { RequestContext } from '../../http/context';
import { clock } from '../../lib/clock';
import { registeredDashboardFigures, type FigureScope } from './dashboard.figures';

/**
 * `GET /api/dashboard/show`: every registered figure the caller may see, computed for its branch scope (a
 * branch-scoped caller's own branch; none without a branch) one after another, each with the address that explains
 * it when the caller may open that.
 */
export function createDashboardService(db: Knex) {
  return {
    async show(ctx: RequestContext): Promise<DashboardAnswer> {
      const holder = ctx.access
        ? { is_admin: ctx.access.isAdmin, permissions: ctx.access.permissions }
        : null;
      const scope: FigureScope = {
        branchIds: ctx.branchScope
          ? ctx.branchScope.branchId === null
            ? []
            : [ctx.branchScope.branchId]
          : null,
        today: hongKongDay(clock.now()),
      };
      const figures: DashboardFigure[] = [];
      for (const figure of registeredDashboardFigures()) {
        if (!can(holder, figure.permission)) continue;
        const link = figure.link?.(scope);
        figures.push({
          key: figure.key,
          kind: figure.kind,
          link: link && can(holder, link.permission) ? link.path : null,
          data: await figure.compute(db, ctx, scope),
        });
      }
      return { figures, today: scope.today };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
