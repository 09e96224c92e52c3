import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { OPTION_KEYS } from '../../../shared/schemas/options';
import { parseCsv } from '../../src/modules/exports/csv';
import { guardedQuery, setStatementTimeout, DEFAULT_STATEMENT_TIMEOUT_MS } from '../../src/db/knex';
import { AppError } from '../../src/lib/app-error';
import type { ResourceDefinition, Row } from '../../src/resources/resource';
import { listLimits } from '../../src/resources/resource.repository';
import { registerResource } from '../../src/resources/resource.routes';
import { createResourceService } from '../../src/resources/resource.service';
import type { RequestContext } from '../../src/http/context';
import { Client, createTestApp, onMysql, signedInAdmin, type TestApp } from '../harness';

const NOW = '2026-01-01 00:00:00';
const COMPANIES = 3000;
const OPTION_KEY = OPTION_KEYS[0];
const LIMITS = { ...listLimits };

let t: TestApp;
let admin: Client;

async function insertMany(table: string, rows: Row[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await t.db(table).insert(rows.slice(i, i + 500));
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  // names repeat (a tie-break is needed), codes do not
  await insertMany(
    'companies',
    Array.from({ length: COMPANIES }, (_, i) => ({
      code: `K${String(i).padStart(5, '0')}`,
      name_en: `Company ${i % 97}`,
      name_zh: `公司${i % 89}`,
      created_at: NOW,
      updated_at: NOW,
    })),
  );
  await insertMany(
    'options',
    Array.from({ length: 600 }, (_, i) => ({
      key: OPTION_KEY,
      value: `v${i}`,
      label_en: `Label ${i % 50}`,
      label_zh: `標籤${i % 40}`,
      sort_order: i % 30,
      created_at: NOW,
      updated_at: NOW,
    })),
  );
  await insertMany(
    'areas',
    Array.from({ length: 600 }, (_, i) => ({
      name_en: `Area ${i % 70}`,
      name_zh: `地區${i % 60}`,
      sort_order: i % 25,
      created_at: NOW,
      updated_at: NOW,
    })),
  );
  if (onMysql) await t.db.raw('ANALYZE TABLE companies, options, areas');
});
afterEach(() => {
  Object.assign(listLimits, LIMITS);
  setStatementTimeout(t.db, DEFAULT_STATEMENT_TIMEOUT_MS);
});
afterAll(() => t.close());

/** The SQL a request sends to the database, as knex emits it. */
async function queriesOf(send: () => PromiseLike<unknown>): Promise<{ sql: string; bindings: unknown[] }[]> {
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

/** The reads of `table` a list request makes (not the session's, user's or role's). */
async function listQueries(url: string, table: string) {
  const all = await queriesOf(() => admin.get(url).expect(200));
  return all.filter((q) => q.sql.startsWith('select') && q.sql.includes(`from \`${table}\``));
}

describe('list queries at scale', () => {
  const CASES: [string, string][] = [
    ['/api/companies?sort=code&page=2', 'companies'],
    ['/api/companies?sort=-code&page=140', 'companies'],
    ['/api/companies?sort=name_en&page=3', 'companies'],
    ['/api/companies?sort=-name_zh&page=120', 'companies'],
    ['/api/companies?sort=created_at&page=50', 'companies'],
    [`/api/options/${OPTION_KEY}?sort=label_en&page=20`, 'options'],
    [`/api/options/${OPTION_KEY}?sort=-sort_order&page=2`, 'options'],
    [`/api/options/${OPTION_KEY}?sort=value&page=3`, 'options'],
    ['/api/areas?sort=name_zh&page=10', 'areas'],
    ['/api/areas?sort=sort_order&page=2', 'areas'],
  ];

  (onMysql ? it.each(CASES) : it.skip.each(CASES))(
    'reads %s down an index, never a filesort (MariaDB EXPLAIN)',
    async (url, table) => {
      const queries = await listQueries(url, table);
      // the page's ids (what the expansion of a page reads afterwards is not the page); the first page is one
      // `select * … order by … limit`, whose plan on a table this small is the optimiser's choice (the bench
      // measures it at a million rows)
      const pages = queries.filter((q) => /^select `\w+`\.`id` from .*order by .* limit/.test(q.sql));
      expect(pages.length).toBeGreaterThan(0);
      for (const q of pages) {
        const [plan] = await t.db.raw(`EXPLAIN ${q.sql}`, q.bindings as never);
        for (const step of plan as { key: string | null; Extra: string | null }[]) {
          expect({ sql: q.sql, extra: step.Extra ?? '' }).not.toEqual(
            expect.objectContaining({ extra: expect.stringMatching(/filesort/i) }),
          );
          expect(step.key).toBeTruthy();
        }
      }
    },
  );

  it('sorts by a unique column without the id tie-break, and by any other with it', async () => {
    const [byCode] = (await listQueries('/api/companies?sort=code', 'companies')).filter((q) =>
      q.sql.includes('order by'),
    );
    expect(byCode.sql).toMatch(/order by `companies`\.`code` asc limit/);
    const [byName] = (await listQueries('/api/companies?sort=-name_en', 'companies')).filter((q) =>
      q.sql.includes('order by'),
    );
    expect(byName.sql).toMatch(/order by `companies`\.`name_en` desc, `companies`\.`id` desc limit/);
    // an option's value is unique within its list (key, value)
    const [byValue] = (await listQueries(`/api/options/${OPTION_KEY}?sort=value`, 'options')).filter((q) =>
      q.sql.includes('order by'),
    );
    expect(byValue.sql).toMatch(/order by `options`\.`value` asc limit/);
  });

  it('reads a deep page by its ids first (a deferred join), with the same rows as the order gives', async () => {
    const queries = await listQueries('/api/companies?sort=name_en&page=100&per_page=20', 'companies');
    expect(queries.some((q) => /^select `companies`\.`id` from `companies`.*offset/.test(q.sql))).toBe(true);
    const res = await admin.get('/api/companies?sort=name_en&page=100&per_page=20').expect(200);
    const expected = await t
      .db('companies')
      .orderBy('name_en')
      .orderBy('id')
      .offset(99 * 20)
      .limit(20)
      .pluck('id');
    expect(res.body.items.map((r: Row) => r.id)).toEqual(expected);
    // past the end: an empty page, the total still right
    const past = await admin.get('/api/companies?page=1000&per_page=20').expect(200);
    expect(past.body).toMatchObject({ items: [], total: COMPANIES, page: 1000 });
  });

  it('reads a page near the end backwards from the end, with the rows the order gives', async () => {
    listLimits.reverseFrom = 40;
    try {
      for (const sort of ['name_en', '-name_en', 'code', '-created_at']) {
        const column = sort.replace(/^-/, '');
        const direction = sort.startsWith('-') ? 'desc' : 'asc';
        const last = Math.ceil(COMPANIES / 20);
        for (const page of [last, last - 1, Math.ceil(last / 2) + 1]) {
          const res = await admin.get(`/api/companies?sort=${sort}&page=${page}&per_page=20`).expect(200);
          const qb = t.db('companies').orderBy(column, direction);
          if (column !== 'code') qb.orderBy('id', direction);
          const expected = await qb
            .offset((page - 1) * 20)
            .limit(20)
            .pluck('id');
          expect([sort, page, res.body.items.map((r: Row) => r.id)]).toEqual([sort, page, expected]);
          expect(res.body.total).toBe(COMPANIES);
        }
      }
    } finally {
      listLimits.reverseFrom = LIMITS.reverseFrom;
    }
  });

  it('caps the count: beyond the cap the total is the cap and total_capped is set', async () => {
    const exact = await admin.get('/api/companies?per_page=5').expect(200);
    expect(exact.body.total).toBe(COMPANIES);
    expect(exact.body.total_capped).toBeUndefined();
    listLimits.countCap = 100;
    const capped = await admin.get('/api/companies?per_page=5&q=Company 1').expect(200);
    expect(capped.body).toMatchObject({ total: 100, total_capped: true });
    expect(capped.body.items).toHaveLength(5);
    // a filter under the cap is counted exactly
    const few = await admin.get('/api/companies?q=K0000').expect(200);
    expect(few.body.total).toBe(10);
    expect(few.body.total_capped).toBeUndefined();
  });

  it('counts once per filter, and any write to the table shows in the total at once', async () => {
    const url = '/api/companies?per_page=5&q=Cached';
    const counts = async () =>
      (await listQueries(url, 'companies')).filter((q) => /count\(/i.test(q.sql)).length;
    for (const n of [1, 2, 3, 4, 5, 6]) {
      await t.db('companies').insert({
        code: `CACHED${n}`,
        name_en: `Cached ${n}`,
        name_zh: '快取',
        created_at: NOW,
        updated_at: NOW,
      });
    }
    expect((await admin.get(url).expect(200)).body.total).toBe(6);
    // the same filter again: the kept count, no count query
    expect(await counts()).toBe(0);
    // a row written behind the machinery's back drops it …
    await t
      .db('companies')
      .insert({ code: 'CACHED7', name_en: 'Cached 7', name_zh: '快取', created_at: NOW, updated_at: NOW });
    expect((await admin.get(url).expect(200)).body.total).toBe(7);
    // … and so does a write through the machinery
    await admin
      .post('/api/companies', { code: 'CACHED8', name_en: 'Cached 8', name_zh: '快取二' })
      .expect(201);
    expect((await admin.get(url).expect(200)).body.total).toBe(8);
    // a page that ends the list knows the list's size without counting
    const last = await listQueries('/api/companies?per_page=5&page=2&q=Cached', 'companies');
    expect(last.filter((q) => /count\(/i.test(q.sql))).toHaveLength(0);
    expect((await admin.get('/api/companies?per_page=5&page=2&q=Cached').expect(200)).body).toMatchObject({
      total: 8,
    });
  });
});

describe('exports by key', () => {
  // a nullable sort column with repeated values: every row must come once, in the list's order
  const def: ResourceDefinition = {
    name: 'scale_area',
    path: '/__test/scale-areas',
    table: 'areas',
    module: 'settings',
    schemas: {
      create: z.strictObject({}),
      update: z.strictObject({}),
      filters: z.object({ tag: z.string().optional() }),
    },
    searchable: ['name_en'],
    sortable: ['name_ko', 'sort_order', 'id'],
    defaultSort: 'name_ko',
    exportColumns: [{ key: 'id', en: 'Id', zh: '編號' }],
    applyFilters(qb, filters) {
      if (filters.tag) qb.where('name_en', 'like', `${filters.tag}%`);
    },
  };
  const ctx = { branchScope: null, access: null, language: 'en' } as unknown as RequestContext;

  beforeAll(async () => {
    registerResource(t.api, t.db, def);
    // 61 rows: a third without name_ko, the others sharing five values
    await insertMany(
      'areas',
      Array.from({ length: 61 }, (_, i) => ({
        name_en: `Keyed ${i}`,
        name_zh: `鍵${i}`,
        name_ko: i % 3 === 0 ? null : `k${(i * 7) % 5}`,
        sort_order: i % 4,
        created_at: NOW,
        updated_at: NOW,
      })),
    );
  });

  /** The list's own order, page by page. */
  async function listOrder(sort: string): Promise<number[]> {
    const ids: number[] = [];
    for (let page = 1; ; page++) {
      const res = await admin
        .get(`/api/__test/scale-areas?tag=Keyed&sort=${sort}&per_page=25&page=${page}`)
        .expect(200);
      ids.push(...res.body.items.map((r: Row) => r.id));
      if (res.body.items.length < 25) return ids;
    }
  }

  it.each(['name_ko', '-name_ko', 'sort_order', '-sort_order', '-id'])(
    'sort %s: every row once, in the list’s order, across batch boundaries',
    async (sort) => {
      const service = createResourceService(t.db, def);
      const batches: number[][] = [];
      for await (const rows of service.exportRows({ tag: 'Keyed', sort }, ctx, 7)) {
        batches.push(rows.map((r) => Number(r.id)));
      }
      const ids = batches.flat();
      expect(ids).toHaveLength(61);
      expect(new Set(ids).size).toBe(61);
      expect(batches.slice(0, -1).every((b) => b.length === 7)).toBe(true);
      expect(ids).toEqual(await listOrder(sort));
    },
  );

  it('streams a CSV export in batches by key, never OFFSET', async () => {
    listLimits.exportBatch = 5;
    const queries = await queriesOf(() =>
      admin
        .get('/api/__test/scale-areas?tag=Keyed&sort=-name_ko&format=csv')
        .expect(200)
        .then((res) => {
          const rows = parseCsv(res.text);
          expect(rows[0]).toEqual(['Id']);
          expect(new Set(rows.slice(1).map((r) => r[0])).size).toBe(61);
        }),
    );
    const reads = queries.filter((q) => q.sql.startsWith('select') && q.sql.includes('from `areas`'));
    expect(reads.length).toBeGreaterThanOrEqual(13);
    expect(reads.some((q) => /offset/i.test(q.sql))).toBe(false);
  });
});

describe('statement timeout and cancellation (MariaDB)', () => {
  const mysqlIt = onMysql ? it : it.skip;
  // every row read costs `SLEEP(0.2)`: a query as slow as a huge table's
  const slow: ResourceDefinition = {
    name: 'slow_area',
    path: '/__test/slow-areas',
    table: 'areas',
    module: 'settings',
    schemas: { create: z.strictObject({}), update: z.strictObject({}) },
    searchable: [],
    sortable: ['id'],
    defaultSort: 'id',
    exportColumns: [{ key: 'id', en: 'Id', zh: '編號' }],
    applyFilters(qb) {
      qb.whereRaw('SLEEP(0.2) = 0');
    },
  };
  beforeAll(() => {
    registerResource(t.api, t.db, slow);
  });

  async function running(): Promise<string[]> {
    const rows = await t
      .db('information_schema.processlist')
      .where('db', t.db.raw('DATABASE()'))
      .where('info', 'like', '%SLEEP(0.2)%')
      .whereNot('info', 'like', '%processlist%')
      .pluck('info');
    return rows as string[];
  }

  async function until(check: () => Promise<boolean>, what: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`never: ${what}`);
  }

  mysqlIt('stops a query past the timeout with 503 query_timeout, and kills it', async () => {
    setStatementTimeout(t.db, 300);
    await expect(guardedQuery(t.db, t.db.select(t.db.raw('SLEEP(5) as s')))).rejects.toMatchObject({
      code: 'query_timeout',
    });
    const res = await admin.get('/api/__test/slow-areas').expect(503);
    expect(res.body).toMatchObject({ code: 'query_timeout', message_key: 'queryTimeout' });
    await until(async () => (await running()).length === 0, 'the timed-out query is gone');
  });

  mysqlIt.each(['', '?format=csv'])('kills the query when the client goes away (%s)', async (query) => {
    setStatementTimeout(t.db, 120_000);
    const server = http.createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const cookie = `sa_session=${admin.cookie()}`;
      const req = http.get({
        host: '127.0.0.1',
        port,
        path: `/api/__test/slow-areas${query}`,
        headers: { Host: 'office.localhost', Cookie: cookie },
      });
      req.on('error', () => undefined);
      // hundreds of rows × 0.2 s: minutes, unless killed
      await until(async () => (await running()).length > 0, 'the slow query runs');
      req.destroy();
      await until(async () => (await running()).length === 0, 'the abandoned query is killed');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('answers 499 request_cancelled, not a timeout, for an aborted request', async () => {
    const controller = new AbortController();
    controller.abort();
    const err = await guardedQuery(t.db, t.db('areas').select('id'), controller.signal).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'request_cancelled', status: 499 });
  });
});
