import type { Knex } from 'knex';
import { students } from '../../../shared/resources/students';
import { searchTerms } from '../../src/db/search';
import { changeEvents } from '../../src/lib/change-events';
import { definitionFromDeclaration } from '../../src/resources/declared';
import type { Row } from '../../src/resources/resource';
import { listLimits, resourceRepository } from '../../src/resources/resource.repository';
import { Client, createBranch, createTestApp, onMysql, signedInAdmin, type TestApp } from '../harness';

/**
 * The deferred join (a page's ids on the index, then its rows), the page read from the far end, the size kept only
 * to choose the end and the shared reads of a page's ids answer exactly what plain `ORDER BY … LIMIT … OFFSET`
 * answers: every page of a few hundred students, in several sorts (ties and NULLs in the sort column) and filters,
 * a search read down the sort's index, a branch-scoped caller, before and after rows are added and removed.
 */

const STUDENTS = 300;
const LIMITS = { ...listLimits };
const SURNAMES = ['CHAN', 'WONG', 'LEE', 'CHEUNG', 'LAU'];
const GIVEN = ['Tai Man', 'Siu Ming', 'Ka Yan', 'Wing Kei', 'Hoi Chun', 'Wai Kit', 'Mei Ling'];
const STATUSES = ['enquiry', 'active', 'applied'];
/** ten creation times for three hundred students: long runs of ties */
const CREATED = Array.from({ length: 10 }, (_, i) => `2026-0${1 + (i % 9)}-1${i % 10} 08:00:00`);

let t: TestApp;
let admin: Client;
let branches: number[];
let seq = 0;

function studentRow(i: number): Row {
  const n = ++seq;
  return {
    student_no: `P-${String(n).padStart(5, '0')}`,
    branch_id: branches[i % branches.length],
    // every status in every branch (not in step with the branch)
    status: STATUSES[Math.floor(i / 2) % STATUSES.length],
    surname_en: SURNAMES[i % SURNAMES.length],
    given_name_en: GIVEN[(i * 3) % GIVEN.length],
    // every fourth without a Chinese name: NULLs first ascending, last descending
    name_zh: i % 4 === 0 ? null : `陳${'大小明文'[i % 4]}`,
    info_submitted_at: i % 5 === 0 ? `2026-02-0${1 + (i % 3)} 10:00:00` : null,
    created_at: CREATED[i % CREATED.length],
    updated_at: CREATED[0],
  };
}

async function addStudents(db: Knex, from: number, count: number): Promise<void> {
  const rows = Array.from({ length: count }, (_, k) => studentRow(from + k));
  for (let i = 0; i < rows.length; i += 100) await db('students').insert(rows.slice(i, i + 100));
  const ids = (await db('students').where('student_no', 'like', 'P-%').pluck('id')).map(Number);
  await searchTerms.refreshDeclared(db, 'students', ids);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  branches = [
    await createBranch(t.db, 'PGA'),
    await createBranch(t.db, 'PGB'),
    await createBranch(t.db, 'PGC'),
  ];
  await addStudents(t.db, 0, STUDENTS);
  if (onMysql) await t.db.raw('ANALYZE TABLE students, search_terms');
});
afterEach(() => Object.assign(listLimits, LIMITS));
afterAll(() => t.close());

const SORTS = [
  '-created_at',
  'created_at',
  'surname_en',
  '-surname_en',
  'name_zh',
  '-name_zh',
  'given_name_en',
  'student_no',
  '-info_submitted_at',
];

interface Case {
  label: string;
  query: string;
  where: (qb: Knex.QueryBuilder) => void;
}

function cases(): Case[] {
  return [
    { label: 'every student', query: '', where: () => undefined },
    { label: 'status', query: 'status=active', where: (qb) => qb.where('status', 'active') },
    {
      label: 'branch + status',
      query: `branch_id=${branches[1]}&status=enquiry`,
      where: (qb) => qb.where({ branch_id: branches[1], status: 'enquiry' }),
    },
    {
      label: 'a search read down the index',
      query: 'q=chan',
      where: (qb) =>
        qb.whereIn('id', (sub: Knex.QueryBuilder) =>
          sub
            .select('record_id')
            .from('search_terms')
            .where('entity', 'students')
            .where('term', '>=', 'chan')
            .where('term', '<', 'chao'),
        ),
    },
  ];
}

/** Every page of `c` in `sort`, `perPage` a page, against plain OFFSET paging: pages compared, and the totals. */
async function comparePages(c: Case, sort: string, perPage: number): Promise<number> {
  const column = sort.replace(/^-/, '');
  const direction = sort.startsWith('-') ? 'desc' : 'asc';
  const plain = (offset: number, limit: number) => {
    const qb = t.db('students').where('student_no', 'like', 'P-%');
    c.where(qb);
    qb.orderBy(column, direction);
    if (column !== 'student_no') qb.orderBy('id', direction);
    return qb.offset(offset).limit(limit).pluck('id');
  };
  const countQb = t.db('students').where('student_no', 'like', 'P-%');
  c.where(countQb);
  const size = Number((await countQb.count({ n: '*' }).first())?.n);
  // more than one page, so that pages are read past the first and from the far end
  expect({ case: c.label, size: size > perPage }).toEqual({ case: c.label, size: true });
  const pages = Math.ceil(size / perPage) + 1; // and one past the end
  for (let page = 1; page <= pages; page++) {
    const res = await admin
      .get(`/api/students?sort=${sort}&page=${page}&per_page=${perPage}${c.query ? `&${c.query}` : ''}`)
      .expect(200);
    const expected = (await plain((page - 1) * perPage, perPage)).map(Number);
    expect({ case: c.label, sort, perPage, page, ids: res.body.items.map((r: Row) => r.id) }).toEqual({
      case: c.label,
      sort,
      perPage,
      page,
      ids: expected,
    });
    expect({ case: c.label, sort, page, total: res.body.total }).toEqual({
      case: c.label,
      sort,
      page,
      total: size,
    });
  }
  return pages;
}

describe('paging answers what plain OFFSET paging answers', () => {
  let compared = 0;
  afterAll(() =>
    console.log(
      `paging: ${compared} pages of ${STUDENTS} students (then +37 −23), ${SORTS.length} sorts, ${cases().length} ` +
        `filters, 20 and 7 a page, each equal to plain OFFSET paging on ${onMysql ? 'MariaDB' : 'SQLite'}`,
    ),
  );

  it.each(['every student', 'status', 'branch + status', 'a search read down the index'])(
    '%s: every page in every sort, from the far end past the middle',
    async (label) => {
      const c = cases().find((x) => x.label === label)!;
      // read from the far end from the second page on (the size counted), a search walked down the sort's index
      listLimits.reverseFrom = 1;
      listLimits.searchFew = 5;
      for (const sort of SORTS) compared += await comparePages(c, sort, 20);
      for (const sort of ['-created_at', 'name_zh', 'student_no']) compared += await comparePages(c, sort, 7);
    },
    120_000,
  );

  it('with a stale size once rows come and go (the forward pages chosen on it stay right)', async () => {
    listLimits.reverseFrom = 1;
    listLimits.searchFew = 5;
    await addStudents(t.db, STUDENTS, 37);
    const gone = await t
      .db('students')
      .where('status', 'applied')
      .orderBy('id')
      .offset(5)
      .limit(23)
      .pluck('id');
    await t.db('students').whereIn('id', gone).delete();
    for (const c of cases())
      for (const sort of ['-created_at', '-name_zh']) compared += await comparePages(c, sort, 20);
  }, 120_000);

  it('with the default sizes: pages read forwards until `reverseFrom`, on the index alone', async () => {
    for (const c of cases())
      for (const sort of ['-created_at', 'surname_en']) compared += await comparePages(c, sort, 20);
  }, 120_000);

  it('a branch-scoped caller pages through its branch alone, from both ends alike', async () => {
    listLimits.reverseFrom = 1;
    const def = definitionFromDeclaration(students);
    const scope = { branchId: branches[2] };
    const sort = { column: 'surname_en', direction: 'desc' as const };
    const all = (
      await t
        .db('students')
        .where({ branch_id: branches[2] })
        .orderBy('surname_en', 'desc')
        .orderBy('id', 'desc')
        .pluck('id')
    ).map(Number);
    const seen: number[] = [];
    for (let page = 1; page <= Math.ceil(all.length / 9); page++) {
      const { rows, total } = await resourceRepository.list(t.db, def, {
        page,
        perPage: 9,
        sort,
        filters: {},
        scope,
      });
      expect(total).toBe(all.length);
      seen.push(...rows.map((r) => Number(r.id)));
    }
    expect(seen).toEqual(all);
  });
});

describe('a page read by many at once', () => {
  it('reads its ids once for the requests in flight, and anew after any change', async () => {
    listLimits.reverseFrom = 1;
    const def = definitionFromDeclaration(students);
    const params = {
      page: 12,
      perPage: 10,
      sort: { column: 'created_at', direction: 'desc' as const },
      filters: {},
      scope: null,
    };
    const idReads: string[] = [];
    const isIdRead = (sql: string) =>
      /^select [`"]students[`"]\.[`"]id[`"] from/.test(sql) && /offset/.test(sql);
    const listener = (q: { sql: string }) => {
      if (isIdRead(q.sql)) idReads.push(q.sql);
    };
    t.db.on('query', listener);
    try {
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => resourceRepository.list(t.db, def, params)),
      );
      const reads = idReads.length;
      const first = answers[0].rows.map((r) => r.id);
      for (const a of answers) expect(a.rows.map((r) => r.id)).toEqual(first);
      // the rows are each request's own (a request completes its rows in place)
      expect(new Set(answers.map((a) => a.rows[0])).size).toBe(answers.length);
      // a change while one is in flight: the request that comes after it reads again
      idReads.length = 0;
      let after: Promise<unknown> | null = null;
      const onRead = (q: { sql: string }) => {
        if (after || !isIdRead(q.sql)) return;
        void changeEvents.emit(['students'], 'uncommitted');
        after = resourceRepository.list(t.db, def, params);
      };
      t.db.on('query', onRead);
      try {
        await resourceRepository.list(t.db, def, params);
        await after;
      } finally {
        t.db.off('query', onRead);
      }
      console.log(
        `shared page reads: 6 requests at once for page 12 read its ids ${reads} time(s); ` +
          `a change between two requests: ${idReads.length} reads`,
      );
      expect(reads).toBe(1);
      expect(idReads.length).toBe(2);
    } finally {
      t.db.off('query', listener);
    }
  });
});
