import { seedReference } from '../../../seeds';
import { formatNumber, formatProblem, sequenceScope } from '../../../shared/schemas/numbering';
import { clock, toDbDateTime } from '../../src/lib/clock';
import { businessDate } from '../../src/modules/numbering/business-time';
import { numberingService } from '../../src/modules/numbering/numbering.service';
import { registerResource } from '../../src/resources/resource.routes';
import { z } from 'zod';
import {
  Client,
  createBranch,
  createTestApp,
  createUser,
  onMysql,
  signedInAdmin,
  type TestApp,
} from '../harness';

let t: TestApp;
let admin: Client;
let mk: number;
let cwb: number;
beforeAll(async () => {
  t = await createTestApp();
  await seedReference(t.db);
  admin = await signedInAdmin(t);
  mk = await createBranch(t.db, 'MK');
  cwb = await createBranch(t.db, 'CWB');
});
afterAll(() => t.close());
afterEach(() => clock.reset());

const year = () => businessDate().getUTCFullYear();

/** What a document's create will do: take the number and insert the record in one transaction. */
async function createStudent(branchId: number): Promise<string> {
  return t.db.transaction(async (trx) => {
    const no = await numberingService.next(trx, 'student', branchId);
    const now = toDbDateTime();
    await trx('students').insert({ student_no: no, branch_id: branchId, created_at: now, updated_at: now });
    return no;
  });
}

describe('number formats (shared)', () => {
  it('formats the tokens and refuses unknown tokens, a missing or repeated {seq:N} and unclosed braces', () => {
    const date = new Date(Date.UTC(2027, 2, 5));
    expect(formatNumber('INV-{branch}-{yyyy}{mm}-{seq:5}', { branch: 'MK', date, seq: 42 })).toBe(
      'INV-MK-202703-00042',
    );
    expect(formatNumber('{yy}/{seq:1}', { branch: '', date, seq: 1234 })).toBe('27/1234');
    expect(formatProblem('INV-{branch}-{yyyy}-{seq:5}')).toBeNull();
    expect(formatProblem('INV-{yyyy}')).toMatch(/\{seq:N\}/);
    expect(formatProblem('{seq:2}-{seq:3}')).toMatch(/exactly once/);
    expect(formatProblem('INV-{dd}-{seq:4}')).toMatch(/Unknown token \{dd\}/);
    expect(formatProblem('INV-{seq:4')).toMatch(/brace/);
    expect(formatProblem('{seq:0}')).toMatch(/between 1 and 10/);
    expect(formatProblem('A-VERY-LONG-PREFIX-{branch}-{yyyy}-{mm}-{seq:10}')).toMatch(/longer than 40/);
    expect(sequenceScope('{seq:3}')).toEqual({ perBranch: false, perYear: false });
    expect(sequenceScope('{branch}{yy}{seq:3}')).toEqual({ perBranch: true, perYear: true });
  });
});

describe('settings (/api/settings)', () => {
  it('reads the defaults: number formats, storage quota (not suspended), upload limit 5 MB, default currency', async () => {
    const res = await admin.get('/api/settings').expect(200);
    expect(res.body).toEqual({
      quotation_no_format: 'QUO-{branch}-{yyyy}-{seq:5}',
      order_no_format: 'INV-{branch}-{yyyy}-{seq:5}',
      receipt_no_format: 'REC-{branch}-{yyyy}-{seq:5}',
      refund_no_format: 'REF-{branch}-{yyyy}-{seq:5}',
      student_no_format: 'STU-{branch}-{yyyy}-{seq:5}',
      storage_quota_mb: 10240,
      storage_suspended: false,
      max_upload_mb: 5,
      default_currency: 'HKD',
    });
  });

  it('validates formats, numbers and the currency field by field, and saves nothing when one is wrong', async () => {
    const bad = await admin.put('/api/settings', {
      order_no_format: 'INV-{yyyy}',
      receipt_no_format: 'REC-{day}-{seq:4}',
      max_upload_mb: 0,
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual([
      'max_upload_mb',
      'order_no_format',
      'receipt_no_format',
    ]);
    const strict = await admin.put('/api/settings', { smtp_password: 'x' });
    expect(strict.status).toBe(422);
    expect(strict.body.errors.smtp_password).toBeDefined();
    const currency = await admin.put('/api/settings', {
      order_no_format: 'I-{seq:4}',
      default_currency: 'EUR',
    });
    expect(currency.status).toBe(422);
    expect(currency.body.errors.default_currency).toBeDefined();
    expect((await admin.get('/api/settings')).body.order_no_format).toBe('INV-{branch}-{yyyy}-{seq:5}');
  });

  it('saves the given settings, with one audit row of what changed', async () => {
    const res = await admin
      .put('/api/settings', {
        quotation_no_format: 'Q{yy}-{seq:4}',
        default_currency: 'KRW',
        max_upload_mb: 8,
      })
      .expect(200);
    expect(res.body).toMatchObject({
      quotation_no_format: 'Q{yy}-{seq:4}',
      default_currency: 'KRW',
      max_upload_mb: 8,
    });
    const audit = await t
      .db('audit_logs')
      .where({ entity: 'settings', action: 'update' })
      .orderBy('id', 'desc')
      .first();
    expect(JSON.parse(audit.changes)).toEqual({
      before: {
        quotation_no_format: 'QUO-{branch}-{yyyy}-{seq:5}',
        default_currency: 'HKD',
        max_upload_mb: 5,
      },
      after: { quotation_no_format: 'Q{yy}-{seq:4}', default_currency: 'KRW', max_upload_mb: 8 },
    });
    await admin
      .put('/api/settings', {
        quotation_no_format: 'QUO-{branch}-{yyyy}-{seq:5}',
        default_currency: 'HKD',
        max_upload_mb: 5,
      })
      .expect(200);
  });

  it('needs settings.view to read and settings.update to write', async () => {
    const reader = await createUser(t.db, { permissions: ['settings.view'] });
    const c = new Client(t.app);
    await c.login(reader.email, reader.password);
    await c.get('/api/settings').expect(200);
    await c.get(`/api/settings/numbering/preview?document=order&branch_id=${mk}`).expect(200);
    expect((await c.put('/api/settings', { max_upload_mb: 6 })).status).toBe(403);
  });
});

describe('document numbering (quality §22)', () => {
  it('50 parallel creates get 50 distinct, consecutive numbers', async () => {
    const numbers = await Promise.all(Array.from({ length: 50 }, () => createStudent(mk)));
    const sorted = [...numbers].sort();
    console.log(`numbering on ${onMysql ? 'MariaDB/MySQL' : 'SQLite'}: ${sorted.join(' ')}`);
    expect(new Set(numbers).size).toBe(50);
    expect(sorted).toEqual(
      Array.from({ length: 50 }, (_, i) => `STU-MK-${year()}-${String(i + 1).padStart(5, '0')}`),
    );
  }, 60_000);

  it('50 parallel POSTs of a numbered resource get 50 distinct, consecutive numbers through HTTP', async () => {
    // what the students resource declares when it arrives: the generic create takes the number
    registerResource(t.api, t.db, {
      name: 'numbered_student',
      path: '/__test/numbered-students',
      table: 'students',
      module: 'students',
      branchColumn: 'branch_id',
      numbering: { column: 'student_no', document: 'student', branchColumn: 'branch_id' },
      schemas: {
        create: z.strictObject({ branch_id: z.number().int(), surname_en: z.string() }),
        update: z.strictObject({}),
      },
      searchable: ['student_no'],
      sortable: ['student_no'],
      defaultSort: 'student_no',
    });
    const branch = await createBranch(t.db, 'HTTP');
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        admin.post('/api/__test/numbered-students', { branch_id: branch, surname_en: `S${i}` }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(201));
    const numbers = responses.map((r) => r.body.student_no as string).sort();
    console.log(`numbering over HTTP on ${onMysql ? 'MariaDB/MySQL' : 'SQLite'}: ${numbers.join(' ')}`);
    expect(numbers).toEqual(
      Array.from({ length: 50 }, (_, i) => `STU-HTTP-${year()}-${String(i + 1).padStart(5, '0')}`),
    );
    const audited = await t.db('audit_logs').where({ entity: 'numbered_student', action: 'create' });
    expect(audited).toHaveLength(50);
  }, 60_000);

  it('numbers per branch, previews without taking, and gives a rolled-back number back', async () => {
    const preview = await admin
      .get(`/api/settings/numbering/preview?document=student&branch_id=${cwb}`)
      .expect(200);
    expect(preview.body).toEqual({
      document: 'student',
      format: 'STU-{branch}-{yyyy}-{seq:5}',
      number: `STU-CWB-${year()}-00001`,
      next_value: 1,
    });
    expect(
      (await admin.get(`/api/settings/numbering/preview?document=student&branch_id=${cwb}`)).body.number,
    ).toBe(`STU-CWB-${year()}-00001`);
    expect(await createStudent(cwb)).toBe(`STU-CWB-${year()}-00001`);
    await expect(
      t.db.transaction(async (trx) => {
        await numberingService.next(trx, 'student', cwb);
        throw new Error('the document failed');
      }),
    ).rejects.toThrow('the document failed');
    expect(await createStudent(cwb)).toBe(`STU-CWB-${year()}-00002`);
    const next = await admin
      .get(`/api/settings/numbering/preview?document=student&branch_id=${mk}`)
      .expect(200);
    expect(next.body.number).toBe(`STU-MK-${year()}-00051`);
  });

  it('restarts each year through the year in the sequence key', async () => {
    const now = businessDate();
    const nextYear = Date.UTC(now.getUTCFullYear() + 1, 0, 1, 1) - (now.getTime() - clock.now());
    clock.advance(nextYear - clock.now());
    expect(businessDate().getUTCFullYear()).toBe(now.getUTCFullYear() + 1);
    expect(await createStudent(mk)).toBe(`STU-MK-${now.getUTCFullYear() + 1}-00001`);
    clock.reset();
    expect(await createStudent(mk)).toBe(`STU-MK-${now.getUTCFullYear()}-00051`);
  });

  it('shares one sequence across branches when the number shows no branch, and previews an unsaved format', async () => {
    await admin.put('/api/settings', { order_no_format: 'INV{yy}{mm}-{seq:4}' }).expect(200);
    const take = (branch: number) => t.db.transaction((trx) => numberingService.next(trx, 'order', branch));
    const a = await take(mk);
    const b = await take(cwb);
    expect([a.slice(-4), b.slice(-4)]).toEqual(['0001', '0002']);
    const live = await admin
      .get(
        `/api/settings/numbering/preview?document=order&format=${encodeURIComponent('X-{branch}-{seq:3}')}`,
      )
      .query({ branch_id: cwb })
      .expect(200);
    expect(live.body.number).toBe('X-CWB-001');
    const noBranch = await admin.get(
      `/api/settings/numbering/preview?document=order&format=${encodeURIComponent('X-{branch}-{seq:3}')}`,
    );
    expect(noBranch.status).toBe(422);
    expect(noBranch.body.errors.branch_id).toBeDefined();
    const badFormat = await admin.get(`/api/settings/numbering/preview?document=order&format=X`);
    expect(badFormat.status).toBe(422);
    const badDoc = await admin.get(`/api/settings/numbering/preview?document=invoice`);
    expect(badDoc.status).toBe(422);
  });
});
