/**
 * Search that uses indexes (issue 25, item 2): what a students search finds (README "What a search finds") —
 * identifiers by prefix (the phone by its digits too), English names by word prefix, Chinese and Korean names by any
 * part, several words all of them, `%` and `_` as themselves — through the search-terms table, kept in step by every
 * write (staff's create, update and delete, the portal's own writes, an import) and filled for existing rows by the
 * migration's backfill; and on MariaDB, EXPLAIN of the page and count queries of a search and of a filter shows
 * no full scan.
 */
import { declareResource } from '../../../shared/resources/declaration';
import resourcesEn from '../../../shared/resources/locales/en.json';
import resourcesZh from '../../../shared/resources/locales/zh_HK.json';
import { declaredTermColumns, matchingRecords, searchTerms, searchWords } from '../../src/db/search';
import { intersect, matchesFromPostings } from '../../src/db/search-postings';
import { toDbDateTime } from '../../src/lib/clock';
import { definitionFromDeclaration } from '../../src/resources/declared';
import { listLimits } from '../../src/resources/resource.repository';
import { registerResource } from '../../src/resources/resource.routes';
import { Client, createTestApp, onMysql, signedInAdmin, type TestApp } from '../harness';
import { portalStudent } from '../portal/portal-helpers';
import { branch, createStudentVia, optionValue } from './students-helpers';

type Row = Record<string, any>;

let t: TestApp;
let admin: Client;
let b: number;
const made: Record<string, Row> = {};

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  b = await branch(t);
  const bodies: Record<string, Row> = {
    taiMan: {
      surname_en: 'CHAN',
      given_name_en: 'Tai Man',
      name_zh: '陳大文',
      name_ko: '김민준',
      passport_no: 'K1234567',
      phone: '+852 9123 4567',
      email: 'tai.man.chan@example.com',
    },
    siuMing: {
      surname_en: 'CHAN',
      given_name_en: 'Siu Ming',
      name_zh: '陳小明',
      name_ko: '이 서연',
      passport_no: 'K7654321',
      phone: '+852 6123 9999',
      email: 'siu.ming@example.com',
    },
    mary: { surname_en: "O'BRIEN", given_name_en: 'Mary-Jane' },
    percent: { surname_en: 'FIFTY%OFF', given_name_en: 'Snake_Case' },
    // what `%` and `_` would find were they wildcards
    decoy: { surname_en: 'FIFTYOFF', given_name_en: 'SnakeXCase' },
  };
  for (const [key, body] of Object.entries(bodies)) made[key] = await createStudentVia(admin, b, body);
});
afterAll(() => t.close());

/** The keys (of `made`) of the students of this file's branch that `q` finds. */
async function found(q: string, client = admin): Promise<string[]> {
  const res = await client.get(`/api/students?per_page=100&branch_id=${b}&q=${encodeURIComponent(q)}`);
  expect(res.status).toBe(200);
  const byId = new Map(Object.entries(made).map(([key, row]) => [row.id, key]));
  return res.body.items.map((row: Row) => byId.get(row.id) ?? `#${row.id}`).sort();
}

describe.each([
  ['few matches: read by id and sorted', 2_000],
  ['many matches: down the sort’s index', 0],
])('what a students search finds (%s)', (_how, few) => {
  const FEW = listLimits.searchFew;
  beforeAll(() => {
    listLimits.searchFew = few;
  });
  afterAll(() => {
    listLimits.searchFew = FEW;
  });

  it.each([
    ['the whole student number', () => made.taiMan.student_no, ['taiMan']],
    ['a passport number from its start, in any case', () => 'k12345', ['taiMan']],
    ['an e-mail from its start', () => 'tai.man', ['taiMan']],
    ['a phone by its digits without the country code', () => '91234567', ['taiMan']],
    ['a phone by its digits as grouped with a dash', () => '9123-4567', ['taiMan']],
    ['a phone by its groups as written', () => '+852 6123', ['siuMing']],
    ['a phone by all its digits', () => '85261239999', ['siuMing']],
  ])('finds an identifier: %s', async (_what, q, expected) => {
    expect(await found(q())).toEqual(expected);
  });

  it('finds every student of a number prefix (the branch’s numbers share their start)', async () => {
    const number = String(made.taiMan.student_no);
    const prefix = number.slice(0, number.lastIndexOf('-') + 1);
    expect(await found(prefix)).toEqual(Object.keys(made).sort());
  });

  it.each([
    ['chan', ['siuMing', 'taiMan']],
    ['Tai', ['taiMan']],
    ['ma', ['mary', 'taiMan']],
    ['man', ['taiMan']],
    ['mi', ['siuMing']],
    ['brien', ['mary']],
    ["o'bri", ['mary']],
    ['jane', ['mary']],
    ['MARY-J', ['mary']],
    // inside a word is not the start of one
    ['an', []],
    ['ing', []],
  ])('finds English names by the start of a word: %s', async (q, expected) => {
    expect(await found(q)).toEqual(expected);
  });

  it.each([
    ['大文', ['taiMan']],
    ['文', ['taiMan']],
    ['陳大', ['taiMan']],
    ['陳', ['siuMing', 'taiMan']],
    ['小明', ['siuMing']],
    ['明', ['siuMing']],
  ])('finds a Chinese name by any part of it: %s', async (q, expected) => {
    expect(await found(q)).toEqual(expected);
  });

  it.each([
    ['민준', ['taiMan']],
    ['준', ['taiMan']],
    ['김민', ['taiMan']],
    ['서연', ['siuMing']],
    // written with a space, found without it
    ['이서', ['siuMing']],
  ])('finds a Korean name by any part of it: %s', async (q, expected) => {
    expect(await found(q)).toEqual(expected);
  });

  it.each([
    ['chan man', ['taiMan']],
    ['man chan', ['taiMan']],
    ['陳 明', ['siuMing']],
    ['chan 9123', ['taiMan']],
    ['chan mary', []],
  ])('finds the students having every word: %s', async (q, expected) => {
    expect(await found(q)).toEqual(expected);
  });

  it.each([
    ['%', []],
    ['_', []],
    ['fifty%o', ['percent']],
    ['snake_c', ['percent']],
    ['%off', []],
  ])('matches %% and _ as themselves: %s', async (q, expected) => {
    expect(await found(q)).toEqual(expected);
  });

  it('finds nothing for a word no student has, with a total of 0', async () => {
    const res = await admin.get(`/api/students?q=${encodeURIComponent('zzqx no such')}`).expect(200);
    expect(res.body).toMatchObject({ items: [], total: 0 });
  });

  it('answers the student picker (lookup) from the same terms', async () => {
    const res = await admin.get(`/api/students/lookup?q=${encodeURIComponent('大文')}`).expect(200);
    expect(res.body.map((r: Row) => r.id)).toEqual([made.taiMan.id]);
    const none = await admin.get(`/api/students/lookup?q=${encodeURIComponent('an')}`).expect(200);
    expect(none.body).toEqual([]);
  });

  it('reads the search on the terms table, never by LIKE on the students', async () => {
    const seen: string[] = [];
    const listener = (q: { sql: string }) => seen.push(q.sql);
    t.db.on('query', listener);
    try {
      // words no search asked before (a word's records, once read, are kept: below)
      await admin.get(`/api/students?q=chan%20zq${few}x${Date.now().toString(36)}`).expect(200);
      await admin.get('/api/students/lookup?q=chan').expect(200);
    } finally {
      t.db.off('query', listener);
    }
    const students = seen.filter((sql) => /from [`"]students[`"]/.test(sql));
    expect(students.length).toBeGreaterThan(0);
    for (const sql of students) expect(sql).not.toMatch(/\blike\b/i);
    // the list's new word read on the terms (a word read before is kept: below)
    expect(seen.filter((sql) => /from [`"]search_terms[`"]/.test(sql)).length).toBeGreaterThanOrEqual(1);
  });
});

describe('each word’s records, kept', () => {
  it('answers what the database’s match of every word answers', async () => {
    const queries = [
      'chan',
      'chan tai',
      'c m',
      'siu ming chan',
      '陳',
      '大文',
      '김',
      'k1',
      'tai.man',
      'zzq',
      'o brien',
    ];
    for (const q of queries) {
      const words = searchWords(q);
      const kept = await matchesFromPostings(t.db, 'students', words);
      const rows = (await matchingRecords(t.db, 'students', words)) as { record_id: number }[];
      const expected = rows.map((r) => Number(r.record_id)).sort((a, b) => a - b);
      expect({ q, ids: kept }).toEqual({ q, ids: expected });
    }
    expect(
      intersect([Uint32Array.of(1, 3, 5, 9), Uint32Array.of(3, 4, 9, 12), Uint32Array.of(0, 3, 9)]),
    ).toEqual([3, 9]);
    expect(intersect([Uint32Array.of(2, 4), Uint32Array.of()])).toEqual([]);
  });

  it('keeps each word’s records until any record’s terms change', async () => {
    const termReads = async (q: string) => {
      let reads = 0;
      const listener = (query: { sql: string }) => {
        if (/from [`"]search_terms[`"]/.test(query.sql)) reads++;
      };
      t.db.on('query', listener);
      try {
        const res = await admin.get(`/api/students?q=${encodeURIComponent(q)}`).expect(200);
        return { reads, ids: (res.body.items as Row[]).map((r) => r.id) };
      } finally {
        t.db.off('query', listener);
      }
    };
    // words of their own (a word asked before may be kept already)
    const tag = Date.now().toString(36);
    const [surname, given] = [`Qzk${tag}`, `Vex${tag}`];
    const q = `${surname.slice(0, -1)} ${given.slice(0, 5)}`;
    const one = await createStudentVia(admin, b, { surname_en: surname, given_name_en: `${given} Wa` });
    const first = await termReads(q);
    expect(first.reads).toBe(2);
    expect(first.ids).toEqual([one.id]);
    const again = await termReads(q);
    expect(again.reads).toBe(0);
    expect(again.ids).toEqual(first.ids);
    // a new student with those words: every kept word is dropped, and the next search finds both
    const two = await createStudentVia(admin, b, { surname_en: `${given}ne`, given_name_en: surname });
    const after = await termReads(q);
    expect(after.reads).toBe(2);
    expect(after.ids.sort()).toEqual([one.id, two.id].sort());
    console.log(
      `kept words: "${q}" read its 2 words' records ${first.reads} time(s), then ${again.reads}; ` +
        `after a student was added, ${after.reads} again, finding ${after.ids.length}`,
    );
  });
});

describe('the terms are kept in step with every write', () => {
  it('follows a rename by staff, and a delete leaves no terms behind', async () => {
    const student = await createStudentVia(admin, b, { surname_en: 'WONG', given_name_en: 'Ka Yan' });
    made.wong = student;
    expect(await found('wong ka')).toEqual(['wong']);
    await admin.put(`/api/students/${student.id}`, { surname_en: 'LEUNG', name_zh: '梁嘉欣' }).expect(200);
    expect(await found('wong')).toEqual([]);
    expect(await found('leung ka')).toEqual(['wong']);
    expect(await found('嘉欣')).toEqual(['wong']);
    const terms = () => t.db('search_terms').where({ entity: 'students', record_id: student.id });
    expect((await terms()).length).toBeGreaterThan(0);
    await admin.delete(`/api/students/${student.id}`).expect(204);
    delete made.wong;
    expect(await terms()).toEqual([]);
    expect(await found('leung')).toEqual([]);
  });

  it('follows what a student writes in the portal', async () => {
    const s = await portalStudent(t);
    await t.db('students').where({ id: s.id }).update({ branch_id: b });
    made.portal = { id: s.id };
    await s.client.put('/api/student', { name_zh: '黃美玲', name_ko: '황미령' }).expect(200);
    expect(await found('美玲')).toEqual(['portal']);
    expect(await found('미령')).toEqual(['portal']);
    await s.client.put('/api/student', { name_zh: '黃美儀' }).expect(200);
    expect(await found('美玲')).toEqual([]);
    expect(await found('美儀')).toEqual(['portal']);
  });

  it('fills the terms of rows written without them (the migration’s backfill)', async () => {
    const now = toDbDateTime();
    const [id] = await t.db('students').insert({
      student_no: 'OLD-0001',
      branch_id: b,
      surname_en: 'CHEUNG',
      given_name_en: 'Old Row',
      name_zh: '張舊生',
      created_at: now,
      updated_at: now,
    });
    made.old = { id: Number(id) };
    expect(await found('cheung')).toEqual([]);
    const done = await searchTerms.rebuild(t.db, 'students', declaredTermColumns('students')!, 2);
    expect(done).toBeGreaterThanOrEqual(Object.keys(made).length);
    expect(await found('cheung old')).toEqual(['old']);
    expect(await found('舊生')).toEqual(['old']);
    expect(await found('old-00')).toEqual(['old']);
    // the others' terms are what they were
    expect(await found('chan man')).toEqual(['taiMan']);
  });
});

// ---- an import into a resource searched on its terms: the importer writes through the same repository ----

const people = declareResource({
  name: 'zs_person',
  path: '/zs-people',
  table: 'zs_people',
  module: 'student_categories',
  fields: {
    code: { type: 'text', max: 20, required: true, unique: true, searchable: 'identifier', sortable: true },
    name: { type: 'text', max: 100, required: true, searchable: 'name', sortable: true },
  },
  display: { en: ['code', 'name'], zh_HK: ['code', 'name'] },
  defaultSort: 'code',
  searchTerms: true,
  importable: true,
});
(resourcesEn.resources as Record<string, unknown>).zs_person = {
  title: 'People',
  record: 'Person',
  fields: { code: 'Code', name: 'Name' },
};
(resourcesZh.resources as Record<string, unknown>).zs_person = {
  title: '人物',
  record: '人物',
  fields: { code: '編號', name: '姓名' },
};

describe('an import', () => {
  it('keeps the terms of the records it writes', async () => {
    await t.db.schema.createTable('zs_people', (tb) => {
      tb.increments('id');
      tb.string('code', 20).notNullable().unique();
      tb.string('name', 100).notNullable();
      tb.dateTime('created_at').notNullable();
      tb.dateTime('updated_at').notNullable();
      tb.integer('created_by').unsigned().nullable();
      tb.integer('updated_by').unsigned().nullable();
    });
    registerResource(t.api, t.db, definitionFromDeclaration(people));
    const csv = 'code,name\nP-001,Ada Lovelace\nP-002,岑卓華\n';
    const res = await admin
      .post('/api/zs-people/import')
      .attach('file', Buffer.from(csv), { filename: 'people.csv', contentType: 'text/csv' });
    expect([res.status, res.body]).toEqual([200, expect.anything()]);
    const names = async (q: string) =>
      (await admin.get(`/api/zs-people?q=${encodeURIComponent(q)}`).expect(200)).body.items.map(
        (r: Row) => r.name,
      );
    expect(await names('love')).toEqual(['Ada Lovelace']);
    expect(await names('卓華')).toEqual(['岑卓華']);
    expect(await names('p-00')).toEqual(['Ada Lovelace', '岑卓華']);
    expect(await names('ove')).toEqual([]);
  });
});

// ---- MariaDB: the plans ----

/** The SQL statements a request runs, with their bindings. */
async function statementsOf(send: () => PromiseLike<unknown>) {
  const seen: { sql: string; bindings: unknown[] }[] = [];
  const listener = (q: { sql: string; bindings?: unknown[] }) =>
    seen.push({ sql: q.sql, bindings: q.bindings ?? [] });
  t.db.on('query', listener);
  try {
    await send();
  } finally {
    t.db.off('query', listener);
  }
  return seen;
}

interface PlanStep {
  table: string | null;
  type: string | null;
  key: string | null;
  /** the rows the step read when it ran (MariaDB's ANALYZE) */
  r_rows: number | string | null;
}

(onMysql ? describe : describe.skip)('on MariaDB, at 6,000 students', () => {
  const ROWS = 6_000;
  const SURNAMES = ['CHAN', 'WONG', 'LEE', 'CHEUNG', 'LAU', 'KIM', 'PARK', 'CHOI', 'NG', 'HO'];
  let status: string;

  beforeAll(async () => {
    status = await optionValue(t.db, 'student_status', 'applied');
    const now = toDbDateTime();
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      student_no: `BULK-${String(i).padStart(6, '0')}`,
      branch_id: b,
      surname_en: SURNAMES[i % SURNAMES.length],
      given_name_en: `Given${i}`,
      name_zh: `陳${i}`,
      email: `bulk${i}@example.com`,
      phone: `+852 ${String(90000000 + i)}`,
      status: i % 7 === 0 ? status : null,
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 500) await t.db('students').insert(rows.slice(i, i + 500));
    await searchTerms.rebuild(t.db, 'students', declaredTermColumns('students')!);
    await t.db.raw('ANALYZE TABLE students, search_terms');
  });

  const CASES: [string, string][] = [
    ['a name search', 'q=given12'],
    ['a common surname', 'q=chan'],
    ['an identifier', 'q=bulk-0042'],
    ['two words', 'q=wong%20given1'],
    ['a search matching nothing', 'q=zzqxv'],
    ['a filter', `status=applied`],
    ['a filter and a search', `status=applied&q=lee`],
    ['a search, sorted by name', 'q=chan&sort=name_zh'],
    ['a search, a deep page', 'q=given1&page=40'],
  ];
  const FEW = listLimits.searchFew;
  afterEach(() => {
    listLimits.searchFew = FEW;
  });

  it.each([
    ...CASES.map(([what, query]): [string, string, number] => [what, query, FEW]),
    // many matches (a tenth of the students, spread over the order): the page walks the sort's index as far as its
    // last row, the count reads the matches first
    ...CASES.filter(([, query]) => /q=(chan|lee)\b/.test(query)).map(
      ([what, query]): [string, string, number] => [`${what} (many matches)`, query, 20],
    ),
  ])('EXPLAIN shows no full scan for %s (page and count), nor does running it', async (_what, query, few) => {
    listLimits.searchFew = few;
    const statements = await statementsOf(() =>
      admin
        .get(`/api/students?per_page=5&${query.includes('sort=') ? '' : 'sort=-created_at&'}${query}`)
        .expect(200),
    );
    const reads = statements.filter(
      (s) => /^select/i.test(s.sql) && /from [`"](students|search_terms)[`"]|from \(select/i.test(s.sql),
    );
    expect(reads.length).toBeGreaterThan(0);
    for (const s of reads) {
      // ANALYZE runs the statement and shows EXPLAIN's plan with the rows each step read (`r_rows`)
      const [plan] = (await t.db.raw(`ANALYZE ${s.sql}`, s.bindings as never)) as [PlanStep[]];
      for (const step of plan) {
        // a derived or materialised table (`<derived2>`, `<subquery2>`) is the query's own, not a table
        if (!step.table || step.table.startsWith('<')) continue;
        expect({ sql: s.sql, table: step.table, type: step.type }).not.toEqual(
          expect.objectContaining({ type: 'ALL' }),
        );
        expect({ sql: s.sql, table: step.table, key: step.key }).toEqual(
          expect.objectContaining({ key: expect.any(String) }),
        );
        if (step.table === 'search_terms')
          expect(step.key).toMatch(/search_terms_entity_term_record_index|PRIMARY/);
        // an index walked from end to end is a full scan too: no step reads a quarter of the table
        const read = Number(step.r_rows);
        expect({ sql: s.sql, table: step.table, read, scanned: read > ROWS / 4 }).toEqual(
          expect.objectContaining({ scanned: false }),
        );
      }
    }
  });
});
