/**
 * The dashboard (`/dashboard`, `GET /api/dashboard/show`, issue 29 item 5): figures for the caller's branch scope,
 * each of a kind the client draws one way, each linking to the list or report that explains it. A figure is a
 * definition here (its key, kind, permission, place), its computation registered on the server by the module that
 * owns its records (`registerDashboardFigure`), and its strings (`dashboard.figures.<key>.*`). Money figures (this
 * month's invoiced, received and outstanding, overdue invoices, receipts awaiting approval, invoiced per month) are
 * more definitions of the money kinds, per currency, registered with the invoices and receipts.
 */

/**
 * How a figure's data is shaped, and so drawn:
 * - `counts`: a count per category (a bar each: applications by status);
 * - `series`: a count per period, in order (a line: new students per month);
 * - `list`: a number and the first few records it counts (documents pending before a deadline);
 * - `money`: amounts per currency (never summed across currencies), and how many documents they are of when the
 *   figure counts them (overdue invoices);
 * - `money_series`: amounts per period, a series per currency (invoiced per month, HKD beside KRW).
 */
export const FIGURE_KINDS = ['counts', 'series', 'list', 'money', 'money_series'] as const;
export type FigureKind = (typeof FIGURE_KINDS)[number];

export interface CountsData {
  items: { key: string; label: string; value: number }[];
}
export interface SeriesData {
  points: { period: string; value: number }[];
}
export interface ListData {
  /** how many there are (the items are the first few) */
  total: number;
  items: {
    id: number;
    title: string;
    detail: string | null;
    date: string | null;
    value: number;
    url: string | null;
  }[];
}
export interface MoneyData {
  /** integer minor units, one entry per currency */
  values: { currency: string; amount: number }[];
  /** how many documents the amounts are of (overdue invoices, receipts awaiting approval), when the figure counts */
  count?: number;
}
export interface MoneySeriesData {
  currencies: string[];
  /** per period, each currency's amount in minor units */
  points: { period: string; amounts: Record<string, number> }[];
}

export type FigureData = CountsData | SeriesData | ListData | MoneyData | MoneySeriesData;

/** One figure of `GET /api/dashboard/show`. */
export interface DashboardFigure {
  key: string;
  kind: FigureKind;
  /** the back-office address that explains it (a report's result, a list), or null when the caller may not open it */
  link: string | null;
  data: FigureData;
}

export interface DashboardAnswer {
  /** the figures the caller may see, in their order */
  figures: DashboardFigure[];
  /** Hong Kong's day the figures are of */
  today: string;
}

/** The dashboard's own permission: without it, the route sends the user to `/home`. */
export const DASHBOARD_PERMISSION = 'dashboard.view';
