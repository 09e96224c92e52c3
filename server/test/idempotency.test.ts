import { Client, createTestApp, createUser, signedInAdmin, type TestApp } from './harness';

/**
 * `Idempotency-Key` (quality.md 25): a double click, a retry after a lost answer or a repeat reaching another
 * instance makes one record; the keys live in the database, so every instance shares them.
 */
let t: TestApp;
let admin: Client;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
});
afterAll(async () => {
  await t.close();
});

const company = (code: string) => ({ code, name_en: `Company ${code}`, name_zh: '公司' });
const companies = async (code: string) =>
  Number((await t.db('companies').where({ code }).count({ n: '*' }))[0].n);

describe('Idempotency-Key', () => {
  it('20 parallel POSTs with one key make one record and give 20 identical answers', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        admin.post('/api/companies', company('IDEM1')).set('Idempotency-Key', 'key-twenty'),
      ),
    );
    const statuses = answers.map((r) => r.status);
    const bodies = new Set(answers.map((r) => JSON.stringify(r.body)));
    const replayed = answers.filter((r) => r.headers['idempotent-replayed'] === 'true').length;
    console.log(
      `idempotency: 20 parallel POSTs with one key → ${await companies('IDEM1')} record, ` +
        `${bodies.size} distinct answer(s), ${replayed} replayed, statuses ${[...new Set(statuses)].join(',')}`,
    );
    expect(new Set(statuses)).toEqual(new Set([201]));
    expect(bodies.size).toBe(1);
    expect(replayed).toBe(19);
    expect(await companies('IDEM1')).toBe(1);
  });

  it('answers a repeat with the first answer, an error included, and runs nothing again', async () => {
    const first = await admin.post('/api/companies', { code: '' }).set('Idempotency-Key', 'bad-body');
    expect(first.status).toBe(422);
    const again = await admin.post('/api/companies', { code: '' }).set('Idempotency-Key', 'bad-body');
    expect(again.status).toBe(422);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('refuses the same key with another body, with its code, and changes nothing', async () => {
    await admin.post('/api/companies', company('IDEM2')).set('Idempotency-Key', 'reused').expect(201);
    const other = await admin.post('/api/companies', company('IDEM3')).set('Idempotency-Key', 'reused');
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
    expect(await companies('IDEM3')).toBe(0);
  });

  it('keeps each caller’s keys apart, and a POST without a key runs as always', async () => {
    const user = await createUser(t.db, { permissions: ['companies.view', 'companies.create'] });
    const other = new Client(t.app);
    await other.login(user.email, user.password);
    await admin.post('/api/companies', company('IDEM4')).set('Idempotency-Key', 'shared-name').expect(201);
    await other.post('/api/companies', company('IDEM5')).set('Idempotency-Key', 'shared-name').expect(201);
    await admin.post('/api/companies', company('IDEM6')).expect(201);
    const dup = await admin.post('/api/companies', company('IDEM6'));
    expect(dup.body.code).toBe('duplicate');
  });

  it('refuses a malformed key, and forgets keys after 24 hours', async () => {
    const bad = await admin.post('/api/companies', company('IDEM7')).set('Idempotency-Key', 'has space');
    expect(bad.status).toBe(422);
    expect(await companies('IDEM7')).toBe(0);

    await admin.post('/api/companies', company('IDEM8')).set('Idempotency-Key', 'day-old').expect(201);
    const kept = await t.db('idempotency_keys').where({ idempotency_key: 'day-old' }).first();
    expect(new Date(`${kept.expires_at}Z`).getTime() - new Date(`${kept.created_at}Z`).getTime()).toBe(
      24 * 60 * 60_000,
    );
    // a day later (the row's own expiry moved back: the session would not live that long)
    await t.db('idempotency_keys').where({ id: kept.id }).update({ expires_at: '2000-01-01 00:00:00' });
    const later = await admin.post('/api/companies', company('IDEM9')).set('Idempotency-Key', 'day-old');
    expect(later.status).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
  });
});
