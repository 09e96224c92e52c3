import { z } from 'zod';
import { FIELD_MESSAGES, msg, type MessageRef } from '../messages';
import { DATE_PRESETS, type DatePreset, type ReportDefinition } from './definition';

/**
 * A report's criteria as query parameters (the data call's and the result screen's address, so a result can be
 * bookmarked): the schema both sides validate with, and the date ranges resolved from presets in Hong Kong days.
 */

const HONG_KONG_OFFSET_MS = 8 * 3_600_000;

/** Hong Kong's day (`YYYY-MM-DD`) at `ms` (Hong Kong keeps no summer time). */
export function hongKongDay(ms: number = Date.now()): string {
  return new Date(ms + HONG_KONG_OFFSET_MS).toISOString().slice(0, 10);
}

/** `YYYY-MM-DD` plus `days` (calendar arithmetic). */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The days from `from` to `to`, both included. */
export function daysIn(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

function lastDayOfMonth(year: number, month: number): string {
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
}

/** A preset's first and last day (both included), `today` being Hong Kong's. */
export function presetRange(preset: DatePreset, today: string): { from: string; to: string } {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  const pad = (n: number) => String(n).padStart(2, '0');
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'this_month':
      return { from: `${year}-${pad(month)}-01`, to: lastDayOfMonth(year, month) };
    case 'last_month': {
      const [y, m] = month === 1 ? [year - 1, 12] : [year, month - 1];
      return { from: `${y}-${pad(m)}-01`, to: lastDayOfMonth(y, m) };
    }
    case 'this_year':
      return { from: `${year}-01-01`, to: `${year}-12-31` };
    case 'last_year':
      return { from: `${year - 1}-01-01`, to: `${year - 1}-12-31` };
  }
}

/** The query parameters of the rows (not criteria): paging, sort, grouping. */
export const REPORT_PAGING = ['page', 'per_page', 'sort', 'group_by'] as const;

const zDay = z.iso.date({ error: FIELD_MESSAGES.invalidDate });
const zId = z.coerce.number().int().positive().max(2_147_483_647);

/** The query parameters of one criterion and their schemas. */
export function criterionParams(def: ReportDefinition, name: string): Record<string, z.ZodType> {
  const criterion = def.criteria[name];
  switch (criterion.type) {
    case 'dateRange':
      return {
        [`${name}_from`]: zDay.optional(),
        [`${name}_to`]: zDay.optional(),
        [`${name}_preset`]: z.enum(DATE_PRESETS).optional(),
      };
    case 'lookup':
      return { [name]: zId.optional() };
    case 'option':
      return { [name]: z.string().trim().min(1).max(40).optional() };
    case 'values':
      return { [name]: z.enum(criterion.values as [string, ...string[]]).optional() };
  }
}

/** Every criteria parameter's name (a date range's three). */
export function criteriaParamNames(def: ReportDefinition): string[] {
  return Object.keys(def.criteria).flatMap((name) => Object.keys(criterionParams(def, name)));
}

/**
 * The data call's query: the criteria, the page (`per_page` up to 100), the sort (a column: the service takes the
 * detail's `sortable` ones, or any of a grouping's), the grouping (one of the report's). Strict: a parameter the report does not take is refused (422), never ignored.
 */
export function reportQuerySchema(def: ReportDefinition) {
  const shape: Record<string, z.ZodType> = {};
  for (const name of Object.keys(def.criteria)) Object.assign(shape, criterionParams(def, name));
  const groupings = Object.keys(def.groupings ?? {});
  return z.strictObject({
    ...shape,
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    per_page: z.coerce.number().int().min(1).max(100).default(20),
    // a detail row's sortable column, or any column of a grouping (the service checks it is one of the view's)
    sort: z.enum(Object.keys(def.columns).flatMap((c) => [c, `-${c}`]) as [string, ...string[]]).optional(),
    group_by: (groupings.length ? z.enum(groupings as [string, ...string[]]) : z.never()).optional(),
  });
}

/** A date range as resolved: its first and last day (null: open), and the preset it came from. */
export interface ResolvedRange {
  from: string | null;
  to: string | null;
  preset: DatePreset | null;
}

/**
 * Every date range of the query, presets resolved against Hong Kong's `today` (a preset wins over the days; neither
 * gives the default preset), with what is wrong with it: an end before its start, a range longer than `maxDays`, an
 * open end where the range is `bounded`. Problems are by parameter, catalogued (the server answers them as 422).
 */
export function resolveRanges(
  def: ReportDefinition,
  query: Readonly<Record<string, unknown>>,
  today: string,
): { ranges: Record<string, ResolvedRange>; problems: Record<string, MessageRef> } {
  const ranges: Record<string, ResolvedRange> = {};
  const problems: Record<string, MessageRef> = {};
  for (const [name, criterion] of Object.entries(def.criteria)) {
    if (criterion.type !== 'dateRange') continue;
    const preset = query[`${name}_preset`] as DatePreset | undefined;
    let from = (query[`${name}_from`] as string | undefined) ?? null;
    let to = (query[`${name}_to`] as string | undefined) ?? null;
    const chosen = preset ?? (from === null && to === null ? criterion.default : undefined);
    if (chosen) ({ from, to } = presetRange(chosen, today));
    ranges[name] = { from, to, preset: chosen ?? null };
    if (criterion.bounded && (from === null || to === null)) {
      problems[`${name}_${from === null ? 'from' : 'to'}`] = { key: 'required' };
    } else if (from !== null && to !== null && to < from) {
      problems[`${name}_to`] = { key: 'dateRangeOrder' };
    } else if (criterion.maxDays && from !== null && to !== null && daysIn(from, to) > criterion.maxDays) {
      problems[`${name}_to`] = msg('reportRangeTooLong', { max: criterion.maxDays });
    }
  }
  return { ranges, problems };
}
