/**
 * Names sorted as the reader reads them (issue 31 §14): English by the English alphabet, zh_HK by the Chinese
 * names in Hong Kong order (`Intl.Collator('zh-HK')`: by stroke count), digits as numbers in both.
 */
export function readerCollator(language: string): Intl.Collator {
  return new Intl.Collator(language === 'en' ? 'en' : 'zh-HK', { numeric: true });
}

/** `items` sorted by `label` in the reader's language (stable: equal labels keep their order). */
export function sortByLabel<T>(items: readonly T[], label: (item: T) => string, language: string): T[] {
  const collator = readerCollator(language);
  return items
    .map((item, at) => ({ item, at, key: label(item) }))
    .sort((a, b) => collator.compare(a.key, b.key) || a.at - b.at)
    .map(({ item }) => item);
}
