import type { Knex } from 'knex';
import { msg, type MessageRef } from '../../../../shared/messages';
import { formatMinor } from '../../../../shared/money';
import { declarationByName } from '../../../../shared/resources';
import { displayName } from '../../../../shared/resources/derive';
import { hongKongDay, resolveRanges, type ResolvedRange } from '../../../../shared/reports/criteria';
import {
  reportKeys,
  totalledColumns,
  viewColumns,
  viewOf,
  type ReportDefinition,
} from '../../../../shared/reports/definition';
import type { RequestContext } from '../../http/context';
import { AppError, fieldMap } from '../../lib/app-error';
import { clock } from '../../lib/clock';
import type { ExportColumn, Row } from '../../resources/resource';
import { resourceRepository } from '../../resources/resource.repository';
import type { ExportLanguage } from '../exports/export.writer';
import { hongKongWallClock } from '../exports/export.writer';
import type { Content, DocumentDefinition } from '../pdf/pdfmake';
import { inLanguage, reportLabel } from './report-labels';
import type { ReportCriteria, ReportSort, ReportSource } from './report-source';

type Language = 'en' | 'zh_HK';

/** The data call's query after validation (shared/reports/criteria.ts `reportQuerySchema`). */
export interface ReportQuery {
  page: number;
  per_page: number;
  sort?: string;
  group_by?: string;
  [criterion: string]: unknown;
}

/** `GET /api{report}`: a page of rows, their number and the totals per currency, with what the criteria were. */
export interface ReportResult {
  items: Row[];
  total: number;
  page: number;
  per_page: number;
  /** one row per currency of the totalled columns (`currency` null when none is money); none without any */
  totals: Row[];
  /** the grouping the rows are in, or null for one row per record */
  group_by: string | null;
  /** each date range as it was read (a preset resolved to its days) */
  ranges: Record<string, ResolvedRange>;
  /** each record or option the criteria chose, by its name in the caller's language */
  names: Record<string, string>;
}

/** Sizes of the reports' files (a test lowers them). */
export const reportLimits = {
  /** the most rows a PDF holds: past it, the file is refused (a spreadsheet holds any number) */
  pdfRows: 5_000,
};

function isMoney(def: ReportDefinition, column: string): boolean {
  return def.columns[column]?.type === 'money';
}

/** The totalled columns of rows summed, one row per currency of their money (one row with null without money). */
export function sumTotals(def: ReportDefinition, view: string, rows: readonly Row[]): Row[] {
  const columns = totalledColumns(def, view);
  if (!columns.length) return [];
  const currencyColumn = columns.map((c) => def.columns[c].currency).find(Boolean);
  const byCurrency = new Map<string | null, Row>();
  for (const row of rows) {
    const currency = currencyColumn ? ((row[currencyColumn] as string | null) ?? null) : null;
    let total = byCurrency.get(currency);
    if (!total)
      byCurrency.set(currency, (total = { currency, ...Object.fromEntries(columns.map((c) => [c, 0])) }));
    for (const column of columns) total[column] = Number(total[column]) + Number(row[column] ?? 0);
  }
  if (!byCurrency.size)
    byCurrency.set(null, { currency: null, ...Object.fromEntries(columns.map((c) => [c, 0])) });
  return [...byCurrency.values()].sort((a, b) =>
    String(a.currency ?? '').localeCompare(String(b.currency ?? '')),
  );
}

/** A text's width in points at 8 points (Chinese, Japanese and Korean characters square, the rest about half). */
function textWidth(text: string): number {
  let width = 0;
  for (const ch of text)
    width += /[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/.test(ch) ? 8 : 4.6;
  return width;
}

/**
 * A PDF table's column widths: each column as wide as its widest cell (and header) when they all fit in `available`
 * points; else the narrow ones keep their width and the wide ones share the rest in proportion, so a number or a
 * code is not broken over two lines for a long name's sake.
 */
export function pdfColumnWidths(cells: readonly (readonly string[])[], available: number): number[] {
  const padding = 8;
  const natural = (cells[0] ?? []).map((_, i) =>
    Math.max(...cells.map((row) => textWidth(row[i] ?? '') + padding), 12),
  );
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= available) return natural;
  const fair = available / natural.length;
  const narrow = natural.filter((w) => w <= fair).reduce((a, b) => a + b, 0);
  const wide = total - narrow;
  const room = available - narrow;
  return natural.map((w) => (w <= fair ? w : Math.max(fair, (w / wide) * room)));
}

/** Grouped rows in the order asked: by a column (numbers as numbers, text in the language's order), nulls last. */
function sortRows(rows: Row[], sort: ReportSort, language: Language): Row[] {
  const collator = new Intl.Collator(language === 'en' ? 'en' : 'zh-HK', { numeric: true });
  const sign = sort.direction === 'asc' ? 1 : -1;
  return rows.sort((a, b) => {
    const x = a[sort.column];
    const y = b[sort.column];
    if (x === null || x === undefined || x === '') return y === null || y === undefined || y === '' ? 0 : 1;
    if (y === null || y === undefined || y === '') return -1;
    if (typeof x === 'number' && typeof y === 'number') return sign * (x - y);
    return sign * collator.compare(String(x), String(y));
  });
}

/**
 * The reports (issue 29): the criteria of a data call resolved and checked — presets in Hong Kong days, a range
 * that ends before it starts or is too long refused on its parameter (422), a branch outside the caller's scope not
 * found (404), as a record of it would not be —, the rows of a report's query as its columns show them, totals per
 * currency, the rows of a file in batches, a PDF through the one printer.
 */
export function createReportsService(db: Knex) {
  function criteriaOf(def: ReportDefinition, query: ReportQuery, ctx: RequestContext): ReportCriteria {
    const today = hongKongDay(clock.now());
    const { ranges, problems } = resolveRanges(def, query, today);
    const fields = Object.keys(problems);
    if (fields.length) {
      const errors = fieldMap<MessageRef[]>();
      for (const field of fields) errors[field] = [problems[field]];
      throw new AppError('validation', 'validation', { errors });
    }
    const values: Record<string, unknown> = {};
    for (const [name, criterion] of Object.entries(def.criteria))
      if (criterion.type !== 'dateRange' && query[name] !== undefined) values[name] = query[name];
    const asked = typeof values.branch_id === 'number' ? values.branch_id : undefined;
    const scope = ctx.branchScope;
    let branchIds: number[] | null;
    if (scope) {
      // another branch does not exist for a branch-scoped caller
      if (asked !== undefined && asked !== scope.branchId) throw new AppError('not_found');
      branchIds = scope.branchId === null ? [] : [scope.branchId];
    } else branchIds = asked === undefined ? null : [asked];
    return { values, ranges, branchIds, today };
  }

  function sortOf(def: ReportDefinition, view: string, sort: string | undefined): ReportSort | null {
    if (!sort) {
      if (view !== 'detail') return null;
      const fallback = def.defaultSort ?? def.sortable?.[0];
      if (!fallback) return null;
      return { column: fallback.replace(/^-/, ''), direction: fallback.startsWith('-') ? 'desc' : 'asc' };
    }
    const column = sort.replace(/^-/, '');
    const allowed = view === 'detail' ? (def.sortable ?? []) : viewColumns(def, view);
    if (!allowed.includes(column))
      throw AppError.field('validation', 'sort', msg('sortUnsupported', { column }));
    return { column, direction: sort.startsWith('-') ? 'desc' : 'asc' };
  }

  /** Each chosen record's or option's name (a record outside the caller's branch is left unnamed). */
  async function namesOf(
    def: ReportDefinition,
    criteria: ReportCriteria,
    ctx: RequestContext,
    language: Language,
  ) {
    const names: Record<string, string> = {};
    for (const [name, criterion] of Object.entries(def.criteria)) {
      const value = criteria.values[name];
      if (value === undefined || value === null) continue;
      if (criterion.type === 'values') {
        names[name] = inLanguage(reportLabel(reportKeys.value(def, name, String(value))), language);
      } else if (criterion.type === 'option') {
        const [row] = await resourceRepository.rowsByKey(
          db,
          'options',
          'value',
          [value],
          ['label_en', 'label_zh'],
          {
            key: criterion.key,
          },
        );
        names[name] = row
          ? String((language === 'en' ? row.label_en : row.label_zh) || row.label_en)
          : String(value);
      } else if (criterion.type === 'lookup') {
        const decl = declarationByName(criterion.resource);
        if (!decl) continue;
        const columns = [...new Set([...decl.display.en, ...decl.display.zh_HK])];
        const where: Row = {};
        const branchColumn = decl.branchColumn;
        if (ctx.branchScope && branchColumn) where[branchColumn] = ctx.branchScope.branchId ?? -1;
        const [row] = await resourceRepository.rowsByKey(db, decl.table, 'id', [value], columns, where);
        if (row) names[name] = displayName(decl, row, language);
      }
    }
    return names;
  }

  /** Every row of the result, as the screen shows them, batch by batch (detail rows by key; groups at once). */
  async function* rowsOf(
    source: ReportSource,
    query: ReportQuery,
    ctx: RequestContext,
  ): AsyncGenerator<Row[]> {
    const def = source.definition;
    const criteria = criteriaOf(def, query, ctx);
    const view = viewOf(def, query.group_by);
    const sort = sortOf(def, view, query.sort);
    const read = { ctx, signal: ctx.signal };
    if (view === 'detail') {
      for await (const rows of source.detail!.batches(db, criteria, sort!, read))
        yield rows.map((row) => source.present(row, view, ctx.language));
      return;
    }
    const all = (await source.groups!(db, criteria, view, read)).map((row) =>
      source.present(row, view, ctx.language),
    );
    yield sortRows(all, sort ?? { column: viewColumns(def, view)[0], direction: 'asc' }, ctx.language);
  }

  return {
    criteriaOf,
    rows: rowsOf,

    async result(source: ReportSource, query: ReportQuery, ctx: RequestContext): Promise<ReportResult> {
      const def = source.definition;
      const criteria = criteriaOf(def, query, ctx);
      const view = viewOf(def, query.group_by);
      const sort = sortOf(def, view, query.sort);
      const read = { ctx, signal: ctx.signal };
      const language = ctx.language;
      const { page, per_page } = query;
      let items: Row[];
      let total: number;
      let totals: Row[];
      if (view === 'detail') {
        const detail = source.detail!;
        const rows = await detail.page(db, criteria, sort!, page, per_page, read);
        items = rows.map((row) => source.present(row, view, language));
        // a page that is not full ends the list: its size is known without counting
        total =
          rows.length < per_page && (rows.length > 0 || page === 1)
            ? (page - 1) * per_page + rows.length
            : await detail.count(db, criteria, read);
        totals = totalledColumns(def, view).length ? await detail.totals(db, criteria, read) : [];
      } else {
        const all = (await source.groups!(db, criteria, view, read)).map((row) =>
          source.present(row, view, language),
        );
        const ordered = sortRows(
          all,
          sort ?? { column: viewColumns(def, view)[0], direction: 'asc' },
          language,
        );
        total = ordered.length;
        items = ordered.slice((page - 1) * per_page, page * per_page);
        totals = sumTotals(def, view, ordered);
      }
      return {
        items,
        total,
        page,
        per_page,
        totals,
        group_by: view === 'detail' ? null : view,
        ranges: criteria.ranges as Record<string, ResolvedRange>,
        names: await namesOf(def, criteria, ctx, language),
      };
    },

    /** The columns of a file of the result: headed in both languages, money as a number beside its currency. */
    exportColumns(def: ReportDefinition, groupBy: string | undefined): ExportColumn[] {
      const view = viewOf(def, groupBy);
      const shown = viewColumns(def, view);
      const out: ExportColumn[] = [];
      for (const column of shown) {
        const declared = def.columns[column];
        const { en, zh } = reportLabel(reportKeys.column(def, column));
        if (declared.type === 'money') {
          out.push({
            key: column,
            en,
            zh,
            value: (row) =>
              row[column] === null || row[column] === undefined ? null : Number(row[column]) / 100,
          });
          // the amount's currency beside it, unless the view shows that column anyway
          if (declared.currency && !shown.includes(declared.currency)) {
            const currency = reportLabel(reportKeys.column(def, declared.currency));
            out.push({ key: declared.currency, ...currency });
          }
        } else if (declared.type === 'date' || declared.type === 'datetime') {
          out.push({ key: column, en, zh, type: declared.type });
        } else out.push({ key: column, en, zh });
      }
      return out;
    },

    /**
     * The result as a PDF (the one printer): its title, when it was made, the criteria, the rows and the totals,
     * in `language`. More than `reportLimits.pdfRows` rows is refused (422, before anything is sent).
     */
    async pdf(source: ReportSource, query: ReportQuery, ctx: RequestContext): Promise<DocumentDefinition> {
      const def = source.definition;
      const language = ctx.language;
      const lang: ExportLanguage = language === 'en' ? 'en' : 'zh';
      const view = viewOf(def, query.group_by);
      const columns = viewColumns(def, view);
      const rows: Row[] = [];
      for await (const batch of rowsOf(source, query, ctx)) {
        rows.push(...batch);
        if (rows.length > reportLimits.pdfRows)
          throw AppError.field(
            'validation',
            'format',
            msg('reportPdfTooLong', { max: reportLimits.pdfRows }),
          );
      }
      const criteria = criteriaOf(def, query, ctx);
      const names = await namesOf(def, criteria, ctx, language);
      const label = (key: string) => reportLabel(key)[lang];
      // a label and its value: a full-width colon in Chinese text
      const labelled = (key: string, value: string) => `${label(key)}${lang === 'zh' ? '：' : ': '}${value}`;
      const lines: string[] = [];
      for (const [name, criterion] of Object.entries(def.criteria)) {
        if (criterion.type === 'dateRange') {
          const range = criteria.ranges[name];
          if (range.from || range.to)
            lines.push(
              labelled(reportKeys.criterion(def, name), `${range.from ?? '…'} – ${range.to ?? '…'}`),
            );
        } else if (names[name]) lines.push(labelled(reportKeys.criterion(def, name), names[name]));
      }
      if (view !== 'detail')
        lines.push(labelled('reports.common.groupBy', label(reportKeys.grouping(def, view))));
      const cell = (row: Row, column: string): string => {
        const value = row[column];
        if (value === null || value === undefined) return '';
        const declared = def.columns[column];
        if (declared.type === 'money')
          return formatMinor(Number(value), row[declared.currency ?? ''] as string);
        if (declared.type === 'integer') return new Intl.NumberFormat('en').format(Number(value));
        return String(value);
      };
      const right = (column: string) => ['integer', 'money'].includes(def.columns[column].type);
      const header = columns.map((c) => ({ text: label(reportKeys.column(def, c)), bold: true }));
      const body: Content[][] = rows.map((row) =>
        columns.map((c) => (right(c) ? { text: cell(row, c), alignment: 'right' } : cell(row, c))),
      );
      const totalled = totalledColumns(def, view);
      const totals = !totalled.length
        ? []
        : view === 'detail'
          ? await source.detail!.totals(db, criteria, { ctx, signal: ctx.signal })
          : sumTotals(def, view, rows);
      for (const total of totals) {
        const title = `${label('reports.common.total')}${total.currency ? ` ${String(total.currency)}` : ''}`;
        body.push(
          columns.map((c, i) => {
            if (!totalled.includes(c)) return i === 0 ? { text: title, bold: true } : '';
            const text = isMoney(def, c)
              ? formatMinor(Number(total[c]), total.currency as string)
              : new Intl.NumberFormat('en').format(Number(total[c]));
            return { text, bold: true, alignment: 'right' };
          }),
        );
      }
      const landscape = columns.length > 6;
      const made = hongKongWallClock(new Date(clock.now()))!.toISOString().slice(0, 16).replace('T', ' ');
      return {
        pageSize: 'A4',
        pageOrientation: landscape ? 'landscape' : 'portrait',
        pageMargins: [28, 28, 28, 28],
        info: { title: label(reportKeys.title(def)) },
        defaultStyle: { fontSize: 8 },
        content: [
          { text: label(reportKeys.title(def)), fontSize: 14, bold: true, margin: [0, 0, 0, 4] },
          { text: reportLabel('reports.common.generated')[lang].replace('{{time}}', made), color: '#555555' },
          ...lines.map((line) => ({ text: line })),
          {
            margin: [0, 8, 0, 0],
            table: {
              headerRows: 1,
              widths: pdfColumnWidths(
                [header.map((h) => h.text), ...rows.map((row) => columns.map((c) => cell(row, c)))],
                landscape ? 842 - 56 : 595 - 56,
              ),
              body: [header, ...body],
            },
            layout: 'lightHorizontalLines',
          },
        ],
      };
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
