import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import en from '../locales/en.json';
import zhHK from '../locales/zh_HK.json';

/**
 * An antd icon is an image with an accessible name (`aria-label`), which the client translates from
 * `a11y.icons.<name>` (components/accessible-names.ts) and otherwise leaves as antd's English name ("account-book"
 * on a Chinese screen). Every `…Outlined` icon the client's code uses has its name in both catalogues.
 */
const SRC = join(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('icons: an accessible name in each language', () => {
  it('names every icon the client uses in en and zh_HK', () => {
    const used = new Set<string>();
    for (const file of sources(SRC))
      for (const m of readFileSync(file, 'utf8').matchAll(/\b([A-Z][A-Za-z0-9]*)Outlined\b/g))
        used.add(m[1].replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase());
    const named = (icons: Record<string, string>) => [...used].filter((name) => !icons[name]);
    const missing = { en: named(en.a11y.icons), zh_HK: named(zhHK.a11y.icons) };
    console.log(`icons: ${used.size} used, ${missing.en.length + missing.zh_HK.length} without a name`);
    expect(used.size).toBeGreaterThan(20);
    expect(missing).toEqual({ en: [], zh_HK: [] });
  });
});
