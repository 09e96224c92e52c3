import fs from 'node:fs';
import path from 'node:path';
import type { RequestContext } from '../../src/http/context';
import { toDbDateTime } from '../../src/lib/clock';
import { filesServiceOf } from '../../src/modules/files.module';
import { confirmPassword } from '../accounts/helpers';
import { Client, createStudent, createUser, signedInAdmin, type TestApp } from '../harness';
import { PNG, createFilesTestApp, pngOfSize } from './file-fixtures';

/**
 * Deleting a staff user deletes the user's own files (owner_type `user`: the profile photo): the rows in the
 * same transaction as the user, the bytes on the disk once it has committed; a refused delete leaves both.
 * Files the user uploaded for other records stay (their uploader becomes unknown).
 */

let t: TestApp;
let uploadDir: string;
let cleanup: () => Promise<void>;
let admin: Client;

beforeAll(async () => {
  ({ t, uploadDir, cleanup } = await createFilesTestApp());
  admin = await signedInAdmin(t);
});
afterAll(() => cleanup());

/** A signed-in staff user with a profile photo: the user, the client and the photo's file row. */
async function userWithPhoto(content: Buffer = PNG) {
  const user = await createUser(t.db);
  const client = new Client(t.app);
  expect((await client.login(user.email, user.password)).status).toBe(200);
  const res = await client
    .post('/api/user/profile-photo')
    .attach('file', content, { filename: 'me.png', contentType: 'image/png' });
  expect(res.status).toBe(201);
  const file = await t.db('files').where({ id: res.body.file.id }).first();
  return { user, client, file, onDisk: path.join(uploadDir, file.path) };
}

const fileRow = (id: number) => t.db('files').where({ id }).first();
const userRow = (id: number) => t.db('users').where({ id }).first();

async function fileAudit(fileId: number) {
  return t.db('audit_logs').where({ entity: 'file', entity_id: fileId, action: 'delete' });
}

describe("a deleted user's own files", () => {
  it('go with an admin delete (DELETE /api/users/:id): row in the transaction, file from the disk', async () => {
    const gone = await userWithPhoto();
    const kept = await userWithPhoto(pngOfSize(2048));
    // a file the deleted user uploaded for another owner: it stays, without its uploader
    const now = toDbDateTime();
    const [foreignId] = await t.db('files').insert({
      disk: 'local',
      path: '2026/01/uploaded-for-someone-else.png',
      original_name: 'other.png',
      mime_type: 'image/png',
      size_bytes: 10,
      sha256: 'x'.repeat(64),
      owner_type: 'user',
      owner_id: kept.user.id,
      uploaded_by_user_id: gone.user.id,
      created_at: now,
    });
    expect(fs.existsSync(gone.onDisk)).toBe(true);

    await admin.delete(`/api/users/${gone.user.id}`).expect(204);

    expect(await userRow(gone.user.id)).toBeUndefined();
    expect(await fileRow(gone.file.id)).toBeUndefined();
    expect(fs.existsSync(gone.onDisk)).toBe(false);
    const audit = await fileAudit(gone.file.id);
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0].changes).before).toMatchObject({
      owner_type: 'user',
      owner_id: gone.user.id,
      path: gone.file.path,
    });
    // nobody else's files are touched
    expect(await fileRow(kept.file.id)).toBeDefined();
    expect(fs.existsSync(kept.onDisk)).toBe(true);
    expect(await fileRow(Number(foreignId))).toMatchObject({ uploaded_by_user_id: null });
    await admin.get(`/api/files/${kept.file.id}`).expect(200);
    await admin.get(`/api/files/${gone.file.id}`).expect(404);
    // and the usage no longer counts the deleted photo
    const usage = (await admin.get('/api/files/usage').expect(200)).body;
    const total = Number((await t.db('files').sum({ s: 'size_bytes' }).first())?.s);
    expect(usage.used_bytes).toBe(total);
    await t.db('files').where({ id: foreignId }).delete();
  });

  it('go with one’s own account deletion (DELETE /api/user)', async () => {
    const me = await userWithPhoto();
    await confirmPassword(me.client, me.user.password);
    await me.client.delete('/api/user').expect(204);
    expect(await userRow(me.user.id)).toBeUndefined();
    expect(await fileRow(me.file.id)).toBeUndefined();
    expect(fs.existsSync(me.onDisk)).toBe(false);
    expect(await fileAudit(me.file.id)).toHaveLength(1);
  });

  it('stay when the delete is refused (the user is still referenced): row and file as they were', async () => {
    const busy = await userWithPhoto();
    const student = await createStudent(t.db);
    await t.db('students').where({ id: student.id }).update({ consultant_user_id: busy.user.id });
    const refused = await admin.delete(`/api/users/${busy.user.id}`);
    expect(refused.status).toBe(409);
    expect(await userRow(busy.user.id)).toBeDefined();
    expect(await fileRow(busy.file.id)).toBeDefined();
    expect(fs.existsSync(busy.onDisk)).toBe(true);
    expect(await fileAudit(busy.file.id)).toHaveLength(0);
    await busy.client.get(`/api/files/${busy.file.id}`).expect(200);
  });

  it('leave the disk alone until the owner’s transaction commits; a rollback keeps the rows too', async () => {
    const owner = await userWithPhoto();
    const files = filesServiceOf(t);
    const ctx: RequestContext = {
      actor: { type: 'system', id: null },
      branchScope: null,
      ip: null,
      userAgent: null,
      requestId: null,
      access: null,
      language: 'en',
    };
    const rollback = new Error('the owner delete failed');
    await expect(
      t.db.transaction(async (trx) => {
        await files.removeOwned(trx, ctx, 'user', owner.user.id);
        expect(await trx('files').where({ id: owner.file.id }).first()).toBeUndefined();
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await fileRow(owner.file.id)).toBeDefined();
    expect(fs.existsSync(owner.onDisk)).toBe(true);
    expect(await fileAudit(owner.file.id)).toHaveLength(0);

    const afterCommit = await t.db.transaction((trx) => files.removeOwned(trx, ctx, 'user', owner.user.id));
    expect(await fileRow(owner.file.id)).toBeUndefined();
    expect(fs.existsSync(owner.onDisk)).toBe(true);
    await afterCommit();
    expect(fs.existsSync(owner.onDisk)).toBe(false);
  });

  it('are nothing to do for a user without files', async () => {
    const user = await createUser(t.db);
    const before = Number((await t.db('files').count({ n: '*' }).first())?.n);
    await admin.delete(`/api/users/${user.id}`).expect(204);
    expect(Number((await t.db('files').count({ n: '*' }).first())?.n)).toBe(before);
  });
});
