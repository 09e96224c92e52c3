import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { MESSAGES } from '../../../shared/errors';
import {
  CATALOG,
  FIELD_MESSAGES,
  fieldMessage,
  installZodMessages,
  messageEnglish,
  messageRefOfText,
  msg,
  zodMessage,
  zodMessageRef,
} from '../../../shared/messages';
import { z } from 'zod';

const root = resolve(__dirname, '..', '..', '..');

/** Source files whose strings can reach a person through an API answer. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'cli' ? [] : sources(path);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

/**
 * Operator-facing texts (logs, start-up errors, mail bodies with their own translations) are not answers of
 * the API; they are named here so that the check below stays strict for everything else.
 */
const NOT_ANSWERS = new Set([
  'The web client has not been built yet: run `npm run build`.',
  // a start that waited too long for another instance's migrations (db/knex.ts withDatabaseLock), before listening
  'Another instance held the database lock "${name}" for more than ${waitSeconds} s.',
  // a start-up warning to the operator (config.ts startupWarnings), logged, never an answer
  'TRUST_PROXY=true believes X-Forwarded-For from anyone: name the proxy’s address instead.',
]);

/** A sentence in quotes: starts with a capital letter or `{`, ends with . ! or ? */
const SENTENCE = /'((?:[A-Z{][^'\n]*?)[.!?])'/g;
const TEMPLATE_SENTENCE = /`([A-Z][^`]*\$\{[^`]*[.!?])`/g;

function sentencesIn(file: string): { text: string; template: boolean; where: string }[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  return lines.flatMap((line, i) => {
    if (/logger\.|console\.|^\s*(\*|\/\/)/.test(line)) return [];
    const where = `${relative(root, file)}:${i + 1}`;
    return [
      ...[...line.matchAll(SENTENCE)].map((m) => ({ text: m[1], template: false, where })),
      ...[...line.matchAll(TEMPLATE_SENTENCE)].map((m) => ({ text: m[1], template: true, where })),
    ];
  });
}

describe('messages the server sends', () => {
  // the catalog itself, and the mails, which carry their own text in each language (mail-templates.ts)
  const files = [...sources(join(root, 'server', 'src')), ...sources(join(root, 'shared'))].filter(
    (f) => !f.endsWith(join('shared', 'messages.ts')) && !f.endsWith('mail-templates.ts'),
  );

  it('are all in the catalog (shared/messages.ts) as exact texts, so that the client can show them in zh_HK', () => {
    const found = files.flatMap(sentencesIn);
    expect(found.length).toBeGreaterThan(20);
    const uncatalogued = found
      .filter((s) => !s.template && !NOT_ANSWERS.has(s.text) && !messageRefOfText(s.text))
      .map((s) => `${s.where}: ${s.text}`);
    const builtInPlace = found
      .filter((s) => s.template && !NOT_ANSWERS.has(s.text))
      .map((s) => `${s.where}: ${s.text}`);
    expect({ uncatalogued, builtInPlace }).toEqual({ uncatalogued: [], builtInPlace: [] });
    console.log(
      `message catalog: ${found.length} message literals in ${files.length} files, all catalogued ` +
        `(${Object.keys(FIELD_MESSAGES).length} field messages + ${Object.keys(MESSAGES).length} spec messages)`,
    );
  });

  it('are thrown by key, never as free text: every AppError and msg() names a key of the catalog', () => {
    const serverFiles = files.filter((f) => f.includes(join('server', 'src')));
    const free: string[] = [];
    const keys: string[] = [];
    for (const file of serverFiles) {
      const text = readFileSync(file, 'utf8');
      // a throw whose message argument is a quoted sentence (a key is one word)
      for (const call of text.matchAll(/(?:new AppError\(|AppError\.field\()[^;\n]*/g)) {
        for (const [, literal] of call[0].matchAll(/'([^'\n]*)'/g))
          if (/^[A-Z].*\s/.test(literal)) free.push(`${relative(root, file)}: ${literal}`);
      }
      for (const m of text.matchAll(/\bmsg\('(\w+)'/g)) keys.push(m[1]);
    }
    expect(free).toEqual([]);
    expect(keys.length).toBeGreaterThan(10);
    expect(keys.filter((k) => !(k in CATALOG))).toEqual([]);
  });

  it('carry their key and placeholders; a nested message is a reference of its own', () => {
    expect(messageRefOfText('This field is required.')).toEqual({ key: 'required' });
    expect(messageRefOfText(MESSAGES.storageFull)).toEqual({ key: 'storageFull' });
    expect(messageRefOfText('Something nobody catalogued.')).toBeNull();
    const nested = msg('importRow', { row: 7, message: msg('tooLong', { max: 200 }) });
    expect(nested.text).toBe('Row 7: May not be longer than 200 characters.');
    expect(nested.key).toBe('importRow');
    expect(
      messageEnglish({
        key: 'importRow',
        params: { row: 7, message: { key: 'tooLong', params: { max: 200 } } },
      }),
    ).toBe(nested.text);
    expect(fieldMessage('tooLong', { max: 5 })).toBe('May not be longer than 5 characters.');
    // the spec's messages and the field messages are one catalog: no key in both
    const both = Object.keys(MESSAGES).filter((k) => k in FIELD_MESSAGES);
    expect(both).toEqual([]);
  });

  it("replace zod's own messages with catalogued ones; a schema's own message still wins", () => {
    installZodMessages();
    const schema = z.strictObject({
      name: z.string().max(5),
      age: z.number().int().min(18),
      email: z.email(),
      kind: z.enum(['a', 'b']),
      code: z.string().min(1, 'Letters and digits only.'),
    });
    const result = schema.safeParse({
      name: 'too long',
      age: 3.5,
      email: 'x',
      kind: 'c',
      code: '',
      extra: 1,
    });
    expect(result.success).toBe(false);
    const byPath = Object.fromEntries(result.error!.issues.map((i) => [i.path.join('.') || '_', i.message]));
    expect(byPath).toEqual({
      name: 'May not be longer than 5 characters.',
      age: 'Must be a whole number.',
      email: MESSAGES.invalidEmail,
      kind: 'Choose one of the listed values.',
      code: 'Letters and digits only.',
      _: 'This field is not allowed.',
    });
    const refs = Object.fromEntries(
      result.error!.issues.map((i) => [i.path.join('.') || '_', zodMessageRef(i as never)]),
    );
    expect(refs).toEqual({
      name: { key: 'tooLong', params: { max: '5' } },
      age: { key: 'notAWholeNumber' },
      email: { key: 'invalidEmail' },
      kind: { key: 'chooseListed' },
      code: { key: 'lettersDigits' },
      _: { key: 'notAllowed' },
    });
    for (const issue of result.error!.issues)
      expect(messageEnglish(zodMessageRef(issue as never))).toBe(issue.message);
    expect(zodMessage({ code: 'too_small', origin: 'string', minimum: 1, input: '' } as never)).toBe(
      'This field is required.',
    );
  });
});
