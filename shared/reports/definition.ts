/**
 * One definition per report (issue 29), as a resource has its declaration: the criteria (which draw the criteria
 * form and validate the query, `criteriaSchema`), the columns (their type: money with its currency, a date …), the
 * ways its rows may be grouped and what is totalled. From it: the server's data call `GET /api{api}` (a page of
 * rows, the total and the totals per currency; `format=xlsx|csv|pdf` for a file of every row), the client's
 * criteria screen (`route`) and result screen (`route-result`), the menu entry, the permission
 * (`reports.<group>`). Strings live in `shared/reports/locales/{en,zh_HK}.json` under `reports.<name>.*`: `title`,
 * `criteria.<criterion>`, `columns.<column>`, `groupings.<grouping>`, `values.<criterion>.<value>`.
 * docs/decisions/0019-reports.md.
 */

/** The report groups: each is a permission key of the `reports` module (`reports.students` …). */
export const REPORT_GROUPS = ['students', 'schools', 'orders', 'calendar'] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];

/** The permission that opens a group's reports. */
export function reportPermission(group: ReportGroup): string {
  return `reports.${group}`;
}

/** The permission that exports any report the caller may open. */
export const REPORT_EXPORT_PERMISSION = 'reports.export';

/** A range's presets, in Hong Kong days: `<criterion>_preset=this_month`. */
export const DATE_PRESETS = ['today', 'this_month', 'last_month', 'this_year', 'last_year'] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

/**
 * One criterion of a report: a query parameter (or, for a date range, three: `<name>_from`, `<name>_to` and
 * `<name>_preset`) and a control of the criteria form.
 */
export type CriterionDeclaration =
  /**
   * a range of Hong Kong days, both ends included: given as `_from` / `_to` (either may be left open unless the
   * range is `bounded`) or as a preset, which wins; `default` when neither is given
   */
  | { type: 'dateRange'; default?: DatePreset; bounded?: boolean; maxDays?: number }
  /** a record of a declared resource, picked by its lookup (`/api{path}/lookup`), narrowed by another criterion */
  | { type: 'lookup'; resource: string; narrowedBy?: { criterion: string; filter: string } }
  /** a value of an option list (`/api/options/{key}`) */
  | { type: 'option'; key: string }
  /** one of fixed values, named `reports.<name>.values.<criterion>.<value>` (or under `labels` when given) */
  | { type: 'values'; values: readonly string[]; labels?: string };

/** What a column holds, and so how a screen shows it and a file writes it. */
export type ColumnType = 'text' | 'integer' | 'money' | 'currency' | 'date' | 'datetime';

export interface ColumnDeclaration {
  type: ColumnType;
  /** money: the column holding the amount's currency (ISO 4217) */
  currency?: string;
  /** summed in the totals (integers; money per currency) */
  total?: boolean;
  /** the column of the row holding the back-office path its cell links to */
  link?: string;
}

export interface ReportDefinition {
  /** strings under `reports.<name>.*`, the export's file name */
  name: string;
  /** the permission `reports.<group>` opens it; the menu groups it by report group too */
  group: ReportGroup;
  /** the data call under `/api` (`/reports/students/student`) */
  api: string;
  /** the criteria screen (spec `/reports/students/student`); the result screen is `${route}-result` */
  route: string;
  criteria: Readonly<Record<string, CriterionDeclaration>>;
  columns: Readonly<Record<string, ColumnDeclaration>>;
  /**
   * the rows one per record (`detail`: its columns, in order), and/or grouped: each grouping's columns (the
   * group's own, then the measures), chosen by `group_by`. A report without `detail` always groups (its first
   * grouping by default).
   */
  detail?: readonly string[];
  groupings?: Readonly<Record<string, readonly string[]>>;
  /** `column` or `-column` of the detail rows; grouped rows are in the order of their first column */
  defaultSort?: string;
  /** detail columns the result may be sorted by (their values are never null) */
  sortable?: readonly string[];
  /** the menu entry's place within the reports group */
  order: number;
}

/** The report as written, typed (its column and criterion names checked against themselves). */
export function defineReport<const D extends ReportDefinition>(definition: D): D {
  for (const view of [definition.detail ?? [], ...Object.values(definition.groupings ?? {})])
    for (const column of view)
      if (!definition.columns[column]) throw new Error(`${definition.name} shows ${column}, not declared`);
  return definition;
}

/** The result screen's route. */
export function resultRoute(def: Pick<ReportDefinition, 'route'>): string {
  return `${def.route}-result`;
}

/** The rows' view: a grouping's name, or `detail`. */
export function viewOf(def: ReportDefinition, groupBy: string | undefined): string {
  if (groupBy && def.groupings?.[groupBy]) return groupBy;
  if (def.detail) return 'detail';
  return Object.keys(def.groupings ?? {})[0];
}

/** The columns a view shows, in order. */
export function viewColumns(def: ReportDefinition, view: string): readonly string[] {
  return view === 'detail' ? (def.detail ?? []) : (def.groupings?.[view] ?? []);
}

/** The totalled columns of a view. */
export function totalledColumns(def: ReportDefinition, view: string): string[] {
  return viewColumns(def, view).filter((c) => def.columns[c].total);
}

/** The columns of the definition holding money, with their currency column. */
export function moneyColumns(def: ReportDefinition): { column: string; currency: string }[] {
  return Object.entries(def.columns)
    .filter(([, c]) => c.type === 'money' && c.currency)
    .map(([column, c]) => ({ column, currency: c.currency! }));
}

/** Keys of a report's strings. */
export const reportKeys = {
  title: (def: Pick<ReportDefinition, 'name'>) => `reports.${def.name}.title`,
  criterion: (def: Pick<ReportDefinition, 'name'>, criterion: string) =>
    `reports.${def.name}.criteria.${criterion}`,
  column: (def: Pick<ReportDefinition, 'name'>, column: string) => `reports.${def.name}.columns.${column}`,
  grouping: (def: Pick<ReportDefinition, 'name'>, grouping: string) =>
    `reports.${def.name}.groupings.${grouping}`,
  value: (def: Pick<ReportDefinition, 'name' | 'criteria'>, criterion: string, value: string) => {
    const declared = def.criteria[criterion];
    const base =
      declared?.type === 'values' && declared.labels
        ? declared.labels
        : `reports.${def.name}.values.${criterion}`;
    return `${base}.${value}`;
  },
  preset: (preset: DatePreset) => `reports.presets.${preset}`,
  group: (group: ReportGroup) => `reports.groups.${group}`,
};
