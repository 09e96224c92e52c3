import type { RequestContext } from '../../http/context';
import type { Row } from '../../resources/resource';
import { nameIn } from '../calendar/calendar.sources';

type Language = RequestContext['language'];

/**
 * A student's name in `language` (`CHAN Tai Man`, `陳大文`), the other language's when that one is empty; the
 * Chinese name read from `zhColumn` (`student_name_zh` where a join names it so).
 */
export function studentName(row: Row, language: Language, zhColumn = 'student_name_zh'): string {
  const en = [row.surname_en, row.given_name_en].filter((part) => typeof part === 'string' && part).join(' ');
  return nameIn(language, en, row[zhColumn]);
}

/** `CHAN Tai Man — Yonsei University`: an application named by its student and its school. */
export function applicationName(row: Row, language: Language): string {
  return `${studentName(row, language)} — ${nameIn(language, row.school_name_en, row.school_name_zh)}`;
}
