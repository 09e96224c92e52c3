import type { Knex } from 'knex';
import { toDbDateTime } from '../../src/lib/clock';
import { businessDate } from '../../src/modules/numbering/business-time';
import { Client, createBranch, createUser, type TestApp } from '../harness';
import { insertAnyRow } from '../resources/helpers';

type Row = Record<string, any>;

let seq = 0;

/** A number unique within the test process (names, codes, passports). */
export function nextSeq(): number {
  return ++seq;
}

/** The Hong Kong year a student number carries. */
export function businessYear(): number {
  return businessDate().getUTCFullYear();
}

/** `YYYY-MM-DD` of the Hong Kong date `days` days from today. */
export function dayFromToday(days: number): string {
  const d = businessDate();
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A branch with a readable code (the student number shows it). */
export function branch(t: TestApp, code?: string): Promise<number> {
  return createBranch(t.db, code ?? `B${nextSeq()}${Math.random().toString(36).slice(2, 5).toUpperCase()}`);
}

/** A staff member of `branchId` (a consultant to choose). */
export async function staffOf(t: TestApp, branchId: number): Promise<number> {
  const user = await createUser(t.db);
  await t.db('users').where({ id: user.id }).update({ branch_id: branchId });
  return user.id;
}

/** A create body for a student in `branchId`, with unique names. */
export function studentBody(branchId: number, extra: Row = {}): Row {
  const n = nextSeq();
  return { surname_en: `SURNAME${n}`, given_name_en: `Given${n}`, branch_id: branchId, ...extra };
}

/** Creates a student through the API (201 expected), answering the record. */
export async function createStudentVia(client: Client, branchId: number, extra: Row = {}): Promise<Row> {
  const res = await client.post('/api/students', studentBody(branchId, extra));
  if (res.status !== 201) throw new Error(`student create: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A school with one subject and one intake opening it (through the API), for applications written directly. */
export async function schoolWithIntake(
  admin: Client,
): Promise<{ schoolId: number; subjectId: number; admissionId: number }> {
  const n = nextSeq();
  const school = await admin.post('/api/schools', {
    code: `SS${n}`,
    name_en: `School ${n}`,
    name_zh: `學校 ${n}`,
  });
  if (school.status !== 201) throw new Error(`school: ${school.status} ${JSON.stringify(school.body)}`);
  const subject = await admin.post(`/api/schools/${school.body.id}/subjects`, {
    code: `SJ${n}`,
    name_en: `Subject ${n}`,
    name_zh: `課程 ${n}`,
  });
  if (subject.status !== 201) throw new Error(`subject: ${subject.status} ${JSON.stringify(subject.body)}`);
  const intake = await admin.post(`/api/schools/${school.body.id}/admissions`, {
    name_en: `Intake ${n}`,
    name_zh: `入學 ${n}`,
    year: 2027,
    application_start: '2027-01-10',
    application_deadline: '2027-02-20',
    subject_ids: [subject.body.id],
  });
  if (intake.status !== 201) throw new Error(`intake: ${intake.status} ${JSON.stringify(intake.body)}`);
  return { schoolId: school.body.id, subjectId: subject.body.id, admissionId: intake.body.id };
}

/** An application row written directly (the applications' own rules are another test's). */
export function insertApplication(
  db: Knex,
  studentId: number,
  intake: { schoolId: number; subjectId: number; admissionId: number },
): Promise<number> {
  return insertAnyRow(db, 'student_applications', {
    student_id: studentId,
    school_id: intake.schoolId,
    admission_id: intake.admissionId,
    subject_id: intake.subjectId,
  });
}

/** A student option value (status, nationality …) that exists in the options table. */
export async function optionValue(db: Knex, key: string, value: string): Promise<string> {
  const found = await db('options').where({ key, value }).first('id');
  if (!found) {
    const now = toDbDateTime();
    await db('options').insert({
      key,
      value,
      label_en: `${value} (en)`,
      label_zh: `${value}（中）`,
      sort_order: 0,
      is_active: true,
      created_at: now,
      updated_at: now,
    });
  }
  return value;
}

/** Rows of `table` matching `where`. */
export async function count(db: Knex, table: string, where: Row = {}): Promise<number> {
  const row = await db(table).where(where).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}
