import { OPTION_KEYS } from '../../../shared/schemas/options';
import { MESSAGES } from '../../../shared/errors';
import { seedReference } from '../../../seeds';
import { OPTION_USAGE } from '../../src/modules/options/option-usage';
import { activeOptions } from '../../src/modules/options/options.service';
import { parseCsv } from '../../src/modules/exports/csv';
import { toDbDateTime } from '../../src/lib/clock';
import { Client, createBranch, createTestApp, createUser, signedInAdmin, type TestApp } from '../harness';

let t: TestApp;
let admin: Client;
beforeAll(async () => {
  t = await createTestApp();
  await seedReference(t.db);
  admin = await signedInAdmin(t);
});
afterAll(() => t.close());

async function addStudent(fields: Record<string, unknown>) {
  const now = toDbDateTime();
  const branch = await createBranch(t.db);
  await t.db('students').insert({
    student_no: `S-${Math.random().toString(36).slice(2, 10)}`,
    branch_id: branch,
    created_at: now,
    updated_at: now,
    ...fields,
  });
}

describe('option lists', () => {
  it('seeds every key of domain.md in both languages, with the spec’s examples', async () => {
    const summary = await admin.get('/api/options').expect(200);
    expect(summary.body.items.map((i: { key: string }) => i.key)).toEqual([...OPTION_KEYS]);
    for (const item of summary.body.items) expect(item.total).toBeGreaterThan(0);
    for (const key of OPTION_KEYS) {
      const list = await admin.get(`/api/options/${key}?per_page=100`).expect(200);
      for (const o of list.body.items) {
        expect(o.label_en).toBeTruthy();
        expect(o.label_zh).toMatch(/[\u4e00-\u9fff]|TOPIK/);
      }
    }
    const values = async (key: string) =>
      (await admin.get(`/api/options/${key}?per_page=100`)).body.items.map((o: { value: string }) => o.value);
    expect(await values('topik_level')).toEqual(['0', '1', '2', '3', '4', '5', '6']);
    expect(await values('visa_type')).toEqual(expect.arrayContaining(['D-2', 'D-4']));
    expect(await values('payment_method')).toEqual([
      'cash',
      'cheque',
      'bank_transfer',
      'fps',
      'credit_card',
      'prepaid',
    ]);
    expect(await values('currency')).toEqual(expect.arrayContaining(['HKD', 'KRW']));
    // seeding again adds nothing
    const before = Number((await t.db('options').count({ n: '*' }).first())?.n);
    await seedReference(t.db);
    expect(Number((await t.db('options').count({ n: '*' }).first())?.n)).toBe(before);
  });

  it('answers 404 for a key that is not a list', async () => {
    expect((await admin.get('/api/options/colour')).status).toBe(404);
    expect(
      (await admin.post('/api/options/colour', { value: 'red', label_en: 'Red', label_zh: '紅' })).status,
    ).toBe(404);
  });

  it('creates, edits and lists one key’s values, apart from the other keys, at the end of the list', async () => {
    const created = await admin
      .post('/api/options/nationality', { value: 'JP', label_en: 'Japan', label_zh: '日本' })
      .expect(201);
    expect(created.body).toMatchObject({ key: 'nationality', value: 'JP', is_active: true, in_use: 0 });
    const list = await admin.get('/api/options/nationality?per_page=100').expect(200);
    expect(list.body.items.at(-1).value).toBe('JP');
    // the same id through another key does not exist
    expect((await admin.get(`/api/options/gender/${created.body.id}`)).status).toBe(404);
    expect((await admin.put(`/api/options/gender/${created.body.id}`, { label_en: 'x' })).status).toBe(404);
    const edited = await admin.put(`/api/options/nationality/${created.body.id}`, { label_zh: '日本國' });
    expect(edited.status).toBe(200);
    expect(edited.body.label_zh).toBe('日本國');
    const search = await admin.get('/api/options/nationality?q=日本').expect(200);
    expect(search.body.items.map((o: { value: string }) => o.value)).toEqual(['JP']);
  });

  it('refuses a duplicate value within a key on the value field, and allows it under another key', async () => {
    const dup = await admin.post('/api/options/gender', { value: 'M', label_en: 'Man', label_zh: '男' });
    expect(dup.status).toBe(422);
    expect(dup.body).toMatchObject({ message: MESSAGES.duplicate, errors: { value: [MESSAGES.duplicate] } });
    await admin.post('/api/options/unit', { value: 'M', label_en: 'Metre', label_zh: '米' }).expect(201);
  });

  it('keeps bodies strict and values code-like; a currency is an ISO code', async () => {
    const extra = await admin.post('/api/options/gender', {
      value: 'N',
      label_en: 'n',
      label_zh: 'n',
      key: 'currency',
    });
    expect(extra.status).toBe(422);
    expect(extra.body.errors.key).toBeDefined();
    const bad = await admin.post('/api/options/gender', { value: 'has space', label_en: 'x', label_zh: 'x' });
    expect(bad.body.errors.value).toBeDefined();
    const money = await admin.post('/api/options/currency', {
      value: 'dollars',
      label_en: 'x',
      label_zh: 'x',
    });
    expect(money.status).toBe(422);
    expect(money.body.errors.value).toBeDefined();
  });

  it('reorders a list and refuses an order that is not the whole list', async () => {
    const items = (await admin.get('/api/options/gender?per_page=100').expect(200)).body.items;
    const ids = items.map((o: { id: number }) => o.id).reverse();
    await admin.put('/api/options/gender/order', { ids }).expect(204);
    const after = (await admin.get('/api/options/gender?per_page=100').expect(200)).body.items;
    expect(after.map((o: { id: number }) => o.id)).toEqual(ids);
    expect((await admin.put('/api/options/gender/order', { ids: ids.slice(1) })).status).toBe(422);
    expect((await admin.put('/api/options/gender/order', { ids: [...ids, ids[0]] })).status).toBe(422);
    const other = (await admin.get('/api/options/unit')).body.items[0].id;
    expect((await admin.put('/api/options/gender/order', { ids: [...ids.slice(1), other] })).status).toBe(
      422,
    );
    const audit = await t.db('audit_logs').where({ entity: 'option', action: 'reorder' }).first();
    expect(JSON.parse(audit.changes)).toEqual({ key: 'gender', ids });
  });

  it('refuses to delete a value in use (409, counts, deactivate instead) or to change its code, and deactivates it', async () => {
    const option = (
      await admin
        .post('/api/options/visa_type', { value: 'E-7', label_en: 'E-7', label_zh: 'E-7 簽證' })
        .expect(201)
    ).body;
    await addStudent({ visa_type: 'E-7' });
    await addStudent({ visa_type: 'E-7' });
    const listed = (await admin.get('/api/options/visa_type?q=E-7')).body.items[0];
    expect(listed.in_use).toBe(2);
    const refused = await admin.delete(`/api/options/visa_type/${option.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.references).toEqual({ students: 2 });
    expect(refused.body.message).toMatch(/still used by 2 students\. Deactivate it instead/);
    const recode = await admin.put(`/api/options/visa_type/${option.id}`, { value: 'E-7-1' });
    expect(recode.status).toBe(422);
    expect(recode.body.errors.value).toBeDefined();
    const off = await admin.put(`/api/options/visa_type/${option.id}`, { is_active: false }).expect(200);
    expect(off.body.is_active).toBe(false);
    const active = (await admin.get('/api/options/visa_type?is_active=true&per_page=100')).body.items;
    expect(active.map((o: { value: string }) => o.value)).not.toContain('E-7');
    // a value nobody uses is deleted, with an audit row
    const spare = (
      await admin
        .post('/api/options/visa_type', { value: 'F-4', label_en: 'F-4', label_zh: 'F-4' })
        .expect(201)
    ).body;
    await admin.delete(`/api/options/visa_type/${spare.id}`).expect(204);
    const audit = await t.db('audit_logs').where({ entity: 'option', entity_id: spare.id }).orderBy('id');
    expect(audit.map((a) => a.action)).toEqual(['create', 'delete']);
  });

  it('declares where every list is used, and every declared table that exists has its column', async () => {
    let checked = 0;
    for (const key of OPTION_KEYS) {
      expect(OPTION_USAGE[key].length).toBeGreaterThan(0);
      for (const { table, column } of OPTION_USAGE[key]) {
        if (!(await t.db.schema.hasTable(table))) continue;
        expect({ table, column, exists: await t.db.schema.hasColumn(table, column) }).toEqual({
          table,
          column,
          exists: true,
        });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('needs settings permissions: read-only staff read, and cannot write', async () => {
    const reader = await createUser(t.db, { permissions: ['settings.view'] });
    const c = new Client(t.app);
    await c.login(reader.email, reader.password);
    await c.get('/api/options/gender').expect(200);
    expect((await c.post('/api/options/gender', { value: 'Z', label_en: 'z', label_zh: 'z' })).status).toBe(
      403,
    );
    expect((await c.put('/api/options/gender/order', { ids: [1] })).status).toBe(403);
    const nobody = await createUser(t.db, { permissions: [] });
    const n = new Client(t.app);
    await n.login(nobody.email, nobody.password);
    expect((await n.get('/api/options')).status).toBe(403);
  });

  it('gives forms the active entries of some lists, in order', async () => {
    const choices = await activeOptions(t.db, ['payment_method', 'currency']);
    expect(choices.payment_method[0]).toEqual({ value: 'cash', label_en: 'Cash', label_zh: '現金' });
    expect(choices.currency.map((c) => c.value)).toEqual(expect.arrayContaining(['HKD', 'KRW']));
    const visa = await activeOptions(t.db, ['visa_type']);
    expect(visa.visa_type.map((c) => c.value)).not.toContain('E-7'); // deactivated above
  });

  it('exports a list with its usage, headed in Chinese for a zh_HK user', async () => {
    const user = await createUser(t.db, { permissions: ['settings.view'] });
    await t.db('users').where({ id: user.id }).update({ language: 'zh_HK' });
    const c = new Client(t.app);
    await c.login(user.email, user.password);
    const res = await c.get('/api/options/topik_level?format=csv').expect(200);
    expect(res.headers['content-disposition']).toMatch(
      /filename="options-topik_level-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const [header, first, ...rest] = parseCsv(res.text);
    expect(header).toEqual(['代碼', '英文', '中文', '排序', '啟用', '使用中']);
    expect(first).toEqual(['0', 'No TOPIK', '未考取 TOPIK', '1', '是', '0']);
    expect(rest).toHaveLength(6);
  });

  it('keeps the default currency of the settings: it cannot be deactivated, recoded or deleted', async () => {
    const hkd = (await admin.get('/api/options/currency?q=HKD')).body.items[0];
    const off = await admin.put(`/api/options/currency/${hkd.id}`, { is_active: false });
    expect(off.status).toBe(422);
    expect(off.body.errors.is_active[0]).toMatch(/default currency/);
    expect((await admin.put(`/api/options/currency/${hkd.id}`, { value: 'HKX' })).status).toBe(422);
    expect((await admin.delete(`/api/options/currency/${hkd.id}`)).status).toBe(409);
    await admin.put(`/api/options/currency/${hkd.id}`, { label_en: 'HK dollar' }).expect(200);
    // once another currency is the default, HKD is an ordinary entry again
    await admin.put('/api/settings', { default_currency: 'KRW' }).expect(200);
    await admin.put(`/api/options/currency/${hkd.id}`, { is_active: false }).expect(200);
    const back = await admin.put('/api/settings', { default_currency: 'HKD' });
    expect(back.status).toBe(422);
    await admin.put(`/api/options/currency/${hkd.id}`, { is_active: true }).expect(200);
    await admin.put('/api/settings', { default_currency: 'HKD' }).expect(200);
  });
});
