import type { Knex } from 'knex';
import { toDbDateTime } from '../../src/lib/clock';
import { addDays } from '../../src/modules/calendar/calendar.sources';
import { businessToday } from '../../src/modules/numbering/business-time';
import { createBranch, createUser } from '../harness';
import { insertAnyRow } from '../resources/helpers';

type Row = Record<string, unknown>;

export interface ExpectedMail {
  to: string;
  /** what the subject holds, in the recipient's language */
  subject: RegExp;
  /** what the text holds */
  text: RegExp[];
}

/**
 * An agency a few days before an intake's deadline, written straight to the database:
 *
 * - consultant Chan (zh_HK) looks after students A (portal open, English) and B (no portal), consultant Ng (en)
 *   after student C (portal open, Chinese);
 * - the intake "Spring" of Yonsei closes in 3 days: A and B applied (draft), C's application is submitted;
 *   A has Passport and Photo pending (Transcript uploaded), B Passport, C Passport;
 * - the intake "Autumn" closes in 30 days (outside the 7-day window): A applied, Passport pending.
 *
 * Due today: Chan's intake-deadline mail naming A and B (C is submitted); for each application to Spring the
 * pending documents to the student (A, C: the portal is open) and to the consultant (Chan twice, Ng once): six mails.
 */
export async function reminderScene(db: Knex) {
  const today = businessToday();
  const tag = Math.random().toString(36).slice(2, 7);
  const branchId = await createBranch(db);
  const consultant = async (language: string, name: string) => {
    const user = await createUser(db, { email: `${name.toLowerCase()}-${tag}@agency.test` });
    await db('users').where({ id: user.id }).update({ language, branch_id: branchId, name });
    return user;
  };
  const chan = await consultant('zh_HK', 'Chan');
  const ng = await consultant('en', 'Ng');
  const schoolId = await insertAnyRow(db, 'schools', { name_en: 'Yonsei University', name_zh: '延世大學' });
  const subjectId = await insertAnyRow(db, 'school_subjects', {
    school_id: schoolId,
    name_en: 'Korean Language',
    name_zh: '韓語',
  });
  const intake = (name_en: string, name_zh: string, days: number) =>
    insertAnyRow(db, 'school_admissions', {
      school_id: schoolId,
      name_en,
      name_zh,
      year: 2027,
      application_deadline: addDays(today, days),
    });
  const spring = await intake('Spring intake', '春季入學', 3);
  const autumn = await intake('Autumn intake', '秋季入學', 30);
  const now = toDbDateTime();
  const student = async (row: Row) => {
    const [id] = await db('students').insert({
      student_no: `R-${tag}-${String(row.surname_en)}`,
      branch_id: branchId,
      created_at: now,
      updated_at: now,
      ...row,
    });
    return Number(id);
  };
  const a = await student({
    surname_en: 'CHEUNG',
    given_name_en: 'Ka Yan',
    name_zh: '張嘉欣',
    consultant_user_id: chan.id,
    portal_enabled: true,
    portal_email: `ka-yan-${tag}@student.test`,
    language: 'en',
  });
  const b = await student({
    surname_en: 'LEE',
    given_name_en: 'Ho Yin',
    name_zh: '李浩然',
    consultant_user_id: chan.id,
    language: 'zh_HK',
  });
  const c = await student({
    surname_en: 'WONG',
    given_name_en: 'Siu Ming',
    name_zh: '黃小明',
    consultant_user_id: ng.id,
    portal_enabled: true,
    portal_email: `siu-ming-${tag}@student.test`,
    language: 'zh_HK',
  });
  const application = async (
    studentId: number,
    admissionId: number,
    status: string,
    docs: [string, string][],
  ) => {
    const [id] = await db('student_applications').insert({
      student_id: studentId,
      school_id: schoolId,
      admission_id: admissionId,
      subject_id: subjectId,
      status,
      created_at: now,
      updated_at: now,
    });
    let order = 0;
    for (const [name, docStatus] of docs) {
      await db('application_documents').insert({
        application_id: Number(id),
        name_en: name,
        name_zh: { Passport: '護照', Photo: '相片', Transcript: '成績單' }[name] ?? name,
        status: docStatus,
        sort_order: ++order,
        created_at: now,
        updated_at: now,
      });
    }
    return Number(id);
  };
  await application(a, spring, 'draft', [
    ['Passport', 'pending'],
    ['Transcript', 'uploaded'],
    ['Photo', 'pending'],
  ]);
  await application(b, spring, 'draft', [['Passport', 'pending']]);
  await application(c, spring, 'submitted', [['Passport', 'pending']]);
  await application(a, autumn, 'draft', [['Passport', 'pending']]);
  const deadline = addDays(today, 3);
  const expected: ExpectedMail[] = [
    {
      to: chan.email,
      subject: new RegExp(`^申請截止日 ${deadline}：延世大學（春季入學）$`),
      text: [/張嘉欣/, /李浩然/, /尚餘 3 日/],
    },
    {
      to: `ka-yan-${tag}@student.test`,
      subject: new RegExp(`^Documents still to upload before ${deadline}$`),
      text: [/Dear CHEUNG Ka Yan/, /- Passport\n- Photo\n/, /in 3 days/, /\/document$/m],
    },
    { to: chan.email, subject: /^文件未遞交：張嘉欣/, text: [/- 護照\n- 相片/] },
    { to: chan.email, subject: /^文件未遞交：李浩然/, text: [/- 護照/] },
    {
      to: `siu-ming-${tag}@student.test`,
      subject: new RegExp(`^請於 ${deadline} 前上載文件$`),
      text: [/黃小明您好/, /- 護照/],
    },
    { to: ng.email, subject: /^Documents pending: WONG Siu Ming/, text: [/- Passport/, /in 3 days/] },
  ];
  return { expected, chan, ng, students: { a, b, c }, branchId };
}
