import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';

/**
 * One word for one thing (issue 31 §2): docs/glossary.md names each entity's one term in en and zh_HK and the
 * terms not to use; no catalogue may use a refused term. The catalogues are found by name (every `en` / `zh_HK`
 * locale JSON under client/src and shared) plus shared/messages.ts, the server's English messages.
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
function strings(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof value === 'string' ? [[path, value] as [string, string]] : strings(value, path);
  });
}

export interface GlossaryEntry {
  entity: string;
  en: string;
  zh: string;
  spec: string;
  notEn: string[];
  notZh: string[];
}

/** The glossary's table: one row per entity, `| Entity | en | zh_HK | Spec label | Not in en | Not in zh_HK |`. */
export function parseGlossary(markdown: string): GlossaryEntry[] {
  const rows = markdown
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .slice(1, line.trimEnd().endsWith('|') ? line.trimEnd().length - 1 : undefined)
        .split('|')
        .map((cell) => cell.trim()),
    );
  const [head, rule, ...body] = rows;
  if (!head || !rule?.every((c) => /^:?-+:?$/.test(c))) return [];
  const list = (cell: string) =>
    cell
      .split(/[,、，]/)
      .map((t) => t.trim())
      .filter(Boolean);
  return body.map(([entity, en, zh, spec, notEn, notZh]) => ({
    entity,
    en,
    zh,
    spec,
    notEn: list(notEn ?? ''),
    notZh: list(notZh ?? ''),
  }));
}

/** `term` in `text`: English as a whole word in any case, Chinese as written. */
export function usesTerm(text: string, term: string, language: 'en' | 'zh_HK'): boolean {
  if (language === 'zh_HK') return text.includes(term);
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}])${escaped}(?![\\p{L}])`, 'iu').test(text);
}

/** Every catalogue string of a language: `[where, text]`. */
function catalogueStrings(language: 'en' | 'zh_HK'): [string, string][] {
  const files = ['client/src', 'shared'].flatMap((dir) =>
    walk(join(ROOT, dir), (path) => new RegExp(`(^|\\.)${language}\\.json$`).test(basename(path))),
  );
  const out = files.flatMap((file) =>
    strings(JSON.parse(readFileSync(file, 'utf8')) as Tree).map(
      ([key, text]) => [`${relative(ROOT, file)}: ${key}`, text] as [string, string],
    ),
  );
  if (language === 'en') {
    // the server's English messages: `key: 'text'` (shared/messages.ts; zh_HK in messages.zh_HK.json)
    const source = readFileSync(join(ROOT, 'shared/messages.ts'), 'utf8');
    for (const m of source.matchAll(/^\s*(\w+):\s*\n?\s*'((?:[^'\\]|\\.)*)'/gm))
      out.push([`shared/messages.ts: ${m[1]}`, m[2]]);
  }
  return out;
}

const glossary = parseGlossary(readFileSync(join(ROOT, 'docs/glossary.md'), 'utf8'));

describe('the glossary (docs/glossary.md): one term per entity in each language', () => {
  const en = catalogueStrings('en');
  const zh = catalogueStrings('zh_HK');

  it('is read: each entity with its term in both languages and the terms not to use', () => {
    console.log(
      `glossary: ${glossary.length} entities, ${glossary.reduce((n, g) => n + g.notEn.length + g.notZh.length, 0)} refused terms; ${en.length} en and ${zh.length} zh_HK catalogue strings read`,
    );
    expect(glossary.map((g) => g.en)).toEqual(expect.arrayContaining(['Admission time', 'Subject']));
    const intake = glossary.find((g) => g.en === 'Admission time')!;
    expect(intake.zh).toBe('入學期');
    expect(intake.notZh).toEqual(expect.arrayContaining(['入學申請', '入學時段', '入學時間表']));
    expect(glossary.find((g) => g.en === 'Subject')!.notZh).toEqual(expect.arrayContaining(['課程']));
    for (const entry of glossary) {
      expect(entry.zh).toMatch(/[\u3400-\u9fff]/);
      expect(entry.spec).not.toBe('');
    }
    expect(en.length).toBeGreaterThan(1000);
    expect(zh.length).toBeGreaterThan(1000);
  });

  it('each entity’s term is the one the catalogues use', () => {
    const unused = glossary.flatMap((g) => [
      ...(en.some(([, text]) => usesTerm(text, g.en, 'en')) ? [] : [`en ${g.en}`]),
      ...(zh.some(([, text]) => usesTerm(text, g.zh, 'zh_HK')) ? [] : [`zh_HK ${g.zh}`]),
    ]);
    expect(unused).toEqual([]);
  });

  it('no catalogue uses a refused term for a glossary entity', () => {
    const found = [
      ...glossary.flatMap((g) =>
        g.notEn.flatMap((term) =>
          en
            .filter(([, text]) => usesTerm(text, term, 'en'))
            .map(([where, text]) => `${where}: "${term}" for ${g.en} (${text})`),
        ),
      ),
      ...glossary.flatMap((g) =>
        g.notZh.flatMap((term) =>
          zh
            .filter(([, text]) => usesTerm(text, term, 'zh_HK'))
            .map(([where, text]) => `${where}: 「${term}」 for ${g.zh} (${text})`),
        ),
      ),
    ];
    console.log(`glossary: ${found.length} refused terms found in the catalogues`);
    expect(found).toEqual([]);
  });

  it('the check really catches a second term', () => {
    expect(usesTerm('These intakes are open', 'intakes', 'en')).toBe(true);
    expect(usesTerm('Intake', 'intake', 'en')).toBe(true);
    expect(usesTerm('Admission times', 'admissions', 'en')).toBe(false);
    expect(usesTerm('{{count}} 個入學時段', '入學時段', 'zh_HK')).toBe(true);
    expect(usesTerm('入學期時間表', '入學時間', 'zh_HK')).toBe(false);
    expect(
      parseGlossary(
        '| a | b | c | d | e | f |\n| - | - | - | - | - | - |\n| x | X | 甲 | x | y, z | 乙、丙 |',
      ),
    ).toEqual([{ entity: 'x', en: 'X', zh: '甲', spec: 'x', notEn: ['y', 'z'], notZh: ['乙', '丙'] }]);
  });
});
