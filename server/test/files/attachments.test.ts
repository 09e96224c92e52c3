import fs from 'node:fs';
import path from 'node:path';
import { FILE_MESSAGES } from '../../../shared/files';
import { createBranch, signedInAdmin, type Client, type TestApp } from '../harness';
import { PNG, PDF, TXT, createFilesTestApp, fileRows, filesOnDisk } from './file-fixtures';
import { attach, createSchool, staff } from './file-helpers';

/**
 * A school's attachments (issue 12): `POST /api/files` for an owner that takes attachments, the owner's
 * permissions and the file scope (decision 0008), downloads and inline previews, deletes, and a school that
 * cannot be deleted while it has attachments. Real database, real files in a temporary UPLOAD_DIR.
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

const stored = () => filesOnDisk(uploadDir).filter((f) => !f.startsWith('.tmp'));
const temporary = () => filesOnDisk(uploadDir).filter((f) => f.startsWith('.tmp'));
const fileRow = (id: number) => t.db('files').where({ id }).first();

describe('POST /api/files', () => {
  it('attaches a PDF to a school: 201 with the FileItem, filed under the uploader’s branch', async () => {
    const branch = await createBranch(t.db);
    const school = await createSchool(admin);
    const clerk = await staff(t, {
      permissions: ['schools.view', 'schools.update', 'files.delete'],
      branchId: branch,
      name: 'Clerk Chan',
    });
    const res = await attach(clerk.client, 'school', school.id, PDF, 'offer letter.pdf');
    expect(res.status).toBe(201);
    const id = res.body.id;
    expect(res.body).toEqual({
      id,
      original_name: 'offer letter.pdf',
      mime_type: 'application/pdf',
      kind: 'pdf',
      size_bytes: PDF.length,
      owner_type: 'school',
      owner_id: school.id,
      owner_label: school.name_en,
      owner_url: `/schools/attachment/${school.id}`,
      branch_id: branch,
      branch_name: expect.stringContaining((await t.db('branches').where({ id: branch }).first()).name_en),
      uploaded_by_name: 'Clerk Chan',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/),
      in_use: null,
      can_delete: true,
      url: `/api/files/${id}`,
      preview_url: `/api/files/${id}?inline=1`,
    });
    const row = await fileRow(id);
    expect(row).toMatchObject({
      owner_type: 'school',
      owner_id: school.id,
      uploaded_by_user_id: clerk.id,
      mime_type: 'application/pdf',
    });
    expect(Number(row.branch_id)).toBe(branch);
    expect(stored()).toContain(path.normalize(row.path));
    expect(temporary()).toEqual([]);
    const audit = await t.db('audit_logs').where({ entity: 'file', entity_id: id, action: 'create' });
    expect(audit).toHaveLength(1);

    // the owner's attachment tab, with its view permission alone (no files.view), names in the caller's language
    const reader = await staff(t, { permissions: ['schools.view'], branchId: branch });
    const list = await reader.client
      .get(`/api/files?owner_type=school&owner_id=${school.id}`)
      .set('Accept-Language', 'zh-HK')
      .expect(200);
    expect(list.body).toMatchObject({ total: 1, page: 1, per_page: 20 });
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({ id, owner_label: school.name_zh, can_delete: false });
  });

  it('refuses without the attach permission (403), an owner the caller cannot see (404), other owner types (422)', async () => {
    const school = await createSchool(admin);
    const before = await fileRows(t);
    const viewer = await staff(t, { permissions: ['schools.view', 'files.view'] });
    expect((await attach(viewer.client, 'school', school.id, PDF, 'a.pdf')).status).toBe(403);
    const blind = await staff(t, { permissions: ['schools.update', 'files.view'] });
    expect((await attach(blind.client, 'school', school.id, PDF, 'a.pdf')).status).toBe(404);
    expect((await attach(admin, 'school', 99_999_999, PDF, 'a.pdf')).status).toBe(404);
    // a logo and a profile photo have their own routes; an unknown type is no owner at all
    for (const type of ['school_logo', 'user', 'nothing']) {
      const res = await attach(admin, type, school.id, PNG, 'a.png');
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['owner_type']);
    }
    const missing = await admin.post('/api/files').attach('file', PDF, 'a.pdf');
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['owner_id', 'owner_type']);
    // the upload's own checks still apply
    const fake = await attach(admin, 'school', school.id, Buffer.from('<html></html>'), 'a.pdf');
    expect(fake.status).toBe(422);
    expect(fake.body.errors.file).toEqual([FILE_MESSAGES.contentMismatch]);
    expect(await fileRows(t)).toBe(before);
    expect(temporary()).toEqual([]);
  });
});

describe('the file scope (decision 0008)', () => {
  it('a school’s file uploaded by a user of branch B is 404 to a branch user of branch A without files.view_all; visible with it', async () => {
    const a = await createBranch(t.db);
    const b = await createBranch(t.db);
    const school = await createSchool(admin);
    const uploader = await staff(t, { permissions: ['schools.view', 'schools.update'], branchId: b });
    const fromB = (await attach(uploader.client, 'school', school.id, PDF, 'b.pdf').expect(201)).body;
    expect(fromB.branch_id).toBe(b);
    const fromA = (
      await attach(
        (await staff(t, { permissions: ['schools.view', 'schools.update'], branchId: a })).client,
        'school',
        school.id,
        PDF,
        'a.pdf',
      ).expect(201)
    ).body;

    const listed = async (c: Client) =>
      (await c.get(`/api/files?owner_type=school&owner_id=${school.id}`).expect(200)).body.items
        .map((f: { id: number }) => f.id)
        .sort();

    for (const scope of ['branch', 'all'] as const) {
      const inA = await staff(t, { permissions: ['schools.view', 'files.view'], branchId: a, scope });
      await inA.client.get(`/api/files/${fromB.id}`).expect(404);
      await inA.client.get(`/api/files/${fromA.id}`).expect(200);
      expect(await listed(inA.client)).toEqual([fromA.id]);
      const media = await inA.client.get('/api/files').expect(200);
      expect(media.body.items.map((f: { id: number }) => f.id)).not.toContain(fromB.id);

      const allFiles = await staff(t, {
        permissions: ['schools.view', 'files.view', 'files.view_all'],
        branchId: a,
        scope,
      });
      await allFiles.client.get(`/api/files/${fromB.id}`).expect(200);
      expect(await listed(allFiles.client)).toEqual([fromA.id, fromB.id].sort());
    }
    // files.view_all does not lift the owner's own permission
    const noSchools = await staff(t, { permissions: ['files.view', 'files.view_all'], branchId: b });
    await noSchools.client.get(`/api/files/${fromB.id}`).expect(404);
    await noSchools.client.get(`/api/files?owner_type=school&owner_id=${school.id}`).expect(404);
    expect(await listed(admin)).toEqual([fromA.id, fromB.id].sort());
  });
});

describe('downloads and previews', () => {
  let school: { id: number };
  beforeAll(async () => {
    school = await createSchool(admin);
  });

  it('downloads as an attachment: detected type, nosniff, a sandboxing CSP', async () => {
    const file = (await attach(admin, 'school', school.id, PDF, '錄取 通知.pdf').expect(201)).body;
    const res = await admin.get(`/api/files/${file.id}`).expect(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="/);
    expect(res.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('錄取 通知.pdf')}`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(Buffer.compare(res.body, PDF)).toBe(0);
  });

  it('?inline=1 shows a PDF or an image in the page, never any other type', async () => {
    const pdf = (await attach(admin, 'school', school.id, PDF, 'cv.pdf').expect(201)).body;
    const inlinePdf = await admin.get(pdf.preview_url).expect(200);
    expect(inlinePdf.headers['content-disposition']).toMatch(/^inline; filename="?cv\.pdf"?$/);
    expect(inlinePdf.headers['content-type']).toBe('application/pdf');
    expect(inlinePdf.headers['x-content-type-options']).toBe('nosniff');
    // the PDF viewer cannot run in a sandboxed document; nothing else may load, and only the app may frame it
    expect(inlinePdf.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'self'");

    const png = (await attach(admin, 'school', school.id, PNG, 'photo.png').expect(201)).body;
    expect(png.kind).toBe('image');
    const inlinePng = await admin.get(png.preview_url).expect(200);
    expect(inlinePng.headers['content-disposition']).toMatch(/^inline; filename="?photo\.png"?$/);
    expect(inlinePng.headers['content-security-policy']).toBe("default-src 'none'; sandbox");

    const txt = (await attach(admin, 'school', school.id, TXT, 'notes.txt').expect(201)).body;
    expect(txt).toMatchObject({ kind: 'document', preview_url: null });
    const asked = await admin.get(`/api/files/${txt.id}?inline=1`).expect(200);
    expect(asked.headers['content-disposition']).toMatch(/^attachment;/);
    expect(asked.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(asked.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    await admin.get(`/api/files/${txt.id}?inline=yes`).expect(422);
  });
});

describe('DELETE /api/files/:id', () => {
  it('deletes an unused attachment: 204, row and bytes gone, audited; needs files.delete and the owner’s update', async () => {
    const branch = await createBranch(t.db);
    const school = await createSchool(admin);
    const file = (await attach(admin, 'school', school.id, PDF, 'old.pdf').expect(201)).body;
    const row = await fileRow(file.id);
    const onDisk = path.join(uploadDir, row.path);
    expect(fs.existsSync(onDisk)).toBe(true);

    const noDelete = await staff(t, { permissions: ['schools.view', 'schools.update', 'files.view'] });
    await noDelete.client.delete(`/api/files/${file.id}`).expect(403);
    const noUpdate = await staff(t, { permissions: ['schools.view', 'files.view', 'files.delete'] });
    await noUpdate.client.delete(`/api/files/${file.id}`).expect(403);
    // admin's file is filed under no branch: in everyone's file scope; a branch user without schools.view → 404
    const blind = await staff(t, { permissions: ['files.view', 'files.delete'], branchId: branch });
    await blind.client.delete(`/api/files/${file.id}`).expect(404);
    expect(await fileRow(file.id)).toBeDefined();

    const deleter = await staff(t, {
      permissions: ['schools.view', 'schools.update', 'files.view', 'files.delete'],
      branchId: branch,
    });
    await deleter.client.delete(`/api/files/${file.id}`).expect(204);
    expect(await fileRow(file.id)).toBeUndefined();
    expect(fs.existsSync(onDisk)).toBe(false);
    const audit = await t.db('audit_logs').where({ entity: 'file', entity_id: file.id, action: 'delete' });
    expect(audit).toHaveLength(1);
    expect(Number(audit[0].actor_id)).toBe(deleter.id);
    await deleter.client.delete(`/api/files/${file.id}`).expect(404);
  });

  it('a school with an attachment cannot be deleted (409, attachments: 1); without it, it can', async () => {
    const school = await createSchool(admin);
    const file = (await attach(admin, 'school', school.id, PDF, 'keep.pdf').expect(201)).body;
    const refused = await admin.delete(`/api/schools/${school.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('referenced');
    expect(refused.body.references).toEqual({ attachments: 1 });
    expect(await t.db('schools').where({ id: school.id }).first()).toBeDefined();
    await admin.delete(`/api/files/${file.id}`).expect(204);
    await admin.delete(`/api/schools/${school.id}`).expect(204);
  });
});
