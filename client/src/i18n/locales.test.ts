import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MESSAGES } from '../../../shared/errors';
import { backofficeRoutes } from '../app/routes/backoffice-routes';
import { portalRoutes } from '../app/routes/portal-routes';
import { en, zhHK } from '../locales';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const enKeys = flatten(en as Tree);
const zhKeys = flatten(zhHK as Tree);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'test' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('locale files', () => {
  it('have the same keys in en and zh_HK', () => {
    expect(enKeys.size).toBeGreaterThan(100);
    const onlyEn = [...enKeys.keys()].filter((k) => !zhKeys.has(k));
    const onlyZh = [...zhKeys.keys()].filter((k) => !enKeys.has(k));
    expect({ onlyEn, onlyZh }).toEqual({ onlyEn: [], onlyZh: [] });
  });

  it('have no empty strings and the same interpolation placeholders in both languages', () => {
    const placeholders = (s: string) => [...s.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();
    const problems = [...enKeys].flatMap(([key, text]) => {
      const zh = zhKeys.get(key) ?? '';
      if (!text.trim() || !zh.trim()) return [`${key}: empty`];
      return JSON.stringify(placeholders(text)) === JSON.stringify(placeholders(zh))
        ? []
        : [`${key}: placeholders differ`];
    });
    expect(problems).toEqual([]);
  });

  // Hong Kong wording (Simplified characters, 使用者/您/戶) in every zh_HK catalogue and source: zh-hk-wording.test.ts

  it('translate every literal key the code uses', () => {
    const used = new Set<string>();
    for (const file of sourceFiles(join(__dirname, '..'))) {
      // Comments hold examples (route-table docs), not keys in use.
      const code = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      for (const m of code.matchAll(/\bt\(\s*'([\w.-]+)'/g)) used.add(m[1]);
      for (const m of code.matchAll(/(?:labelKey|titleKey|introKey|appNameKey)[=:]\s*["']([\w.-]+)["']/g))
        used.add(m[1]);
    }
    expect(used.size).toBeGreaterThan(50);
    expect([...used].filter((key) => !enKeys.has(key))).toEqual([]);
  });

  it('translate every route title and menu label of both route tables', () => {
    const keys = [backofficeRoutes, portalRoutes].flatMap((table) => [
      ...table.routes.flatMap((r) => [r.titleKey, r.menu?.labelKey]),
      ...table.menuGroups.map((g) => g.labelKey),
    ]);
    expect(keys.filter((k): k is string => !!k && !enKeys.has(k))).toEqual([]);
  });

  it('translate every message the server may send (shared/errors.ts MESSAGES)', () => {
    for (const [key, text] of Object.entries(MESSAGES)) {
      expect(enKeys.get(`serverMessages.${key}`)).toBeDefined();
      // The spec's messages are used verbatim in English.
      if (key !== 'csrf') expect(enKeys.get(`serverMessages.${key}`)).toBe(text);
    }
  });

  it('translate the dynamic keys: error screens, languages and document statuses', () => {
    const dynamic = [
      ...['403', '404', '500', 'no-connection'].flatMap((k) => [
        `errorPages.${k}.title`,
        `errorPages.${k}.text`,
      ]),
      'language.en',
      'language.zh_HK',
      ...['pending', 'uploaded', 'submitted', 'unsubmitted', 'cancelled'].map(
        (s) => `showcase.badges.status.${s}`,
      ),
    ];
    expect(dynamic.filter((k) => !enKeys.has(k))).toEqual([]);
  });
});
