import { hashPassword } from '../server/src/lib/passwords';
import type { Knex } from 'knex';
import { PERMISSIONS } from '../shared/permissions';
import { toDbDateTime } from '../server/src/lib/clock';
import { HOLIDAYS } from './data/holidays';
import { AREAS } from './data/areas';
import { OPTION_DEFAULTS } from './data/options';

export const DEMO_ADMIN = { email: 'admin@example.com', password: 'Admin1234' } as const;
export const DEMO_STUDENT = { email: 'student@example.com', password: 'Student1234' } as const;

const CONSULTANT_PERMISSIONS = [
  'dashboard.view',
  'calendar.view',
  'schools.view',
  'products.view',
  'special_events.view',
  ...['quotations', 'orders', 'receipts', 'students', 'files'].flatMap((m) => [
    `${m}.view`,
    `${m}.create`,
    `${m}.update`,
  ]),
  'student_categories.view',
  'reports.view',
];

/**
 * Reference data every installation starts with (safe in production): this year's holidays, the areas and
 * the option lists.
 */
export async function seedReference(db: Knex): Promise<void> {
  const now = toDbDateTime();
  const stamp = { created_at: now, updated_at: now };
  await db.transaction(async (trx) => {
    for (const h of HOLIDAYS) {
      const exists = await trx('holidays').where({ date: h.date }).first('id');
      if (!exists) await trx('holidays').insert({ ...h, ...stamp });
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
 * The embedded demo: a company, two branches, roles, the demo admin, three student categories and a portal
 * student. Only on the
 * embedded default (never in production), and only into an empty database. Returns whether it seeded.
 */
export async function seedDemo(db: Knex): Promise<boolean> {
  await seedReference(db);
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
      description: 'Every module, every branch',
      data_scope: 'all',
      permissions: JSON.stringify(PERMISSIONS),
      ...stamp,
    });
    await trx('roles').insert({
      name: 'Consultant',
      description: 'Students, quotations and invoices of their own branch',
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
    await trx('students').insert({
      student_no: 'STU-MK-2026-00001',
      category_id: general,
      branch_id: mk,
      surname_en: 'CHAN',
      given_name_en: 'Tai Man',
      name_zh: '陳大文',
      gender: 'M',
      email: DEMO_STUDENT.email,
      portal_email: DEMO_STUDENT.email,
      portal_password_hash: studentHash,
      portal_enabled: true,
      language: 'zh_HK',
      ...stamp,
    });
  });
  return true;
}
