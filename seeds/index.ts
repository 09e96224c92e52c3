import { hashPassword } from '../server/src/lib/passwords';
import type { Knex } from 'knex';
import { PERMISSIONS } from '../shared/permissions';
import { SEEDED_ROLE_DESCRIPTIONS } from '../shared/resources/roles';
import { clock, toDbDateTime } from '../server/src/lib/clock';
import { searchTerms } from '../server/src/db/search';
import { numberingService } from '../server/src/modules/numbering/numbering.service';
import { HOLIDAYS } from './data/holidays';
import { AREAS } from './data/areas';
import { OPTION_DEFAULTS } from './data/options';
import { DEMO_SCHOOLS, type DemoIntake } from './data/schools';

export const DEMO_ADMIN = { email: 'admin@example.com', password: 'Admin1234' } as const;
export const DEMO_STUDENT = { email: 'student@example.com', password: 'Student1234' } as const;

const CONSULTANT_PERMISSIONS = [
  'dashboard.view',
  // their own calendar entries
  ...['view', 'create', 'update', 'delete'].map((a) => `calendar.${a}`),
  'schools.view',
  'products.view',
  'special_events.view',
  // the price list quotations pick from: read, not changed
  'quotation_items.view',
  ...['quotations', 'orders', 'receipts', 'students', 'files'].flatMap((m) => [
    `${m}.view`,
    `${m}.create`,
    `${m}.update`,
  ]),
  'student_categories.view',
  // every report group (decision 0019); exporting them is a manager's
  'reports.students',
  'reports.schools',
  'reports.orders',
  'reports.calendar',
];

/**
 * Reference data every installation starts with (safe in production, run at every production start): the
 * holidays, the areas and the option lists. Only what was never there is added, by its natural key — a year
 * of holidays when the table has none of that year, an option list when its key has no value, the areas when
 * there are none — so an agency's edits and deletions survive every restart.
 */
export async function seedReference(db: Knex): Promise<void> {
  const now = toDbDateTime();
  const stamp = { created_at: now, updated_at: now };
  await db.transaction(async (trx) => {
    const years = new Set(HOLIDAYS.map((h) => h.date.slice(0, 4)));
    for (const year of years) {
      const any = await trx('holidays')
        .whereBetween('date', [`${year}-01-01`, `${year}-12-31`])
        .first('id');
      if (any) continue;
      await trx('holidays').insert(
        HOLIDAYS.filter((h) => h.date.startsWith(year)).map((h) => ({ ...h, ...stamp })),
      );
    }
    // each option list is filled once, when it is empty: an admin's edits and deletions are kept
    const filled = new Set((await trx('options').distinct('key')).map((r: { key: string }) => r.key));
    const rows = Object.entries(OPTION_DEFAULTS)
      .filter(([key]) => !filled.has(key))
      .flatMap(([key, entries]) =>
        entries.map(([value, label_en, label_zh], i) => ({
          key,
          value,
          label_en,
          label_zh,
          sort_order: i + 1,
          ...stamp,
        })),
      );
    if (rows.length) await trx('options').insert(rows);
    if (!(await trx('areas').first('id'))) {
      for (const [i, area] of AREAS.entries()) {
        const { districts, ...fields } = area;
        const [id] = await trx('areas').insert({ ...fields, sort_order: i, ...stamp });
        for (const [j, d] of districts.entries()) {
          await trx('areas').insert({ ...d, parent_id: id, sort_order: j, ...stamp });
        }
      }
    }
  });
}

/**
 * The embedded demo (never in production): the reference data; into a database without users, a company, two
 * branches, roles, the demo admin, three student categories and a portal student; into one without schools, the
 * demo schools with their subjects and intakes and two calendar entries (`seedDemoSchools`); into one without
 * service categories, the demo services, a quotation item and a special event (`seedDemoCatalogue`). Each part is
 * seeded once; returns whether anything was.
 */
export async function seedDemo(db: Knex): Promise<boolean> {
  await seedReference(db);
  const accounts = await seedDemoAccounts(db);
  const schools = await seedDemoSchools(db);
  const records = await seedDemoStudentRecords(db);
  const catalogue = await seedDemoCatalogue(db);
  return accounts || schools || records || catalogue;
}

/** The demo's company, branches, roles and accounts: only into a database without users. */
async function seedDemoAccounts(db: Knex): Promise<boolean> {
  if (await db('users').first('id')) return false;
  const now = toDbDateTime();
  const stamp = { created_at: now, updated_at: now };
  const adminHash = await hashPassword(DEMO_ADMIN.password);
  const studentHash = await hashPassword(DEMO_STUDENT.password);
  await db.transaction(async (trx) => {
    const [companyId] = await trx('companies').insert({
      code: 'HKSA',
      name_en: 'Hong Kong Study Abroad Limited',
      name_zh: '香港留學顧問有限公司',
      address_en: 'Room 1201, 12/F, 688 Nathan Road, Mong Kok, Kowloon',
      address_zh: '九龍旺角彌敦道688號12樓1201室',
      phone: '+852 2388 0000',
      email: 'info@example.com',
      ...stamp,
    });
    const [mk] = await trx('branches').insert({
      company_id: companyId,
      code: 'MK',
      name_en: 'Mong Kok',
      name_zh: '旺角',
      ...stamp,
    });
    await trx('branches').insert({
      company_id: companyId,
      code: 'CWB',
      name_en: 'Causeway Bay',
      name_zh: '銅鑼灣',
      ...stamp,
    });
    const [adminRole] = await trx('roles').insert({
      name: 'Administrator',
      name_zh: '管理員',
      description: SEEDED_ROLE_DESCRIPTIONS.Administrator.en,
      description_zh: SEEDED_ROLE_DESCRIPTIONS.Administrator.zh,
      data_scope: 'all',
      permissions: JSON.stringify(PERMISSIONS),
      ...stamp,
    });
    await trx('roles').insert({
      name: 'Consultant',
      name_zh: '顧問',
      description: SEEDED_ROLE_DESCRIPTIONS.Consultant.en,
      description_zh: SEEDED_ROLE_DESCRIPTIONS.Consultant.zh,
      data_scope: 'branch',
      permissions: JSON.stringify(CONSULTANT_PERMISSIONS),
      ...stamp,
    });
    await trx('users').insert({
      name: 'Demo Admin',
      email: DEMO_ADMIN.email,
      password_hash: adminHash,
      role_id: adminRole,
      branch_id: mk,
      is_admin: true,
      language: 'zh_HK',
      email_verified_at: now,
      ...stamp,
    });
    const [general] = await trx('student_categories').insert({
      name_en: 'General',
      name_zh: '一般',
      color: '#1677ff',
      sort_order: 1,
      ...stamp,
    });
    await trx('student_categories').insert([
      { name_en: 'Scholarship', name_zh: '獎學金', color: '#52c41a', sort_order: 2, ...stamp },
      { name_en: 'Exchange', name_zh: '交換生', color: '#fa8c16', sort_order: 3, ...stamp },
    ]);
    const [studentId] = await trx('students').insert({
      // numbered as staff's new students are, so the next one follows it
      student_no: await numberingService.next(trx, 'student', Number(mk)),
      category_id: general,
      branch_id: mk,
      surname_en: 'CHAN',
      given_name_en: 'Tai Man',
      name_zh: '陳大文',
      // the name a Korean school writes (the Sino-Korean reading of 陳大文)
      name_ko: '진대문',
      gender: 'M',
      email: DEMO_STUDENT.email,
      portal_email: DEMO_STUDENT.email,
      portal_password_hash: studentHash,
      portal_enabled: true,
      language: 'zh_HK',
      ...stamp,
    });
    // written beside the machinery: its search terms too
    await searchTerms.refreshDeclared(trx, 'students', [Number(studentId)]);
  });
  return true;
}

/** The seed day in Hong Kong plus `offset` days, as `YYYY-MM-DD`. */
export function seedDay(offset: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Hong_Kong' }).format(clock.now());
  const [y, m, d] = today.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + offset)).toISOString().slice(0, 10);
}

const TERMS = {
  spring: { month: '03', en: 'Spring', zh: '春季' },
  fall: { month: '09', en: 'Fall', zh: '秋季' },
} as const;

/** The first term start (1 March, 1 September) on or after `date`, or (`skip` 1) the one after it. */
function termFrom(date: string, skip: number): { start: string; year: number; term: keyof typeof TERMS } {
  const starts: { start: string; year: number; term: keyof typeof TERMS }[] = [];
  const first = Number(date.slice(0, 4));
  for (let year = first; year <= first + 2; year++) {
    for (const term of ['spring', 'fall'] as const) {
      const start = `${year}-${TERMS[term].month}-01`;
      if (start >= date) starts.push({ start, year, term });
    }
  }
  return starts[skip];
}

/** Won as the money columns hold them: ×100 like every other currency (domain.md "Money"), shown without decimals. */
const krw = (won: number): number => won * 100;

/** An intake's rows: the intake, the subjects it opens, its checklist and its timetable milestone. */
async function seedIntake(
  trx: Knex.Transaction,
  schoolId: number,
  subjectIds: Map<string, number>,
  intake: DemoIntake,
  stamp: Record<string, string>,
): Promise<void> {
  const semester = termFrom(seedDay(100), intake.semester);
  const [admissionId] = await trx('school_admissions').insert({
    school_id: schoolId,
    name_en: `${semester.year} ${TERMS[semester.term].en}`,
    name_zh: `${semester.year} ${TERMS[semester.term].zh}`,
    year: semester.year,
    term: semester.term,
    application_start: seedDay(intake.application_start),
    application_deadline: seedDay(intake.application_deadline),
    interview_date: seedDay(intake.interview_date),
    result_date: seedDay(intake.result_date),
    semester_start: semester.start,
    application_fee: krw(intake.application_fee_won),
    currency: 'KRW',
    ...stamp,
  });
  await trx('admission_subjects').insert(
    intake.subjects.map((code) => ({ admission_id: admissionId, subject_id: subjectIds.get(code) })),
  );
  await trx('admission_documents').insert(
    intake.documents.map((doc, i) => ({ admission_id: admissionId, ...doc, sort_order: i })),
  );
  await trx('admission_timetable').insert({
    admission_id: admissionId,
    date: seedDay(intake.timetable.offset),
    title_en: intake.timetable.title_en,
    title_zh: intake.timetable.title_zh,
    sort_order: 0,
  });
}

/**
 * The demo schools (seeds/data/schools.ts) in Seoul's districts, their subjects and intakes dated from the seed
 * day, and two calendar entries of the first branch: only into a database without schools. Returns whether it
 * seeded.
 */
export async function seedDemoSchools(db: Knex): Promise<boolean> {
  if (await db('schools').first('id')) return false;
  const now = toDbDateTime();
  const stamp = { created_at: now, updated_at: now };
  await db.transaction(async (trx) => {
    const seoul = await trx('areas').where({ name_en: 'Seoul' }).whereNull('parent_id').first('id');
    for (const school of DEMO_SCHOOLS) {
      const { subjects, intakes, district_en, ...fields } = school;
      const district = seoul
        ? await trx('areas').where({ parent_id: seoul.id, name_en: district_en }).first('id')
        : undefined;
      const [schoolId] = await trx('schools').insert({
        ...fields,
        school_type: 'university',
        area_id: seoul?.id ?? null,
        district_id: district?.id ?? null,
        ...stamp,
      });
      const subjectIds = new Map<string, number>();
      for (const { tuition_won, ...subject } of subjects) {
        const [id] = await trx('school_subjects').insert({
          school_id: schoolId,
          ...subject,
          tuition_fee: krw(tuition_won),
          currency: 'KRW',
          ...stamp,
        });
        subjectIds.set(subject.code, Number(id));
      }
      for (const intake of intakes) await seedIntake(trx, Number(schoolId), subjectIds, intake, stamp);
    }
    const branch = await trx('branches').orderBy('id').first('id');
    const user = await trx('users').orderBy('id').first('id');
    if (branch && !(await trx('calendar_events').first('id'))) {
      const hk = (day: string, time: string) => toDbDateTime(Date.parse(`${day}T${time}+08:00`));
      await trx('calendar_events').insert([
        {
          title: '團隊會議：檢討入學申請',
          start_at: hk(seedDay(2), '10:00:00'),
          end_at: hk(seedDay(2), '11:00:00'),
          all_day: false,
          user_id: user?.id ?? null,
          branch_id: branch.id,
          remark: 'Review this month’s applications and deadlines.',
          ...stamp,
        },
        {
          title: 'TOPIK 報名提醒',
          start_at: hk(seedDay(7), '00:00:00'),
          end_at: null,
          all_day: true,
          user_id: user?.id ?? null,
          branch_id: branch.id,
          color: '#0958d9',
          ...stamp,
        },
      ]);
    }
  });
  return true;
}

/**
 * The demo student's records, so the student screens and the portal have something to show: passport and visa
 * details (the passport expiring within six months, so its warning shows), father and mother, primary and
 * secondary schooling, and an application to the first intake open today with its checklist (every document
 * pending). Only into a database whose demo student has no application yet, and only once schools exist.
 */
export async function seedDemoStudentRecords(db: Knex): Promise<boolean> {
  const student = await db('students').where({ email: DEMO_STUDENT.email }).first('id');
  if (!student || (await db('student_applications').where({ student_id: student.id }).first('id')))
    return false;
  const today = seedDay(0);
  const intake = await db('school_admissions')
    .where('application_start', '<=', today)
    .where('application_deadline', '>=', today)
    .orderBy('application_deadline')
    .first('id', 'school_id');
  const subject = intake
    ? await db('admission_subjects').where({ admission_id: intake.id }).orderBy('id').first('subject_id')
    : undefined;
  if (!intake || !subject) return false;
  const now = toDbDateTime();
  const stamp = { created_at: now, updated_at: now };
  await db.transaction(async (trx) => {
    await trx('students')
      .where({ id: student.id })
      .update({
        birth_date: '2007-05-14',
        nationality: 'HK',
        passport_no: 'K1234567',
        passport_expiry: seedDay(120),
        phone: '+852 9123 4567',
        application_email: DEMO_STUDENT.email,
        korean_level: 'beginner',
        topik_level: '2',
        status: 'applied',
        updated_at: now,
      });
    await searchTerms.refreshDeclared(trx, 'students', [Number(student.id)]);
    await trx('student_family_members').insert([
      {
        student_id: student.id,
        relationship: 'father',
        name_en: 'CHAN Kwok Keung',
        name_zh: '陳國強',
        occupation: 'Engineer',
        phone: '+852 9876 5432',
        is_emergency_contact: true,
        ...stamp,
      },
      {
        student_id: student.id,
        relationship: 'mother',
        name_en: 'LEE Mei Ling',
        name_zh: '李美玲',
        occupation: 'Teacher',
        // every row of a multi-row insert names the same columns (SQLite would take a missing one as NULL)
        phone: null,
        is_emergency_contact: false,
        ...stamp,
      },
    ]);
    await trx('student_educations').insert([
      {
        student_id: student.id,
        level: 'primary',
        school_name: 'Mong Kok Primary School',
        start_date: '2013-09-01',
        end_date: '2019-07-15',
        graduated: true,
        ...stamp,
      },
      {
        student_id: student.id,
        level: 'secondary',
        school_name: 'Kowloon Secondary School',
        start_date: '2019-09-01',
        end_date: '2025-07-15',
        graduated: true,
        ...stamp,
      },
    ]);
    const [applicationId] = await trx('student_applications').insert({
      student_id: student.id,
      school_id: intake.school_id,
      admission_id: intake.id,
      subject_id: subject.subject_id,
      priority: 1,
      status: 'draft',
      ...stamp,
    });
    const checklist = await trx('admission_documents')
      .where({ admission_id: intake.id })
      .orderBy('sort_order');
    if (checklist.length)
      await trx('application_documents').insert(
        checklist.map((doc) => ({
          application_id: applicationId,
          admission_document_id: doc.id,
          document_type: doc.document_type,
          name_en: doc.name_en,
          name_zh: doc.name_zh,
          is_required: doc.is_required,
          sort_order: doc.sort_order,
          status: 'pending',
          ...stamp,
        })),
      );
  });
  return true;
}

/**
 * The demo catalogue (issue 26): two service categories and their services (HKD, and tuition collected in KRW),
 * a quotation item for the first demo school's first intake and subject it opens, and a briefing whose registration
 * is open from three days before the seed day for two weeks: only into a database without service categories.
 */
export async function seedDemoCatalogue(db: Knex): Promise<boolean> {
  if (await db('product_categories').first('id')) return false;
  const now = toDbDateTime();
  const stamp = { created_at: now, updated_at: now };
  await db.transaction(async (trx) => {
    const categories: [string, string][] = [
      ['Application services', '申請服務'],
      ['Visa and accommodation', '簽證及住宿'],
    ];
    const ids: number[] = [];
    for (const [i, [name_en, name_zh]] of categories.entries()) {
      const [id] = await trx('product_categories').insert({ name_en, name_zh, sort_order: i, ...stamp });
      ids.push(Number(id));
    }
    const services: [number, string, string, string, string, number, string][] = [
      [0, 'APP-UNI', 'University application handling', '大學申請手續', 'item', 880_000, 'HKD'],
      [0, 'APP-LANG', 'Language institute application', '語學堂申請手續', 'item', 480_000, 'HKD'],
      [1, 'VISA-D4', 'D-4 visa service', 'D-4 簽證服務', 'item', 150_000, 'HKD'],
      [1, 'DORM', 'Dormitory arrangement', '宿舍安排', 'term', krw(300_000), 'KRW'],
    ];
    const productIds: number[] = [];
    for (const [category, code, name_en, name_zh, unit, price, currency] of services) {
      const [id] = await trx('products').insert({
        category_id: ids[category],
        code,
        name_en,
        name_zh,
        unit,
        price,
        currency,
        ...stamp,
      });
      productIds.push(Number(id));
    }
    const school = await trx('schools').orderBy('id').first('id', 'name_en', 'name_zh');
    const intake = school
      ? await trx('school_admissions').where({ school_id: school.id }).orderBy('id').first('id')
      : undefined;
    const opened = intake
      ? await trx('admission_subjects').where({ admission_id: intake.id }).orderBy('id').first('subject_id')
      : undefined;
    if (school && intake && opened) {
      await trx('quotation_items').insert({
        code: 'PKG-KU-LANG',
        name_en: `${String(school.name_en)} package`,
        name_zh: `${String(school.name_zh)}套餐`,
        product_id: productIds[1],
        school_id: school.id,
        admission_id: intake.id,
        subject_id: opened.subject_id,
        unit: 'term',
        unit_price: krw(1_800_000),
        currency: 'KRW',
        ...stamp,
      });
    }
    const hk = (day: string, time: string) => toDbDateTime(Date.parse(`${day}T${time}+08:00`));
    await trx('special_events').insert({
      event_type: 'briefing',
      title_en: 'Studying in Korea: briefing session',
      title_zh: '韓國升學簡介會',
      reg_start_date: seedDay(-3),
      reg_end_date: seedDay(11),
      event_start: hk(seedDay(12), '19:00:00'),
      event_end: hk(seedDay(12), '21:00:00'),
      venue: 'Mong Kok office',
      school_id: school?.id ?? null,
      capacity: 40,
      ...stamp,
    });
  });
  return true;
}
