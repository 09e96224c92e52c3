import { buildUrl } from '../../http/client';
import {
  criteriaParamNames,
  hongKongDay,
  presetRange,
  REPORT_PAGING,
} from '../../../../shared/reports/criteria';
import { resultRoute, type DatePreset, type ReportDefinition } from '../../../../shared/reports/definition';

/** A report's query as its screens keep it in the address: parameter → text. */
export type ReportQueryState = Record<string, string>;

/**
 * The parameters of `search` the report takes (its criteria; with `rows`, the paging, sort and grouping too), in
 * that order: anything else in the address is left out, so a stale bookmark still runs.
 */
export function reportQueryOf(
  def: ReportDefinition,
  search: URLSearchParams,
  { rows = true }: { rows?: boolean } = {},
): ReportQueryState {
  const out: ReportQueryState = {};
  const names = [...criteriaParamNames(def), ...(rows ? REPORT_PAGING : ['group_by'])];
  for (const name of names) {
    const value = search.get(name);
    if (value !== null && value !== '') out[name] = value;
  }
  return out;
}

/** The criteria alone (no paging or sort): what the criteria screen edits and the result screen summarises. */
export function criteriaOnly(def: ReportDefinition, query: ReportQueryState): ReportQueryState {
  const names = new Set([...criteriaParamNames(def), 'group_by']);
  return Object.fromEntries(Object.entries(query).filter(([key]) => names.has(key)));
}

/**
 * The criteria as a run writes them into the result's address: a date range left as it opened gets its default
 * preset written out, so the address says what was asked (and a bookmark of it means the same).
 */
export function runCriteria(def: ReportDefinition, query: ReportQueryState): ReportQueryState {
  const out = criteriaOnly(def, query);
  for (const [name, criterion] of Object.entries(def.criteria)) {
    if (criterion.type !== 'dateRange' || !criterion.default) continue;
    if (!out[`${name}_preset`] && !out[`${name}_from`] && !out[`${name}_to`])
      out[`${name}_preset`] = criterion.default;
  }
  return out;
}

/** The result screen's address for criteria. */
export function resultPath(def: ReportDefinition, criteria: ReportQueryState): string {
  return buildUrl(resultRoute(def), criteria);
}

/** The criteria screen's address, keeping the criteria (to change them). */
export function criteriaPath(def: ReportDefinition, criteria: ReportQueryState): string {
  return buildUrl(def.route, criteria);
}

/** The data call's address of a file of the result, in the screen's language. */
export function reportFileUrl(
  def: ReportDefinition,
  query: ReportQueryState,
  format: 'xlsx' | 'csv' | 'pdf',
  language: string,
): string {
  const { page: _page, per_page: _perPage, ...rest } = query;
  return buildUrl(`/api${def.api}`, { ...rest, format, lang: language });
}

/**
 * A date range's days as the form shows them: a preset's, resolved in Hong Kong days (as the server reads it), else
 * the days given; the default preset when nothing is given.
 */
export function shownRange(
  def: ReportDefinition,
  name: string,
  query: ReportQueryState,
  today: string = hongKongDay(),
): { from: string | null; to: string | null; preset: DatePreset | null } {
  const criterion = def.criteria[name];
  const preset = query[`${name}_preset`] as DatePreset | undefined;
  const from = query[`${name}_from`] ?? null;
  const to = query[`${name}_to`] ?? null;
  const chosen =
    preset ??
    (from === null && to === null && criterion?.type === 'dateRange' ? criterion.default : undefined);
  if (chosen) return { ...presetRange(chosen, today), preset: chosen };
  return { from, to, preset: null };
}

/**
 * The query after one criterion changes: empty values dropped; a date range's preset and its days never both
 * (a preset picked clears the days, a day picked clears the preset and keeps the other day shown).
 */
export function changeCriterion(
  def: ReportDefinition,
  query: ReportQueryState,
  change: Record<string, string | null | undefined>,
  today: string = hongKongDay(),
): ReportQueryState {
  const out: ReportQueryState = { ...query };
  for (const [key, value] of Object.entries(change)) {
    const range = /^(.*)_(from|to|preset)$/.exec(key);
    if (range && def.criteria[range[1]]?.type === 'dateRange') {
      const name = range[1];
      if (range[2] === 'preset') {
        delete out[`${name}_from`];
        delete out[`${name}_to`];
      } else {
        // the days shown stay: a preset's other end becomes a day of its own
        const shown = shownRange(def, name, query, today);
        delete out[`${name}_preset`];
        if (shown.preset) {
          if (shown.from) out[`${name}_from`] = shown.from;
          if (shown.to) out[`${name}_to`] = shown.to;
        }
      }
    }
    if (value === null || value === undefined || value === '') delete out[key];
    else out[key] = value;
  }
  return out;
}
