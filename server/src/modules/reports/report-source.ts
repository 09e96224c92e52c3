import type { Trx } from '../../db/knex';
import type { RequestContext } from '../../http/context';
import type { Row } from '../../resources/resource';
import type { ResolvedRange } from '../../../../shared/reports/criteria';
import type { ReportDefinition } from '../../../../shared/reports/definition';

/**
 * What a report's query is given: its criteria as the query gave them (lookups, options, values), its date ranges
 * resolved (presets in Hong Kong days), and the branches whose rows the caller may see — the branch scope and the
 * `branch_id` criterion together (null: every branch; empty: none).
 */
export interface ReportCriteria {
  values: Readonly<Record<string, unknown>>;
  ranges: Readonly<Record<string, ResolvedRange>>;
  branchIds: readonly number[] | null;
  /** Hong Kong's day the criteria are resolved on (the presets' ranges, an invoice overdue) */
  today: string;
}

/** A detail order: a sortable column of the report and its direction. */
export interface ReportSort {
  column: string;
  direction: 'asc' | 'desc';
}

export interface ReportReadContext {
  ctx: RequestContext;
  signal?: AbortSignal;
}

/**
 * A report's query on the server, beside its shared definition: the rows of its criteria in the caller's scope. A
 * report with `detail` rows answers their pages, their number, their totals (per currency) and every one of them in
 * batches by key; a report with groupings answers all the rows of a grouping (a few: one per group). Rows come raw
 * (names in both languages, ids), and `present` shows one as its columns hold it, in a language, with the path it
 * links to (`url`) when it has one.
 */
export interface ReportSource {
  definition: ReportDefinition;
  detail?: {
    page(
      db: Trx,
      criteria: ReportCriteria,
      sort: ReportSort,
      page: number,
      perPage: number,
      read: ReportReadContext,
    ): Promise<Row[]>;
    count(db: Trx, criteria: ReportCriteria, read: ReportReadContext): Promise<number>;
    /** the totalled columns summed, one row per currency (`currency` null when no column is money) */
    totals(db: Trx, criteria: ReportCriteria, read: ReportReadContext): Promise<Row[]>;
    batches(
      db: Trx,
      criteria: ReportCriteria,
      sort: ReportSort,
      read: ReportReadContext,
    ): AsyncIterable<Row[]>;
  };
  /** every row of a grouping (`group_by`) */
  groups?(db: Trx, criteria: ReportCriteria, grouping: string, read: ReportReadContext): Promise<Row[]>;
  /** a raw row (detail, or of `view`) as the report's columns show it in `language`, plus `url` */
  present(row: Row, view: string, language: 'en' | 'zh_HK'): Row;
}
