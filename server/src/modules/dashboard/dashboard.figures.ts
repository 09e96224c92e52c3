import type { Knex } from 'knex';
import type { FigureData, FigureKind } from '../../../../shared/dashboard';
import type { RequestContext } from '../../http/context';

/** What a figure is computed for: the caller's branches (null: every branch; empty: none) and Hong Kong's today. */
export interface FigureScope {
  branchIds: readonly number[] | null;
  today: string;
}

/**
 * One figure of the dashboard, registered by the module that owns its records: who may see it, how its data is
 * read (a query or two, in the caller's branch scope and language) and the address that explains it.
 */
export interface DashboardFigureDefinition {
  key: string;
  kind: FigureKind;
  /** the permission a caller needs to see it (besides `dashboard.view`) */
  permission: string;
  /** its place on the dashboard */
  order: number;
  /** the list or report that explains it, and the permission that opens that */
  link?: (scope: FigureScope) => { path: string; permission: string };
  compute(db: Knex, ctx: RequestContext, scope: FigureScope): Promise<FigureData>;
}

/** The first day of the month `months` before the month of `day`. */
export function monthStart(day: string, months: number): string {
  const d = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d.toISOString().slice(0, 10);
}

/** The last `count` months to `today`'s (`YYYY-MM`), the oldest first: a series' periods. */
export function lastMonths(today: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => monthStart(today, count - 1 - i).slice(0, 7));
}

const FIGURES = new Map<string, DashboardFigureDefinition>();

/** Adds (or replaces: each app built in one process registers its modules again) a figure. */
export function registerDashboardFigure(figure: DashboardFigureDefinition): void {
  FIGURES.set(figure.key, figure);
}

/** The registered figures, in their order. */
export function registeredDashboardFigures(): DashboardFigureDefinition[] {
  return [...FIGURES.values()].sort((a, b) => a.order - b.order);
}
