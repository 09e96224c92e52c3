import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as OpenCC from 'opencc-js';
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

  it('hold no Simplified Chinese characters in zh_HK', () => {
    // Converting Simplified → Traditional (Hong Kong) changes a string only if it held Simplified forms.
    // OpenCC's Hong Kong table writes 户 (also the Simplified form); the app writes 戶, as Hong Kong's banks and
    // forms do (帳戶, 戶口): the converted text is read with that house form.
    const convert = OpenCC.Converter({ from: 'cn', to: 'hk' });
    const toTraditional = (text: string) => convert(text).replaceAll('户', '戶');
    const simplified = [...zhKeys]
      .filter(([, text]) => toTraditional(text) !== text)
      .map(([key, text]) => `${key}: ${text} → ${toTraditional(text)}`);
    expect(simplified).toEqual([]);
  });

  it('use the house words of Hong Kong usage in zh_HK: 使用者, 您, 戶, 紀錄', () => {
    const avoid: Record<string, string> = {
      用户: '使用者',
      用戶: '使用者',
      你: '您',
      户: '戶',
      記錄: '紀錄',
    };
    const found = [...zhKeys].flatMap(([key, text]) =>
      Object.entries(avoid)
        .filter(([word]) => text.includes(word))
        .map(([word, house]) => `${key}: ${word} → ${house} (${text})`),
    );
    expect(found).toEqual([]);
  });

  it('the Simplified check really catches Simplified text', () => {
    const toTraditional = OpenCC.Converter({ from: 'cn', to: 'hk' });
    expect(toTraditional('登录')).not.toBe('登录');
    expect(toTraditional('網絡設定')).toBe('網絡設定');
  });

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
