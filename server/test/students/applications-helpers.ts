import { businessDate } from '../../src/modules/numbering/business-time';
import type { Client, TestApp } from '../harness';

/** Helpers of the application and document checklist tests: schools, intakes, students and applications via the API. */

type Row = Record<string, any>;

let seq = 0;
const next = () => `${++seq}${Math.random().toString(36).slice(2, 6).toUpperCase()}`;

/** `YYYY-MM-DD` of the Hong Kong date `days` days from today. */
export function hkDay(days: number): string {
  const d = businessDate();
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A 201 answer's body, or an error naming what failed. */
async function created(what: string, res: { status: number; body: Row }): Promise<Row> {
  if (res.status !== 201) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function createSchool(admin: Client, extra: Row = {}): Promise<Row> {
  const n = next();
  return created(
    'school',
    await admin.post('/api/schools', {
      code: `AS${n}`,
      name_en: `School ${n}`,
      name_zh: `學校${n}`,
      ...extra,
    }),
  );
}

export async function createSubject(admin: Client, schoolId: number): Promise<Row> {
  const n = next();
  return created(
    'subject',
    await admin.post(`/api/schools/${schoolId}/subjects`, {
      code: `AJ${n}`,
      name_en: `Subject ${n}`,
      name_zh: `課程${n}`,
    }),
  );
}

/** An intake opening `subjectIds`, with a checklist of `documents` (English names; Chinese ones derived). */
export async function createIntake(
  admin: Client,
  schoolId: number,
  opts: { subjectIds: number[]; documents?: string[]; deadline?: string; extra?: Row },
): Promise<Row> {
  const n = next();
  const deadline = opts.deadline ?? '2031-02-20';
  return created(
    'intake',
    await admin.post(`/api/schools/${schoolId}/admissions`, {
      name_en: `Intake ${n}`,
      name_zh: `入學期${n}`,
      year: Number(deadline.slice(0, 4)),
      application_deadline: deadline,
      subject_ids: opts.subjectIds,
      documents: (opts.documents ?? []).map((name, i) => ({
        name_en: name,
        name_zh: `${name}（中）`,
        is_required: i % 2 === 0,
      })),
      ...opts.extra,
    }),
  );
}

export async function createStudent(admin: Client, branchId: number, extra: Row = {}): Promise<Row> {
  const n = next();
  return created(
    'student',
    await admin.post('/api/students', {
      surname_en: 'CHAN',
      given_name_en: `Tai Man ${n}`,
      name_zh: `陳大文${n}`,
      branch_id: branchId,
      ...extra,
    }),
  );
}

/** `POST /api/students/:id/applications`, answered as is (the caller checks the status). */
export function postApplication(client: Client, studentId: number, body: Row) {
  return client.post(`/api/students/${studentId}/applications`, body);
}

export async function createApplication(client: Client, studentId: number, body: Row): Promise<Row> {
  return created('application', await postApplication(client, studentId, body));
}

/** A school, one subject and an intake opening it with a checklist of `documents`, and a student applying to it. */
export async function applicationWithChecklist(
  admin: Client,
  branchId: number,
  documents: string[],
  opts: { deadline?: string; student?: Row; school?: Row } = {},
): Promise<{ school: Row; subject: Row; intake: Row; student: Row; application: Row }> {
  const school = opts.school ?? (await createSchool(admin));
  const subject = await createSubject(admin, school.id);
  const intake = await createIntake(admin, school.id, {
    subjectIds: [subject.id],
    documents,
    deadline: opts.deadline,
  });
  const student = opts.student ?? (await createStudent(admin, branchId));
  const application = await createApplication(admin, student.id, {
    school_id: school.id,
    admission_id: intake.id,
    subject_id: subject.id,
  });
  return { school, subject, intake, student, application };
}

/** An application's checklist rows in the list's order (`GET /api/applications/:id/documents`). */
export async function checklist(client: Client, applicationId: number): Promise<Row[]> {
  const res = await client.get(`/api/applications/${applicationId}/documents?per_page=100`);
  if (res.status !== 200) throw new Error(`checklist: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.items;
}

/** A small real PDF (content-checked like every upload). */
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

/** `POST /api/application-documents/:id/file` with a PDF named `filename`. */
export function uploadInto(client: Client, documentId: number, filename = 'passport.pdf', content = PDF) {
  return client
    .post(`/api/application-documents/${documentId}/file`)
    .attach('file', content, { filename, contentType: 'application/pdf' });
}

/** The audit rows of one record, oldest first, with their changes parsed. */
export async function auditOf(t: TestApp, entity: string, entityId: number): Promise<Row[]> {
  const rows = await t.db('audit_logs').where({ entity, entity_id: entityId }).orderBy('id');
  return rows.map((row: Row) => ({
    ...row,
    changes: typeof row.changes === 'string' ? JSON.parse(row.changes) : row.changes,
  }));
}
