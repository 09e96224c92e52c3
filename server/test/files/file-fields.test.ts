import fs from 'node:fs';
import path from 'node:path';
import { FILE_MESSAGES } from '../../../shared/files';
import { createBranch, signedInAdmin, type Client, type TestApp } from '../harness';
import { GIF, PDF, PNG, createFilesTestApp, fileRows, filesOnDisk } from './file-fixtures';
import { createSchool, staff } from './file-helpers';

/**
 * A declared file field (`schools.logo_file_id`, owner type `school_logo`) set by uploading to
 * `POST /api/schools/:id/logo` and cleared by `DELETE` there (decision 0008): replace and remove in one
 * transaction with the old bytes gone, never written by the record's body, in use while it is the logo (the
 * media manager refuses its delete with a message naming the school), deleted with its school.
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

const temporary = () => filesOnDisk(uploadDir).filter((f) => f.startsWith('.tmp'));
const fileRow = (id: number) => t.db('files').where({ id }).first();
const onDisk = async (id: number) => path.join(uploadDir, (await fileRow(id)).path);

const uploadLogo = (c: Client, schoolId: number, content: Buffer = PNG, filename = 'logo.png') =>
  c.post(`/api/schools/${schoolId}/logo`).attach('file', content, { filename, contentType: 'image/png' });

describe('POST|DELETE /api/schools/:id/logo', () => {
  it('sets, replaces and clears the logo: 200 with the record, the replaced file gone from the disk', async () => {
    const school = await createSchool(admin);
    const branch = await createBranch(t.db);
    const editor = await staff(t, { permissions: ['schools.view', 'schools.update'], branchId: branch });

    const first = await uploadLogo(editor.client, school.id);
    expect(first.status).toBe(200);
    const firstId = first.body.logo_file_id;
    expect(firstId).toEqual(expect.any(Number));
    // the record as GET /api/schools/:id answers it
    const shown = await admin.get(`/api/schools/${school.id}`).expect(200);
    expect(first.body).toEqual({ ...shown.body, allowed_actions: first.body.allowed_actions });
    const firstRow = await fileRow(firstId);
    // the record's own picture: filed under the record's branch (a school has none), whoever uploaded it
    expect(firstRow).toMatchObject({
      owner_type: 'school_logo',
      owner_id: school.id,
      branch_id: null,
      mime_type: 'image/png',
      uploaded_by_user_id: editor.id,
    });
    const firstPath = await onDisk(firstId);
    expect(fs.existsSync(firstPath)).toBe(true);
    // every branch that sees the school sees its logo
    const elsewhere = await staff(t, {
      permissions: ['schools.view'],
      branchId: await createBranch(t.db),
      scope: 'branch',
    });
    const image = await elsewhere.client.get(`/api/files/${firstId}`).expect(200);
    expect(Buffer.compare(image.body, PNG)).toBe(0);

    const second = await uploadLogo(editor.client, school.id, GIF, 'new.gif');
    expect(second.status).toBe(200);
    const secondId = second.body.logo_file_id;
    expect(secondId).not.toBe(firstId);
    expect(await fileRow(firstId)).toBeUndefined();
    expect(fs.existsSync(firstPath)).toBe(false);
    const secondPath = await onDisk(secondId);
    expect(fs.existsSync(secondPath)).toBe(true);

    const audit = await t
      .db('audit_logs')
      .where({ entity: 'school', entity_id: school.id, action: 'update' })
      .orderBy('id');
    expect(audit.map((a) => JSON.parse(a.changes))).toEqual([
      { before: { logo_file_id: null }, after: { logo_file_id: firstId } },
      { before: { logo_file_id: firstId }, after: { logo_file_id: secondId } },
    ]);
    const fileAudit = await t
      .db('audit_logs')
      .where({ entity: 'file' })
      .whereIn('entity_id', [firstId, secondId])
      .orderBy('id');
    expect(fileAudit.map((a) => [a.action, Number(a.entity_id)])).toEqual([
      ['create', firstId],
      ['create', secondId],
      ['delete', firstId],
    ]);

    const cleared = await editor.client.delete(`/api/schools/${school.id}/logo`).expect(200);
    expect(cleared.body).toMatchObject({ id: school.id, logo_file_id: null });
    expect(await fileRow(secondId)).toBeUndefined();
    expect(fs.existsSync(secondPath)).toBe(false);
    // again: nothing to clear
    await editor.client.delete(`/api/schools/${school.id}/logo`).expect(200);
    expect(temporary()).toEqual([]);
  });

  it('takes images only, needs schools.update, 404 for a school that does not exist; nothing stored when refused', async () => {
    const school = await createSchool(admin);
    const rows = await fileRows(t);
    const pdf = await admin
      .post(`/api/schools/${school.id}/logo`)
      .attach('file', PDF, { filename: 'logo.pdf', contentType: 'application/pdf' });
    expect(pdf.status).toBe(422);
    expect(pdf.body.errors.file).toEqual([FILE_MESSAGES.imageOnly]);
    const viewer = await staff(t, { permissions: ['schools.view'] });
    await uploadLogo(viewer.client, school.id).expect(403);
    await viewer.client.delete(`/api/schools/${school.id}/logo`).expect(403);
    await uploadLogo(admin, 99_999_999).expect(404);
    await admin.delete('/api/schools/99999999/logo').expect(404);
    expect(await fileRows(t)).toBe(rows);
    expect(temporary()).toEqual([]);
    // the record's body never points it at a file
    const put = await admin.put(`/api/schools/${school.id}`, { logo_file_id: 1 });
    expect(put.status).toBe(422);
    expect(Object.keys(put.body.errors)).toEqual(['logo_file_id']);
  });

  it('a logo is in use: its delete is refused with 409 naming the school, and it is listed so', async () => {
    const school = await createSchool(admin, { name_en: 'Korea University', name_zh: '高麗大學' });
    const logoId = (await uploadLogo(admin, school.id).expect(200)).body.logo_file_id;
    const refused = await admin.delete(`/api/files/${logoId}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'conflict',
      message:
        'This file cannot be deleted on its own: it is the logo of Korea University. Change or remove it there.',
      message_key: 'fileInUse',
      message_params: { use: { key: 'fileUseSchoolLogo', params: { label: 'Korea University' } } },
    });
    expect(await fileRow(logoId)).toBeDefined();
    expect(fs.existsSync(await onDisk(logoId))).toBe(true);

    const listed = await admin
      .get(`/api/files?owner_type=school_logo&owner_id=${school.id}`)
      .set('Accept-Language', 'zh-HK')
      .expect(200);
    expect(listed.body.items).toEqual([
      expect.objectContaining({
        id: logoId,
        owner_type: 'school_logo',
        owner_label: '高麗大學',
        owner_url: `/schools/basic/${school.id}`,
        in_use: { kind: 'school_logo', label: '高麗大學' },
        can_delete: false,
        kind: 'image',
      }),
    ]);
  });

  it('a profile photo is in use too', async () => {
    const me = await staff(t, { name: 'Photo Owner' });
    const photo = await me.client
      .post('/api/user/profile-photo')
      .attach('file', PNG, { filename: 'me.png', contentType: 'image/png' })
      .expect(201);
    const refused = await admin.delete(`/api/files/${photo.body.file.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message_params).toMatchObject({
      use: { key: 'fileUseProfilePhoto', params: { label: 'Photo Owner' } },
    });
    const listed = await admin.get(`/api/files?owner_type=user&owner_id=${me.id}`).expect(200);
    expect(listed.body.items[0]).toMatchObject({
      in_use: { kind: 'profile_photo', label: 'Photo Owner' },
      owner_url: `/settings/users/${me.id}`,
      can_delete: false,
    });
  });

  it('deleting a school deletes its logo (row and bytes)', async () => {
    const school = await createSchool(admin);
    const logoId = (await uploadLogo(admin, school.id).expect(200)).body.logo_file_id;
    const logoPath = await onDisk(logoId);
    await admin.delete(`/api/schools/${school.id}`).expect(204);
    expect(await fileRow(logoId)).toBeUndefined();
    expect(fs.existsSync(logoPath)).toBe(false);
    const audit = await t.db('audit_logs').where({ entity: 'file', entity_id: logoId, action: 'delete' });
    expect(audit).toHaveLength(1);
  });
});
