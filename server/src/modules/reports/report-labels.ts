import reportsEn from '../../../../shared/reports/locales/en.json';
import reportsZh from '../../../../shared/reports/locales/zh_HK.json';
import { reportKeys, type ReportDefinition } from '../../../../shared/reports/definition';
import { declaredLabel } from '../../resources/declared';

type Dictionary = { [key: string]: string | Dictionary };

function lookupText(dictionary: Dictionary, key: string): string | undefined {
  let node: string | Dictionary | undefined = dictionary;
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** The strings found so far, by key: a file's rows ask for a status's label once a row. */
const found = new Map<string, { en: string; zh: string }>();

/**
 * A report's string in both languages (`reports.…`, shared/reports/locales; a declared resource's, `resources.…`,
 * from its own files): a file's headers, a PDF's title and criteria. A missing one fails when the report is
 * registered, not in a file.
 */
export function reportLabel(key: string): { en: string; zh: string } {
  let label = found.get(key);
  if (label) return label;
  if (key.startsWith('resources.') || key.startsWith('permissions.')) label = declaredLabel(key);
  else {
    const en = lookupText(reportsEn as Dictionary, key);
    const zh = lookupText(reportsZh as Dictionary, key);
    if (!en || !zh) throw new Error(`The report string ${key} is missing in en or zh_HK`);
    label = { en, zh };
  }
  found.set(key, label);
  return label;
}

/** The string in a language of the app (`zh_HK` → Chinese). */
export function inLanguage(label: { en: string; zh: string }, language: 'en' | 'zh_HK'): string {
  return language === 'en' ? label.en : label.zh;
}

/** Every string a report shows, checked at start-up (a key missing in one language throws). */
export function checkReportStrings(def: ReportDefinition): void {
  reportLabel(reportKeys.title(def));
  for (const column of Object.keys(def.columns)) reportLabel(reportKeys.column(def, column));
  for (const [name, criterion] of Object.entries(def.criteria)) {
    reportLabel(reportKeys.criterion(def, name));
    if (criterion.type === 'values')
      for (const value of criterion.values) reportLabel(reportKeys.value(def, name, value));
  }
  for (const grouping of Object.keys(def.groupings ?? {})) reportLabel(reportKeys.grouping(def, grouping));
}
