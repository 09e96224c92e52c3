import fs from 'node:fs';
import path from 'node:path';
import { MESSAGES } from '../../../shared/errors';
import { FILE_MESSAGES } from '../../../shared/files';
import { toDbDateTime } from '../../src/lib/clock';
import {
  Client,
  PORTAL_HOST,
  createBranch,
  createRole,
  createStudent,
  createUser,
  type TestApp,
} from '../harness';
import { GIF, HTML, JPEG, PNG, createFilesTestApp, fileRows, filesOnDisk, pngOfSize } from './file-fixtures';

/**
 * The profile photo through the whole app (quality §19–21): upload, replace, delete, download checks,
 * the feature flag, the storage quota and suspension. Real database, real files in a temporary UPLOAD_DIR.
 */

const MB = 1024 * 1024;
let t: TestApp;
let uploadDir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ t, uploadDir, cleanup } = await createFilesTestApp());
});
afterAll(() => cleanup());

async function setSetting(key: string, value: string | null) {
  const now = toDbDateTime();
  await t
    .db('settings')
    .insert({ key, value, created_at: now, updated_at: now })
    .onConflict('key')
    .merge(['value']);
}

async function staff(
  opts: { permissions?: string[]; branchId?: number | null; scope?: 'all' | 'branch'; admin?: boolean } = {},
) {
  const user = await createUser(t.db, { is_admin: opts.admin ?? false });
  const roleId = await createRole(t.db, opts.permissions ?? [], opts.scope ?? 'all');
  await t
    .db('users')
    .where({ id: user.id })
    .update({ role_id: roleId, branch_id: opts.branchId ?? null });
  const client = new Client(t.app);
  const res = await client.login(user.email, user.password);
  expect(res.status).toBe(200);
  return { ...user, client };
}

const upload = (c: Client, content: Buffer, name = 'me.png') =>
  c.post('/api/user/profile-photo').attach('file', content, { filename: name, contentType: 'image/png' });

/** stored files only (the temporary folder must be empty) */
const stored = () => filesOnDisk(uploadDir).filter((f) => !f.startsWith('.tmp'));
const temporary = () => filesOnDisk(uploadDir).filter((f) => f.startsWith('.tmp'));

describe('upload, replace, delete', () => {
  it('stores the photo under a server name, shows it in the session user, replaces and deletes it', async () => {
    const me = await staff();
    const first = await upload(me.client, PNG, '../../../etc/passwd.png');
    expect(first.status).toBe(201);
    const firstId = first.body.file.id;
    expect(first.body.profile_photo_url).toBe(`/api/files/${firstId}`);

    const row = await t.db('files').where({ id: firstId }).first();
    expect(row).toMatchObject({
      owner_type: 'user',
      owner_id: me.id,
      original_name: 'passwd.png',
      mime_type: 'image/png',
      uploaded_by_user_id: me.id,
      disk: 'local',
    });
    expect(Number(row.size_bytes)).toBe(PNG.length);
    // `../` did nothing: the file is the server's name inside UPLOAD_DIR, nothing was written elsewhere
    expect(row.path).toMatch(/^\d{4}\/\d{2}\/[0-9a-f-]{36}\.png$/);
    expect(stored()).toContain(path.normalize(row.path));
    expect(fs.existsSync(path.resolve(uploadDir, '../../../etc/passwd.png'))).toBe(false);
    expect(temporary()).toEqual([]);

    const session = await me.client.get('/api/user').expect(200);
    expect(session.body.user.profile_photo_url).toBe(`/api/files/${firstId}`);

    // a new photo replaces the old one: its row and its bytes are gone
    const second = await upload(me.client, GIF, 'new.gif');
    expect(second.status).toBe(201);
    expect(await t.db('files').where({ id: firstId }).first()).toBeUndefined();
    expect(stored()).not.toContain(path.normalize(row.path));
    const user = await t.db('users').where({ id: me.id }).first();
    expect(Number(user.profile_photo_file_id)).toBe(second.body.file.id);

    const shown = await me.client.get(`/api/files/${second.body.file.id}`).expect(200);
    expect(Buffer.compare(shown.body, GIF)).toBe(0);

    const secondPath = (await t.db('files').where({ id: second.body.file.id }).first()).path;
    await me.client.delete('/api/user/profile-photo').expect(204);
    expect(await t.db('files').where({ id: second.body.file.id }).first()).toBeUndefined();
    expect(stored()).not.toContain(path.normalize(secondPath));
    expect((await t.db('users').where({ id: me.id }).first()).profile_photo_file_id).toBeNull();
    expect((await me.client.get('/api/user')).body.user.profile_photo_url).toBeNull();
    // deleting again is harmless
    await me.client.delete('/api/user/profile-photo').expect(204);
    const audit = await t.db('audit_logs').where({ entity: 'file', actor_id: me.id }).orderBy('id');
    expect(audit.map((a) => a.action)).toEqual(['create', 'create', 'delete', 'delete']);
  });

  it('takes images only, decided by their content', async () => {
    const me = await staff();
    const before = await fileRows(t);
    const pdf = await me.client
      .post('/api/user/profile-photo')
      .attach('file', Buffer.from('%PDF-1.4\n%%EOF'), 'cv.pdf');
    expect(pdf.status).toBe(422);
    expect(pdf.body.errors.file).toEqual([FILE_MESSAGES.imageOnly]);
    const html = await upload(me.client, HTML, 'me.png');
    expect(html.status).toBe(422);
    expect(html.body.errors.file).toEqual([FILE_MESSAGES.contentMismatch]);
    const svg = await upload(me.client, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'me.svg');
    expect(svg.body.errors.file).toEqual([FILE_MESSAGES.imageOnly]);
    expect(await fileRows(t)).toBe(before);
    expect(temporary()).toEqual([]);
  });
});

describe('size (quality §19)', () => {
  it('5 MB + 1 byte → 413 and nothing stored; exactly 5 MB is accepted', async () => {
    const me = await staff();
    const rowsBefore = await fileRows(t);
    const diskBefore = stored();
    const over = await upload(me.client, pngOfSize(5 * MB + 1));
    expect(over.status).toBe(413);
    expect(over.body).toEqual({
      message: 'The file is larger than 5 MB.',
      code: 'payload_too_large',
      message_key: 'fileLargerThan',
      message_params: { max: 5 },
    });
    expect(await fileRows(t)).toBe(rowsBefore);
    expect(stored()).toEqual(diskBefore);
    expect(temporary()).toEqual([]);

    const exact = await upload(me.client, pngOfSize(5 * MB));
    expect(exact.status).toBe(201);
    expect(exact.body.file.size_bytes).toBe(5 * MB);
    await me.client.delete('/api/user/profile-photo').expect(204);
  });
});

describe('downloads (quality §20)', () => {
  it('as an attachment with a sanitised name, the detected type and nosniff; never for another user or branch', async () => {
    const own = await createBranch(t.db);
    const other = await createBranch(t.db);
    const me = await staff({ branchId: own });
    const res = await upload(me.client, PNG, '學生 "相片"<1>.png');
    expect(res.status).toBe(201);
    const url = `/api/files/${res.body.file.id}`;

    const mine = await me.client.get(url).expect(200);
    expect(mine.headers['content-type']).toBe('image/png');
    expect(mine.headers['content-disposition']).toBe(
      `attachment; filename="?? ??1.png"; filename*=UTF-8''${encodeURIComponent('學生 相片1.png')}`,
    );
    expect(mine.headers['x-content-type-options']).toBe('nosniff');
    expect(mine.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(Buffer.compare(mine.body, PNG)).toBe(0);

    // another staff user without users.view: the file does not exist for them
    const stranger = await staff({ branchId: own, permissions: ['students.view'] });
    await stranger.client.get(url).expect(404);
    // users.view, but scoped to another branch → 404; in the same branch → 200
    const otherBranch = await staff({ branchId: other, permissions: ['users.view'], scope: 'branch' });
    await otherBranch.client.get(url).expect(404);
    const sameBranch = await staff({ branchId: own, permissions: ['users.view'], scope: 'branch' });
    await sameBranch.client.get(url).expect(200);
    const admin = await staff({ admin: true });
    await admin.client.get(url).expect(200);
    // no such file, anonymous, a student
    await me.client.get('/api/files/999999').expect(404);
    await new Client(t.app).get(url).expect(401);
    const student = await createStudent(t.db);
    const portal = new Client(t.app, PORTAL_HOST);
    await portal.login(student.email, student.password);
    await portal.get(url).expect(401);
  });

  it('a row whose file vanished from the disk is a 404, not a 500', async () => {
    const me = await staff();
    const res = await upload(me.client, JPEG, 'me.jpg');
    const row = await t.db('files').where({ id: res.body.file.id }).first();
    fs.rmSync(path.join(uploadDir, row.path));
    await me.client.get(`/api/files/${row.id}`).expect(404);
    await me.client.delete('/api/user/profile-photo').expect(204);
  });
});

describe('app config', () => {
  it('tells the client the upload limit from the settings (its refusal before sending)', async () => {
    expect((await new Client(t.app).get('/api/app-config')).body.max_upload_mb).toBe(5);
    await setSetting('max_upload_mb', '8');
    try {
      expect((await new Client(t.app).get('/api/app-config')).body.max_upload_mb).toBe(8);
    } finally {
      await t.db('settings').where({ key: 'max_upload_mb' }).delete();
    }
  });
});

describe('feature flag', () => {
  it('answers 404 on both routes when managesProfilePhotos is off, and stores nothing', async () => {
    const me = await staff();
    await setSetting('feature_managesProfilePhotos', 'false');
    try {
      const rows = await fileRows(t);
      const res = await upload(me.client, PNG);
      expect(res.status).toBe(404);
      await me.client.delete('/api/user/profile-photo').expect(404);
      expect(await fileRows(t)).toBe(rows);
      expect(temporary()).toEqual([]);
    } finally {
      await setSetting('feature_managesProfilePhotos', 'true');
    }
    expect((await upload(me.client, PNG)).status).toBe(201);
    await me.client.delete('/api/user/profile-photo').expect(204);
  });
});

describe('storage quota and suspension (quality §21)', () => {
  afterEach(async () => {
    await t.db('settings').whereIn('key', ['storage_quota_mb', 'storage_suspended']).delete();
    await t.db('users').update({ profile_photo_file_id: null });
    for (const f of await t.db('files')) fs.rmSync(path.join(uploadDir, f.path), { force: true });
    await t.db('files').delete();
  });

  it('refuses an upload that would pass the quota with "Storage is full." and writes nothing', async () => {
    await setSetting('storage_quota_mb', '1');
    const a = await staff();
    const b = await staff();
    expect((await upload(a.client, pngOfSize(700 * 1024))).status).toBe(201);
    const rows = await fileRows(t);
    const disk = stored();
    const refused = await upload(b.client, pngOfSize(400 * 1024));
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(MESSAGES.storageFull);
    expect(refused.body.errors.file).toEqual([MESSAGES.storageFull]);
    expect(await fileRows(t)).toBe(rows);
    expect(stored()).toEqual(disk);
    expect(temporary()).toEqual([]);
    // a replacement counts the photo it replaces as freed
    expect((await upload(a.client, pngOfSize(900 * 1024))).status).toBe(201);
  });

  it('lets exactly as many parallel uploads through as fit, and the refused ones leave nothing', async () => {
    await setSetting('storage_quota_mb', '1');
    const users = await Promise.all(Array.from({ length: 10 }, () => staff()));
    const results = await Promise.all(users.map((u) => upload(u.client, pngOfSize(300 * 1024))));
    const statuses = results.map((r) => r.status).sort();
    // 3 × 300 KB fit in 1 MB, a 4th would not
    expect(statuses).toEqual([201, 201, 201, 422, 422, 422, 422, 422, 422, 422]);
    for (const r of results.filter((x) => x.status === 422))
      expect(r.body.message).toBe(MESSAGES.storageFull);
    expect(await fileRows(t)).toBe(3);
    expect(stored()).toHaveLength(3);
    expect(temporary()).toEqual([]);
    const total = Number((await t.db('files').sum({ s: 'size_bytes' }).first())?.s);
    expect(total).toBeLessThanOrEqual(MB);
    console.log(
      `quota under concurrency: 10 parallel uploads of 300 KB against 1 MB → ${statuses.filter((s) => s === 201).length} stored (${total} bytes), ${statuses.filter((s) => s === 422).length} refused, ${stored().length} files on disk`,
    );
  });

  it('refuses every upload while storage is suspended', async () => {
    await setSetting('storage_suspended', 'true');
    const me = await staff();
    const res = await upload(me.client, PNG);
    expect(res.status).toBe(422);
    expect(res.body.errors.file).toEqual([FILE_MESSAGES.suspended]);
    expect(await fileRows(t)).toBe(0);
    expect(stored()).toEqual([]);
    expect(temporary()).toEqual([]);
  });

  it('reports usage against the quota to staff with files.view', async () => {
    await setSetting('storage_quota_mb', '1');
    const me = await staff({ permissions: ['files.view'] });
    const empty = await me.client.get('/api/files/usage').expect(200);
    expect(empty.body).toEqual({
      used_bytes: 0,
      quota_bytes: MB,
      percent: 0,
      suspended: false,
      status: 'ok',
    });
    await upload(me.client, pngOfSize(Math.ceil(0.95 * MB))).expect(201);
    const almost = await me.client.get('/api/files/usage').expect(200);
    expect(almost.body).toMatchObject({ percent: 95, status: 'almost_full' });
    await setSetting('storage_suspended', 'true');
    expect((await me.client.get('/api/files/usage')).body).toMatchObject({
      suspended: true,
      status: 'suspended',
    });
    const without = await staff({ permissions: ['users.view'] });
    await without.client.get('/api/files/usage').expect(403);
  });
});
