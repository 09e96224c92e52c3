/** The name in the interface language: `name_en` in English, `name_zh` in Chinese (either when one is empty). */
export function localName(row: Record<string, unknown>, language: string, base = 'name'): string {
  const en = row[`${base}_en`];
  const zh = row[`${base}_zh`];
  const first = language === 'en' ? en : zh;
  return String(first || en || zh || '');
}
