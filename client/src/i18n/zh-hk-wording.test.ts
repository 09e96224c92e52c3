import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import * as OpenCC from 'opencc-js';
import { FIELD_MESSAGES } from '../../../shared/messages';

/**
 * Hong Kong wording, everywhere a zh_HK string is written: every zh_HK catalogue (found by name, so a new one is
 * scanned without being listed here) and every Chinese string literal in the server, shared declarations,
 * mail templates, seeds and migrations. House words: 使用者 (not 用户/用戶), 您 (not 你), 戶 (not 户), 紀錄 (not 記錄);
 * no Simplified-only character.
 */
const ROOT = join(__dirname, '../../..');
const SKIP_DIRS = new Set(['node_modules', 'dist', 'build', 'coverage', 'test-results', '.git']);

function walk(dir: string, keep: (path: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP_DIRS.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(path, keep);
    return keep(path) ? [path] : [];
  });
}

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

const readJson = (path: string) => flatten(JSON.parse(readFileSync(path, 'utf8')) as Tree);

/** Every zh_HK catalogue: `…/locales/zh_HK.json` and `messages.zh_HK.json`-style files under client/ and shared/. */
const catalogues = ['client/src', 'shared'].flatMap((dir) =>
  walk(join(ROOT, dir), (path) => /(^|\.)zh_HK\.json$/.test(basename(path))),
);

/** Source files that may hold zh_HK text: server, shared declarations, mail templates, seeds, migrations. */
const sources = ['server/src', 'shared', 'seeds', 'migrations'].flatMap((dir) =>
  walk(join(ROOT, dir), (path) => /\.(ts|tsx|js|html|hbs)$/.test(path) && !/\.test\.tsx?$/.test(path)),
);

/** key → text of every zh_HK string: `<file>: <key>` for catalogues, `<file>:<line>` for source literals. */
const zhStrings = new Map<string, string>();
for (const file of catalogues)
  for (const [key, text] of readJson(file)) zhStrings.set(`${relative(ROOT, file)}: ${key}`, text);
for (const file of sources)
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      // a run of Chinese text (with what sits between its characters) up to the literal's quote
      for (const m of line.matchAll(/[\u3400-\u9fff\uf900-\ufaff][^'"`]*/g))
        zhStrings.set(`${relative(ROOT, file)}:${i + 1}`, m[0]);
    });

/**
 * Common Simplified-only characters: each differs from its Traditional form and is not itself a Traditional
 * character (后, 并, 于, 台, 里, 面, 系 … are left out: they are also Traditional). The first test checks each
 * against OpenCC's Simplified → Hong Kong table.
 */
const SIMPLIFIED_ONLY = [
  ...'们这个为对时说会设录删页请输码账号务学员导择据应项单订证认错误无开关显图间传载么过还没点问题数类选验许权从',
  ...'启变档币额该须统网发来东车长门见现电话让给经线结钱银体写读书记识语实际继续简检询组织标签态状历级费达运进远',
  ...'边适连亲头买卖报复杂场处备总灭灯烦热爱帐视频预颜风飞馆驾鱼鸟黄齐龙',
];

/** Words Hong Kong usage writes otherwise. 户 is also OpenCC's Hong Kong form; the app writes 戶 (帳戶, 戶口). */
const REJECTED: Record<string, string> = {
  用户: '使用者',
  用戶: '使用者',
  你: '您',
  户: '戶',
  記錄: '紀錄',
};

describe('zh_HK wording (Hong Kong usage, Traditional characters)', () => {
  it('scans every zh_HK catalogue and source', () => {
    const listed = catalogues.map((f) => relative(ROOT, f)).sort();
    console.log(
      `zh_HK wording: ${listed.length} catalogues, ${sources.length} source files, ${zhStrings.size} strings\n  ${listed.join('\n  ')}`,
    );
    // the shell's two catalogues, the generic resource screens', the declared resources' and the features'
    expect(listed).toEqual(
      expect.arrayContaining([
        'client/src/locales/zh_HK.json',
        'client/src/locales/messages.zh_HK.json',
        'client/src/components/resource/locales/zh_HK.json',
        'shared/resources/locales/zh_HK.json',
        'client/src/features/settings/locales/zh_HK.json',
      ]),
    );
    expect(zhStrings.size).toBeGreaterThan(1000);
  });

  it('lists only Simplified-only characters (each is changed by the Simplified → Hong Kong table)', () => {
    const convert = OpenCC.Converter({ from: 'cn', to: 'hk' });
    expect(SIMPLIFIED_ONLY.filter((ch) => convert(ch) === ch)).toEqual([]);
  });

  it('holds no Simplified-only character in any zh_HK string', () => {
    const convert = OpenCC.Converter({ from: 'cn', to: 'hk' });
    const found = [...zhStrings].flatMap(([where, text]) => {
      const listed = SIMPLIFIED_ONLY.filter((ch) => text.includes(ch));
      // OpenCC catches what the list misses (户 is read as 戶, the house form, see REJECTED)
      const converted = convert(text).replaceAll('户', '戶');
      if (!listed.length && converted === text.replaceAll('户', '戶')) return [];
      return [`${where}: ${text} (${listed.join('') || '→ ' + converted})`];
    });
    // proper names whose Traditional form OpenCC rewrites: 海雲臺 (Busan's district), the HK government's 周日
    const names = /海雲臺|第一個周日/;
    expect(found.filter((line) => !names.test(line))).toEqual([]);
  });

  it('writes the house words of Hong Kong usage: 使用者, 您, 戶, 紀錄', () => {
    const found = [...zhStrings].flatMap(([where, text]) =>
      Object.entries(REJECTED)
        .filter(([word]) => text.includes(word))
        .map(([word, house]) => `${where}: ${word} → ${house} (${text})`),
    );
    expect(found).toEqual([]);
  });

  /**
   * Full-width colons in Chinese text (issue 31 §6: 代號:, 學生編號:, 職業:, 電話:, P 待上載: 2). An ASCII colon
   * right after a Chinese character, a full-width bracket or an interpolated label (`{{label}}:`) in a zh_HK
   * string is wrong; a time (10:30) or an address (https://) has no Chinese character before its colon. In source
   * files, a Chinese object key (`是: true`) is code, not text.
   */
  const CJK_COLON = /[\u3400-\u9fff\uf900-\ufaff\uff08-\uff09\u3001-\u301f」』]\s*:|\}\}\s*:/;
  it('writes full-width colons 「：」 in Chinese text', () => {
    const found = [...zhStrings].filter(
      ([where, text]) =>
        CJK_COLON.test(text) &&
        !(/:\d+$/.test(where) && /^[\u3400-\u9fff]+:\s/.test(text)) &&
        (/[\u3400-\u9fff]/.test(text) || !/\.json: /.test(where)),
    );
    console.log(`zh_HK colons: ${found.length} ASCII colons in Chinese text of ${zhStrings.size} strings`);
    expect(found.map(([where, text]) => `${where}: ${text}`)).toEqual([]);
  });

  /**
   * A label joined to its value in code (`${t('…phone')}: ${phone}`) gives zh_HK screens an ASCII colon: the
   * catalogue's `common.labelled` / `common.labelColon` (「：」 in zh_HK) joins them instead.
   */
  it('joins a translated label to its value through the catalogue, not with an ASCII colon in code', () => {
    const code = ['client/src', 'server/src'].flatMap((dir) =>
      walk(join(ROOT, dir), (path) => /\.(ts|tsx)$/.test(path) && !/\.test\.tsx?$/.test(path)),
    );
    const joined = /(?<![\w.])(t|label|monthLabel)\((?:[^()\n]|\([^()\n]*\))*\)\}:/;
    const found = code.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          joined.test(line) ? [`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
    console.log(`labels joined by an ASCII colon in code: ${found.length} (of ${code.length} files)`);
    expect(found).toEqual([]);
  });

  it('the checks really catch a rejected string', () => {
    expect(CJK_COLON.test('學生編號: 2026001')).toBe(true);
    expect(CJK_COLON.test('P 待上載: 2')).toBe(true);
    expect(CJK_COLON.test('{{label}}: {{value}}')).toBe(true);
    expect(CJK_COLON.test('開始時間 10:30，詳見 https://example.com')).toBe(false);
    const convert = OpenCC.Converter({ from: 'cn', to: 'hk' });
    expect(convert('登录')).not.toBe('登录');
    expect(convert('網絡設定')).toBe('網絡設定');
    expect(SIMPLIFIED_ONLY.some((ch) => '请输入用户名'.includes(ch))).toBe(true);
    expect(Object.keys(REJECTED).some((w) => '你的帳户'.includes(w))).toBe(true);
  });

  it('has the same keys in each zh_HK catalogue and its English one', () => {
    const problems = catalogues.flatMap((file) => {
      const zh = readJson(file);
      const name = basename(file);
      // messages.zh_HK.json translates the server's field messages (shared/messages.ts; shared/errors.ts's are in zh_HK.json)
      const en =
        name === 'messages.zh_HK.json'
          ? flatten({ serverMessages: { ...FIELD_MESSAGES } } as Tree)
          : readJson(join(dirname(file), name.replace('zh_HK', 'en')));
      const where = relative(ROOT, file);
      return [
        ...[...en.keys()].filter((k) => !zh.has(k)).map((k) => `${where}: ${k} missing in zh_HK`),
        ...[...zh.keys()].filter((k) => !en.has(k)).map((k) => `${where}: ${k} missing in en`),
      ];
    });
    expect(problems).toEqual([]);
  });

  it('every catalogue is loaded by the app (client/src/locales/zh_HK.ts, the zh_HK catalogue)', () => {
    const index = readFileSync(join(ROOT, 'client/src/locales/zh_HK.ts'), 'utf8');
    const imported = [...index.matchAll(/from '([^']+zh_HK\.json)'/g)].map((m) =>
      relative(ROOT, join(ROOT, 'client/src/locales', m[1])),
    );
    expect(catalogues.map((f) => relative(ROOT, f)).filter((f) => !imported.includes(f))).toEqual([]);
  });
});
