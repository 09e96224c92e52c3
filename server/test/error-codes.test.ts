import { ERROR_CODES, type ErrorBody } from '../../shared/errors';
import { CATALOG, isMessageKey, messageEnglish, type MessageRef } from '../../shared/messages';
import { csvRecord, UTF8_BOM } from '../src/modules/exports/csv';
import { Client, createUser, createTestApp, signedInAdmin, type TestApp } from './harness';

/**
 * Every error body carries a stable code and the key of its message (issue 11, deliverable 8): the client shows
 * its own text for the key, never the English. A sample of failing requests, one of each kind, each checked for
 * the same shape.
 */
let t: TestApp;
let admin: Client;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
});
afterAll(() => t.close());

/** Every key of a reference, nested ones (`importRow`'s `message`) included. */
function keysOf(ref: MessageRef): string[] {
  const nested = Object.values(ref.params ?? {}).flatMap((v) => (typeof v === 'object' ? keysOf(v) : []));
  return [ref.key, ...nested];
}

/** The body's shape: a code, a catalogued key whose English is `message`, and a key for every field error. */
function problemsOf(body: ErrorBody): string[] {
  const problems: string[] = [];
  if (!body.code || !(body.code in ERROR_CODES)) problems.push(`code ${body.code}`);
  if (!isMessageKey(body.message_key)) problems.push(`message_key ${body.message_key}`);
  else {
    const ref = { key: body.message_key, params: body.message_params };
    for (const key of keysOf(ref)) if (!(key in CATALOG)) problems.push(`nested key ${key}`);
    if (messageEnglish(ref) !== body.message)
      problems.push(`message "${body.message}" is not its key's text`);
  }
  const fields = Object.keys(body.errors ?? {});
  if (fields.join() !== Object.keys(body.error_keys ?? {}).join())
    problems.push('errors and error_keys differ');
  for (const field of fields) {
    const refs = body.error_keys?.[field] ?? [];
    const texts = body.errors![field];
    if (refs.length !== texts.length)
      problems.push(`${field}: ${refs.length} keys for ${texts.length} errors`);
    refs.forEach((ref, i) => {
      for (const key of keysOf(ref)) if (!(key in CATALOG)) problems.push(`${field}: key ${key}`);
      if (messageEnglish(ref) !== texts[i]) problems.push(`${field}: "${texts[i]}" is not its key's text`);
    });
  }
  return problems;
}

const csv = (rows: unknown[][]) => Buffer.from(UTF8_BOM + rows.map(csvRecord).join(''), 'utf8');

describe('error bodies carry codes and catalogued keys', () => {
  const seen: { name: string; status: number; body: ErrorBody }[] = [];
  const expectRefused = async (
    name: string,
    request: PromiseLike<{ status: number; body: ErrorBody }>,
    status: number,
    messageKey: string,
  ) => {
    const res = await request;
    seen.push({ name, status: res.status, body: res.body });
    expect({ name, status: res.status, key: res.body.message_key, problems: problemsOf(res.body) }).toEqual({
      name,
      status,
      key: messageKey,
      problems: [],
    });
    return res.body;
  };

  afterAll(() => {
    const fieldErrors = seen.reduce((n, s) => n + Object.values(s.body.error_keys ?? {}).flat().length, 0);
    console.log(
      `error codes: ${seen.length} refused requests, ${fieldErrors} field errors, every one keyed in the catalog ` +
        `(${Object.keys(CATALOG).length} keys)`,
    );
  });

  it('validation on a resource create: one key per field error, zod checks included', async () => {
    const body = await expectRefused(
      'validation',
      admin.post('/api/companies', { code: 'x'.repeat(300), name_zh: '公司' }),
      422,
      'tooLong',
    );
    expect(body.code).toBe('validation');
    expect(body.error_keys?.code?.[0]).toEqual({ key: 'tooLong', params: { max: expect.any(String) } });
    expect(body.error_keys?.name_en?.[0]).toEqual({ key: 'required' });
  });

  it('an unknown field and a hostile text', async () => {
    const body = await expectRefused(
      'unknown field',
      admin.post('/api/companies', { code: 'OK1', name_en: 'a\u0000b', name_zh: 'x', surprise: 1 }),
      422,
      'textControl',
    );
    expect(body.error_keys?.name_en).toEqual([{ key: 'textControl' }]);
  });

  it('a duplicate', async () => {
    await admin.post('/api/companies', { code: 'DUPE', name_en: 'Dupe', name_zh: '重複' }).expect(201);
    const body = await expectRefused(
      'duplicate',
      admin.post('/api/companies', { code: 'DUPE', name_en: 'x', name_zh: 'x' }),
      422,
      'duplicate',
    );
    expect(body).toMatchObject({ code: 'duplicate', error_keys: { code: [{ key: 'duplicate' }] } });
  });

  it('a delete refused for references: a catalogued template with the entity and the counts', async () => {
    const area = await admin.post('/api/areas', { name_en: 'Korea', name_zh: '韓國' }).expect(201);
    await admin
      .post('/api/areas', { name_en: 'Seoul', name_zh: '首爾', parent_id: area.body.id })
      .expect(201);
    const body = await expectRefused(
      'referenced',
      admin.delete(`/api/areas/${area.body.id}`),
      409,
      'stillUsedBy',
    );
    expect(body).toMatchObject({
      code: 'referenced',
      message: 'This area is still used by 1 districts.',
      message_params: { entity: 'area', references: '1 districts' },
      references: { districts: 1 },
    });
  });

  it('not found and forbidden', async () => {
    await expectRefused('not found', admin.get('/api/companies/987654'), 404, 'notFound');
    const clerk = await createUser(t.db, { permissions: [] });
    const client = new Client(t.app);
    await client.login(clerk.email, clerk.password);
    const body = await expectRefused('forbidden', client.get('/api/companies'), 403, 'forbidden');
    expect(body.code).toBe('forbidden');
  });

  it('a business rule', async () => {
    const area = await admin.post('/api/areas', { name_en: 'Japan', name_zh: '日本' }).expect(201);
    const body = await expectRefused(
      'rule',
      admin.put(`/api/areas/${area.body.id}`, { parent_id: area.body.id }),
      422,
      'areaOwnDistrict',
    );
    expect(body.error_keys).toEqual({ parent_id: [{ key: 'areaOwnDistrict' }] });
  });

  it('an import row error: the row and the nested message of the field, by key', async () => {
    const file = csv([
      ['date', 'name_en', 'name_zh'],
      ['2041-01-01', 'New Year', '元旦'],
      ['not a date', 'x'.repeat(300), '假期'],
    ]);
    const body = await expectRefused(
      'import',
      admin
        .post('/api/holidays/import')
        .attach('file', file, { filename: 'h.csv', contentType: 'text/csv' }) as never,
      422,
      'importRowsBad',
    );
    expect(body.message_params).toEqual({ count: 1 });
    // "Row {{row}}(, {{column}}): {{message}}", the field's own message nested in `message`
    const date = body.error_keys?.['rows.3.date']?.[0];
    expect(['importRow', 'importCell']).toContain(date?.key);
    expect(date?.params).toMatchObject({ row: 3, message: { key: 'invalidDate' } });
    expect(body.errors?.['rows.3.date']?.[0]).toMatch(/^Row 3\b.*Must be a date \(YYYY-MM-DD\)\.$/);
    expect(body.error_keys?.['rows.3.name_en']?.[0]?.params?.message).toMatchObject({ key: 'tooLong' });
  });

  it('a password rule', async () => {
    const body = await expectRefused(
      'password',
      admin.put('/api/user/password', {
        current_password: 'Wrong1234',
        password: 'short',
        password_confirmation: 'short',
      }),
      422,
      'passwordMin',
    );
    expect(body.error_keys?.password?.map((r) => r.key)).toContain('passwordMin');
  });

  it('a session that is not there, and an unreadable body', async () => {
    await expectRefused('unauthenticated', new Client(t.app).get('/api/companies'), 401, 'unauthenticated');
    await admin.refreshToken();
    await expectRefused(
      'bad json',
      admin.agent
        .post('/api/companies')
        .set('Host', 'office.localhost')
        .set('X-CSRF-Token', admin.token)
        .set('Content-Type', 'application/json')
        .send('{"code":') as never,
      422,
      'invalidJson',
    );
  });
});
