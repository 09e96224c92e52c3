/**
 * An application's document checklist (issue 13): the full 5×5 table of domain.md's states P/U/S/N/C — for every
 * (from, to) pair, each move that would lead there (a declared action, a file put in, a file removed) is tried on a
 * row in `from`: the allowed ones succeed, answer the row with the moves now possible, and write an audit row
 * named by the move; every other one answers 409 with its own message and changes nothing. Then what the moves do
 * to files (stored, replaced, removed, let go on restore), the upload's checks, the row's file in the media
 * manager, students' and applications' files, and branch scope on every route of a row and of its files.
 * Real database, real files in a temporary UPLOAD_DIR.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DOCUMENT_CODES, DOCUMENT_STATUSES, type DocumentStatus } from '../../../shared/resources/students';
import { toDbDateTime } from '../../src/lib/clock';
import { filesServiceOf } from '../../src/modules/files.module';
import { systemContext } from '../../src/modules/files/file-orphans.service';
import { createFilesTestApp, EXE, filesOnDisk } from '../files/file-fixtures';
import { createBranch, signedInAdmin, type Client, type TestApp } from '../harness';
import { signIn } from '../resources/helpers';
import {
  applicationWithChecklist,
  auditOf,
  checklist,
  createStudent,
  PDF,
  uploadInto,
} from './applications-helpers';

type Row = Record<string, any>;
type Move = 'upload_file' | 'remove_file' | 'submit' | 'unsubmit' | 'cancel' | 'restore';

/** domain.md's table, written out here (not read from the declaration): the moves each state allows. */
const ALLOWED: Record<DocumentStatus, readonly Move[]> = {
  pending: ['upload_file', 'cancel'],
  // a new file replaces the one it has (U→U)
  uploaded: ['submit', 'remove_file', 'cancel', 'upload_file'],
  submitted: ['unsubmit'],
  unsubmitted: ['submit', 'upload_file', 'cancel'],
  cancelled: ['restore'],
};

/** The moves leading to each state. */
const LEADING_TO: Record<DocumentStatus, readonly Move[]> = {
  pending: ['restore', 'remove_file'],
  uploaded: ['upload_file'],
  submitted: ['submit'],
  unsubmitted: ['unsubmit'],
  cancelled: ['cancel'],
};

/** The message of each move's refusal. */
const REFUSAL: Record<Move, string> = {
  upload_file: 'documentCannotUpload',
  remove_file: 'documentCannotRemoveFile',
  submit: 'documentCannotSubmit',
  unsubmit: 'documentCannotUnsubmit',
  cancel: 'documentCannotCancel',
  restore: 'documentCannotRestore',
};

/** The moves that bring a new row (pending) into each state through the API. */
const PATH_TO: Record<DocumentStatus, readonly Move[]> = {
  pending: [],
  uploaded: ['upload_file'],
  submitted: ['upload_file', 'submit'],
  unsubmitted: ['upload_file', 'submit', 'unsubmit'],
  // cancelled while uploaded: it still holds its file
  cancelled: ['upload_file', 'cancel'],
};

let t: TestApp;
let uploadDir: string;
let cleanup: () => Promise<void>;
let admin: Client;
let branchA: number;
let branchB: number;

beforeAll(async () => {
  ({ t, uploadDir, cleanup } = await createFilesTestApp());
  admin = await signedInAdmin(t);
  branchA = await createBranch(t.db);
  branchB = await createBranch(t.db);
});
afterAll(() => cleanup());

const stored = () => filesOnDisk(uploadDir).filter((f) => !f.startsWith('.tmp'));
const docRow = (id: number): Promise<Row> => t.db('application_documents').where({ id }).first();
const fileRow = (id: number): Promise<Row | undefined> => t.db('files').where({ id }).first();
const onDisk = (file: Row) => fs.existsSync(path.join(uploadDir, file.path));

/** Tries `move` on row `id` as `client`, answering the response. */
function attempt(client: Client, move: Move, id: number) {
  if (move === 'upload_file') return uploadInto(client, id, `${move}-${id}.pdf`);
  if (move === 'remove_file') return client.delete(`/api/application-documents/${id}/file`);
  return client.post(`/api/application-documents/${id}/${move}`);
}

describe('the 5×5 table of document moves (domain.md)', () => {
  it('allows exactly the table’s moves, each audited, and refuses every other with its own message', async () => {
    let allowed = 0;
    let refused = 0;
    const unexpected: string[] = [];
    const grid: string[] = [];
    for (const from of DOCUMENT_STATUSES) {
      // one application per starting state, its checklist one row per move tried
      const tries = DOCUMENT_STATUSES.flatMap((to) => LEADING_TO[to].map((move) => ({ to, move })));
      const { application } = await applicationWithChecklist(
        admin,
        branchA,
        tries.map((x) => `${from} ${x.move}`),
      );
      const rows = await checklist(admin, application.id);
      expect(rows).toHaveLength(tries.length);
      const cells: string[] = [];
      for (const [i, { to, move }] of tries.entries()) {
        const id = rows[i].id;
        for (const step of PATH_TO[from])
          expect([step, (await attempt(admin, step, id)).status]).toEqual([step, 200]);
        const before = await docRow(id);
        expect(before.status).toBe(from);
        const audits = (await auditOf(t, 'application_document', id)).length;
        const res = await attempt(admin, move, id);
        const after = await docRow(id);
        const expected = ALLOWED[from].includes(move);
        const label = `${DOCUMENT_CODES[from]}→${DOCUMENT_CODES[to]} by ${move}`;
        if (expected) {
          const audit = (await auditOf(t, 'application_document', id)).slice(audits);
          const ok =
            res.status === 200 &&
            res.body.status === to &&
            res.body.code === DOCUMENT_CODES[to] &&
            after.status === to &&
            [...res.body.allowed_actions].sort().join() === [...ALLOWED[to]].sort().join() &&
            audit.length === 1 &&
            audit[0].action === move &&
            // the status before and after, unless the move keeps it (a file replaced: U→U)
            (from === to ||
              (audit[0].changes.before.status === from && audit[0].changes.after.status === to));
          if (ok) allowed++;
          else
            unexpected.push(
              `${label}: ${res.status} ${JSON.stringify(res.body)} audit ${JSON.stringify(audit)}`,
            );
        } else {
          const ok =
            res.status === 409 &&
            res.body.code === 'conflict' &&
            res.body.message_key === REFUSAL[move] &&
            after.status === before.status &&
            after.file_id === before.file_id &&
            (await auditOf(t, 'application_document', id)).length === audits;
          if (ok) refused++;
          else unexpected.push(`${label}: ${res.status} ${JSON.stringify(res.body)}`);
        }
        cells.push(`${move}:${res.status}`);
      }
      grid.push(`${DOCUMENT_CODES[from]} | ${cells.join(' ')}`);
    }
    console.log(
      `document moves: ${allowed} allowed, ${refused} refused, ${unexpected.length} unexpected\n${grid.join('\n')}`,
    );
    expect(unexpected).toEqual([]);
    // 25 (from, to) pairs, 30 moves tried (two lead to pending): the table's 11 moves, 19 refusals
    expect([allowed, refused]).toEqual([11, 19]);
  });
});

describe('what the moves do to a row and its file', () => {
  it('stores an upload as the row’s file (P→U), replaces it (U→U) and removes it (U→P), bytes following the rows', async () => {
    const { application, student } = await applicationWithChecklist(admin, branchA, ['Passport']);
    const [doc] = await checklist(admin, application.id);
    expect(doc).toMatchObject({
      status: 'pending',
      code: 'P',
      file_id: null,
      file_name: null,
      uploaded_at: null,
    });

    const first = await uploadInto(admin, doc.id, '護照 scan.pdf').expect(200);
    expect(first.body).toMatchObject({ status: 'uploaded', code: 'U', file_name: '護照 scan.pdf' });
    expect(first.body.uploaded_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);
    const firstFile = (await fileRow(first.body.file_id))!;
    // filed under the student's branch, owned by the row
    expect(firstFile).toMatchObject({ owner_type: 'application_document', owner_id: doc.id });
    expect(Number(firstFile.branch_id)).toBe(Number(student.branch_id));
    expect(onDisk(firstFile)).toBe(true);

    const second = await uploadInto(admin, doc.id, 'passport v2.pdf').expect(200);
    expect(second.body).toMatchObject({ status: 'uploaded', file_name: 'passport v2.pdf' });
    expect(second.body.file_id).not.toBe(first.body.file_id);
    expect(await fileRow(first.body.file_id)).toBeUndefined();
    expect(onDisk(firstFile)).toBe(false);
    const secondFile = (await fileRow(second.body.file_id))!;

    const removed = await admin.delete(`/api/application-documents/${doc.id}/file`).expect(200);
    expect(removed.body).toMatchObject({
      status: 'pending',
      code: 'P',
      file_id: null,
      file_name: null,
      uploaded_at: null,
    });
    expect(await fileRow(second.body.file_id)).toBeUndefined();
    expect(onDisk(secondFile)).toBe(false);
    const actions = (await auditOf(t, 'application_document', doc.id)).map((a) => a.action);
    expect(actions).toEqual(['upload_file', 'upload_file', 'remove_file']);
  });

  it('stamps submitted_at on submit and clears it when taken back; a restore (C→P) deletes the file it kept', async () => {
    const { application } = await applicationWithChecklist(admin, branchA, ['Transcript']);
    const [doc] = await checklist(admin, application.id);
    const uploaded = await uploadInto(admin, doc.id).expect(200);
    const submitted = await admin.post(`/api/application-documents/${doc.id}/submit`).expect(200);
    expect(submitted.body.submitted_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(submitted.body.allowed_actions).toEqual(['unsubmit']);
    const back = await admin.post(`/api/application-documents/${doc.id}/unsubmit`).expect(200);
    expect(back.body).toMatchObject({ status: 'unsubmitted', code: 'N', submitted_at: null });
    // the file stays through S and N, and through a cancellation
    const cancelled = await admin.post(`/api/application-documents/${doc.id}/cancel`).expect(200);
    expect(cancelled.body).toMatchObject({ code: 'C', file_id: uploaded.body.file_id });
    const file = (await fileRow(uploaded.body.file_id))!;
    expect(onDisk(file)).toBe(true);

    const restored = await admin.post(`/api/application-documents/${doc.id}/restore`).expect(200);
    expect(restored.body).toMatchObject({
      status: 'pending',
      code: 'P',
      file_id: null,
      file_name: null,
      uploaded_at: null,
    });
    expect(await fileRow(file.id)).toBeUndefined();
    expect(onDisk(file)).toBe(false);
    const restore = (await auditOf(t, 'application_document', doc.id)).at(-1)!;
    expect(restore).toMatchObject({ action: 'restore' });
    expect(restore.changes.before).toMatchObject({ status: 'cancelled', file_id: file.id });
    expect(restore.changes.after).toMatchObject({ status: 'pending', file_id: null });
    expect(
      await t.db('audit_logs').where({ entity: 'file', entity_id: file.id, action: 'delete' }).first(),
    ).toBeDefined();
  });

  it('lists upload_file and remove_file in allowed_actions only for a holder of students.update, as the state allows', async () => {
    const { application } = await applicationWithChecklist(admin, branchA, ['Photo']);
    const [doc] = await checklist(admin, application.id);
    const viewer = await signIn(t, ['students.view']);
    const updater = await signIn(t, ['students.view', 'students.update']);
    const seen = async (client: Client) =>
      (await client.get(`/api/application-documents/${doc.id}`).expect(200)).body.allowed_actions;
    expect(await seen(viewer)).toEqual([]);
    expect([...(await seen(updater))].sort()).toEqual(['cancel', 'upload_file']);
    await uploadInto(updater, doc.id).expect(200);
    expect([...(await seen(updater))].sort()).toEqual(['cancel', 'remove_file', 'submit', 'upload_file']);
    // a viewer moves nothing and stores nothing
    const files = await t.db('files').count({ n: '*' }).first();
    expect((await uploadInto(viewer, doc.id)).status).toBe(403);
    expect((await viewer.delete(`/api/application-documents/${doc.id}/file`)).status).toBe(403);
    expect((await viewer.post(`/api/application-documents/${doc.id}/submit`)).status).toBe(403);
    expect(await t.db('files').count({ n: '*' }).first()).toEqual(files);
    expect((await docRow(doc.id)).status).toBe('uploaded');
  });

  it('checks the upload like every upload: content sniffed, storage suspension, nothing stored when refused', async () => {
    const { application } = await applicationWithChecklist(admin, branchA, ['Passport']);
    const [doc] = await checklist(admin, application.id);
    const disk = stored();
    const exe = await uploadInto(admin, doc.id, 'passport.pdf', EXE);
    expect(exe.status).toBe(422);
    expect(exe.body.errors.file).toBeDefined();
    const now = toDbDateTime();
    await t
      .db('settings')
      .insert({ key: 'storage_suspended', value: 'true', created_at: now, updated_at: now })
      .onConflict('key')
      .merge(['value']);
    try {
      const suspended = await uploadInto(admin, doc.id);
      expect(suspended.status).toBe(422);
      expect(suspended.body.error_keys.file[0].key).toBe('storageSuspended');
    } finally {
      await t.db('settings').where({ key: 'storage_suspended' }).delete();
    }
    expect(await docRow(doc.id)).toMatchObject({ status: 'pending', file_id: null });
    expect(stored()).toEqual(disk);
    expect(
      await t.db('files').where({ owner_type: 'application_document', owner_id: doc.id }).first(),
    ).toBeUndefined();
    await uploadInto(admin, doc.id).expect(200);
  });

  it('keeps a row’s file from being deleted in the media manager (in use), and takes no checklist file through POST /api/files', async () => {
    const { application } = await applicationWithChecklist(admin, branchA, ['Passport']);
    const [doc] = await checklist(admin, application.id);
    const up = await uploadInto(admin, doc.id).expect(200);
    const refused = await admin.delete(`/api/files/${up.body.file_id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('in a document checklist');
    const listed = await admin
      .get(`/api/files?owner_type=application_document&owner_id=${doc.id}`)
      .expect(200);
    expect(listed.body.items).toHaveLength(1);
    expect(listed.body.items[0]).toMatchObject({
      in_use: { kind: 'application_document' },
      can_delete: false,
      owner_url: `/students/application/${application.student_id}`,
    });
    expect(listed.body.items[0].owner_label).toContain('Passport');
    const direct = await admin
      .post('/api/files')
      .field('owner_type', 'application_document')
      .field('owner_id', String(doc.id))
      .attach('file', PDF, { filename: 'x.pdf', contentType: 'application/pdf' });
    expect(direct.status).toBe(422);
    expect(direct.body.error_keys.owner_type[0].key).toBe('chooseListed');
  });
});

describe('a checklist row’s file lost from the disk', () => {
  it('lets the row go of it when the orphans command removes its record: an uploaded row is pending again', async () => {
    const { application } = await applicationWithChecklist(admin, branchA, ['Passport', 'Photo']);
    const [uploaded, sent] = await checklist(admin, application.id);
    const a = await uploadInto(admin, uploaded.id).expect(200);
    const b = await uploadInto(admin, sent.id).expect(200);
    await admin.post(`/api/application-documents/${sent.id}/submit`).expect(200);
    const files = filesServiceOf({ db: t.db, config: t.config });
    for (const id of [a.body.file_id, b.body.file_id]) {
      fs.rmSync(path.join(uploadDir, (await fileRow(id))!.path));
      expect(await files.removeLost(id, systemContext())).not.toBeNull();
    }
    expect(await docRow(uploaded.id)).toMatchObject({ status: 'pending', file_id: null, uploaded_at: null });
    // what was sent to the school stays sent; it no longer holds a file
    expect(await docRow(sent.id)).toMatchObject({ status: 'submitted', file_id: null });
  });
});

describe('students’ and applications’ files', () => {
  const attach = (client: Client, ownerType: string, ownerId: number) =>
    client
      .post('/api/files')
      .field('owner_type', ownerType)
      .field('owner_id', String(ownerId))
      .attach('file', PDF, { filename: 'scan.pdf', contentType: 'application/pdf' });

  it('attaches to a student and to an application through POST /api/files, linked to their tabs, in the student’s branch', async () => {
    const { application, student } = await applicationWithChecklist(admin, branchA, []);
    const mine = await signIn(t, ['students.view', 'students.update', 'files.view'], { branchId: branchA });
    const other = await signIn(t, ['students.view', 'students.update', 'files.view'], { branchId: branchB });

    const passport = await attach(mine, 'student', student.id);
    expect(passport.status).toBe(201);
    expect(passport.body).toMatchObject({
      owner_type: 'student',
      owner_url: `/students/attachment/${student.id}`,
      branch_id: branchA,
    });
    const offer = await attach(mine, 'application', application.id);
    expect(offer.status).toBe(201);
    expect(offer.body).toMatchObject({ owner_url: `/students/admission/${student.id}`, branch_id: branchA });
    expect(offer.body.owner_label).toContain('CHAN');

    // another branch: the records do not exist for it, nor their files
    expect((await attach(other, 'student', student.id)).status).toBe(404);
    expect((await attach(other, 'application', application.id)).status).toBe(404);
    for (const id of [passport.body.id, offer.body.id]) await other.get(`/api/files/${id}`).expect(404);
    await other.get(`/api/files?owner_type=student&owner_id=${student.id}`).expect(404);
    const media = (await other.get('/api/files?per_page=100').expect(200)).body.items.map((f: Row) => f.id);
    expect(media).not.toContain(passport.body.id);
    expect(media).not.toContain(offer.body.id);
    await mine.get(`/api/files/${offer.body.id}`).expect(200);

    // an application's own files keep it from being deleted (a declared reference)
    const del = await admin.delete(`/api/students/${student.id}/applications/${application.id}`);
    expect(del.status).toBe(409);
    expect(del.body.references).toEqual({ files: 1 });
  });

  it('serves a grade report’s file field at its own path, in its student’s branch, in use in the media manager', async () => {
    const student = await createStudent(admin, branchA);
    const { school } = await applicationWithChecklist(admin, branchA, [], { student });
    const report = await admin
      .post(`/api/students/${student.id}/grade-reports`, { school_id: school.id, year: 2031, term: 'spring' })
      .expect(201);
    const url = `/api/grade-reports/${report.body.id}/file`;
    const other = await signIn(t, ['students.view', 'students.update'], { branchId: branchB });
    const before = await t.db('files').count({ n: '*' }).first();
    expect(
      (await other.post(url).attach('file', PDF, { filename: 'r.pdf', contentType: 'application/pdf' }))
        .status,
    ).toBe(404);
    expect(await t.db('files').count({ n: '*' }).first()).toEqual(before);
    const mine = await signIn(t, ['students.view', 'students.update'], { branchId: branchA });
    const up = await mine
      .post(url)
      .attach('file', PDF, { filename: 'report.pdf', contentType: 'application/pdf' });
    expect(up.status).toBe(200);
    const fileId = up.body.file_id;
    expect(await fileRow(fileId)).toMatchObject({ owner_type: 'grade_report', owner_id: report.body.id });
    await other.get(`/api/files/${fileId}`).expect(404);
    await mine.get(`/api/files/${fileId}`).expect(200);
    const refused = await admin.delete(`/api/files/${fileId}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('report file');
    const listed = await admin
      .get(`/api/files?owner_type=grade_report&owner_id=${report.body.id}`)
      .expect(200);
    expect(listed.body.items[0].owner_url).toBe(`/students/grade-report/${student.id}`);
  });
});

describe('branch scope of a checklist row (quality §15)', () => {
  it('answers 404 to another branch for the rows, their moves, their file and its download; its own branch works', async () => {
    const { application } = await applicationWithChecklist(admin, branchA, ['Passport', 'Photo']);
    const [doc, second] = await checklist(admin, application.id);
    const up = await uploadInto(admin, doc.id).expect(200);
    const permissions = ['students.view', 'students.update', 'students.delete', 'files.view', 'files.delete'];
    const other = await signIn(t, permissions, { branchId: branchB });
    const files = await t.db('files').count({ n: '*' }).first();

    await other.get(`/api/applications/${application.id}/documents`).expect(404);
    await other.get(`/api/application-documents/${doc.id}`).expect(404);
    const found = await other.get('/api/application-documents/lookup?q=Passport').expect(200);
    expect(found.body.map((r: Row) => r.id)).not.toContain(doc.id);
    for (const action of ['submit', 'cancel'])
      await other.post(`/api/application-documents/${doc.id}/${action}`).expect(404);
    expect((await uploadInto(other, second.id)).status).toBe(404);
    await other.delete(`/api/application-documents/${doc.id}/file`).expect(404);
    await other.get(`/api/files/${up.body.file_id}`).expect(404);
    await other.delete(`/api/files/${up.body.file_id}`).expect(404);
    await other.get(`/api/files?owner_type=application_document&owner_id=${doc.id}`).expect(404);
    const media = (await other.get('/api/files?per_page=100').expect(200)).body.items.map((f: Row) => f.id);
    expect(media).not.toContain(up.body.file_id);
    expect(await t.db('files').count({ n: '*' }).first()).toEqual(files);
    expect(await docRow(doc.id)).toMatchObject({ status: 'uploaded' });
    expect(await docRow(second.id)).toMatchObject({ status: 'pending', file_id: null });

    const mine = await signIn(t, permissions, { branchId: branchA });
    expect(await checklist(mine, application.id)).toHaveLength(2);
    await mine.post(`/api/application-documents/${doc.id}/submit`).expect(200);
    await uploadInto(mine, second.id).expect(200);
    await mine.get(`/api/files/${up.body.file_id}`).expect(200);
    const mediaMine = (await mine.get('/api/files?per_page=100').expect(200)).body.items.map(
      (f: Row) => f.id,
    );
    expect(mediaMine).toContain(up.body.file_id);
  });
});
