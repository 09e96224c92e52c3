import { FILE_MESSAGES } from '../../../shared/files';
import { FIELD_MESSAGES } from '../../../shared/messages';
import { Client, createUser, type TestApp } from '../harness';
import { PNG, createFilesTestApp, fileRows } from '../files/file-fixtures';

/**
 * The admins' storage switch (`storage_suspended`, general settings): saved and audited like the other
 * general settings, validated as a boolean, and what the uploads and the usage read.
 */

let t: TestApp;
let cleanup: () => Promise<void>;
let admin: Client;
let adminId: number;
beforeAll(async () => {
  ({ t, cleanup } = await createFilesTestApp());
  const user = await createUser(t.db, { is_admin: true });
  adminId = user.id;
  admin = new Client(t.app);
  expect((await admin.login(user.email, user.password)).status).toBe(200);
  // storage suspension is a protected setting: the admin confirms its password first
  await admin.post('/api/user/confirm-password', { password: user.password }).expect(200);
});
afterAll(() => cleanup());

const uploadPhoto = (c: Client) =>
  c.post('/api/user/profile-photo').attach('file', PNG, { filename: 'me.png', contentType: 'image/png' });

async function lastSettingsAudit() {
  const row = await t
    .db('audit_logs')
    .where({ entity: 'settings', action: 'update' })
    .orderBy('id', 'desc')
    .first();
  return { actor: `${row.actor_type}:${row.actor_id}`, changes: JSON.parse(row.changes) };
}

describe('storage_suspended (/api/settings)', () => {
  it('is off by default; an admin turns it on (audited), uploads are refused and the usage says so; off again', async () => {
    expect((await admin.get('/api/settings').expect(200)).body.storage_suspended).toBe(false);
    expect((await admin.get('/api/files/usage').expect(200)).body).toMatchObject({
      suspended: false,
      status: 'ok',
    });

    const on = await admin.put('/api/settings', { storage_suspended: true }).expect(200);
    expect(on.body.storage_suspended).toBe(true);
    expect((await t.db('settings').where({ key: 'storage_suspended' }).first()).value).toBe('true');
    const audit = await lastSettingsAudit();
    expect(audit.changes).toEqual({
      before: { storage_suspended: false },
      after: { storage_suspended: true },
    });
    expect(audit.actor).toBe(`user:${adminId}`);
    expect((await admin.get('/api/settings')).body.storage_suspended).toBe(true);
    expect((await admin.get('/api/files/usage').expect(200)).body).toMatchObject({
      suspended: true,
      status: 'suspended',
    });
    const refused = await uploadPhoto(admin);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.file).toEqual([FILE_MESSAGES.suspended]);
    expect(await fileRows(t)).toBe(0);

    // the same value again changes nothing and adds no change to the audit trail
    await admin.put('/api/settings', { storage_suspended: true }).expect(200);
    expect((await lastSettingsAudit()).changes).toEqual({ before: {}, after: {} });

    await admin.put('/api/settings', { storage_suspended: false }).expect(200);
    expect((await lastSettingsAudit()).changes).toEqual({
      before: { storage_suspended: true },
      after: { storage_suspended: false },
    });
    expect((await admin.get('/api/files/usage')).body.status).toBe('ok');
    expect((await uploadPhoto(admin)).status).toBe(201);
    await admin.delete('/api/user/profile-photo').expect(204);
  });

  it('takes a boolean only, on its field, and saves nothing of a refused form', async () => {
    for (const value of ['true', 1, null, 'yes']) {
      const res = await admin.put('/api/settings', { storage_suspended: value, max_upload_mb: 7 });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['storage_suspended']);
      for (const message of res.body.errors.storage_suspended)
        expect(Object.values(FIELD_MESSAGES)).toContain(message);
    }
    const stored = (await admin.get('/api/settings')).body;
    expect(stored).toMatchObject({ storage_suspended: false, max_upload_mb: 5 });
  });

  it('needs settings.update to change', async () => {
    const reader = await createUser(t.db, { permissions: ['settings.view'] });
    const c = new Client(t.app);
    await c.login(reader.email, reader.password);
    expect((await c.get('/api/settings').expect(200)).body.storage_suspended).toBe(false);
    expect((await c.put('/api/settings', { storage_suspended: true })).status).toBe(403);
    expect((await admin.get('/api/settings')).body.storage_suspended).toBe(false);
  });
});
