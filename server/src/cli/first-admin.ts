/**
 * The first administrator of an install (`npm run admin:create`, server/src/cli/admin-create.ts). Its texts
 * are for the operator at the terminal, not API answers: it lives under cli/ (out of the message catalog).
 */
import type { Knex } from 'knex';
import { z } from 'zod';
import { LOCALES, type Locale } from '../../../shared/features';
import { PERMISSIONS } from '../../../shared/permissions';
import { SEEDED_ROLE_DESCRIPTIONS } from '../../../shared/resources/roles';
import { zEmail, zPassword } from '../../../shared/schemas/auth';
import { toDbDateTime } from '../lib/clock';
import { hashPassword } from '../lib/passwords';
import { auditService } from '../modules/audit/audit.service';
import { systemContext } from '../modules/files/file-orphans.service';
import { firstAdminRepository } from '../modules/users/first-admin.repository';
import { usersRepository } from '../modules/users/users.repository';

/** The role `admin:create` gives the first administrator; an existing role of this name is reused as it is. */
export const ADMIN_ROLE_NAME = 'Administrator';

/**
 * What `npm run admin:create` takes. The company and branch are used only when the database has none: a
 * fresh production install has no company, branch or role at all (the demo is never seeded there).
 */
export const ZFirstAdmin = z.object({
  name: z.string().trim().min(1, 'The name is required.').max(100),
  email: zEmail,
  password: zPassword,
  language: z.enum(LOCALES).default('zh_HK'),
  companyName: z.string().trim().min(1).max(200).default('Our agency'),
  companyCode: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,20}$/, 'The company code is 1–20 letters, digits, - or _.')
    .default('HQ'),
  branchName: z.string().trim().min(1).max(200).default('Head office'),
  branchCode: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,10}$/, 'The branch code is 1–10 letters, digits, - or _.')
    .default('HQ'),
});
export type FirstAdminInput = z.input<typeof ZFirstAdmin>;

export interface FirstAdminResult {
  userId: number;
  roleId: number;
  companyId: number;
  branchId: number;
  created: { role: boolean; company: boolean; branch: boolean };
}

/** Refused, with the reason in words the CLI prints as it is. */
export class FirstAdminError extends Error {}

/** Why a second run is refused, and the two ways on. */
export function alreadyExists(emails: string[]): string {
  return (
    `An administrator already exists (${emails.join(', ')}): nothing was changed. Sign in as that ` +
    'administrator and add users under Settings → Users, or run again with --force to create another ' +
    'administrator anyway.'
  );
}

/** The active administrators: `admin:create` runs once unless told explicitly to add another. */
export async function activeAdmins(db: Knex): Promise<{ id: number; email: string }[]> {
  const rows = await usersRepository.listActiveAdmins(db);
  return rows.map((r) => ({ id: Number(r.id), email: r.email }));
}

/**
 * Creates the first administrator of an install: the Administrator role with every permission over every
 * branch (when no role has that name), a first company and branch (when there are none), and the account —
 * `is_admin`, its email verified (whoever runs this on the server vouches for it), active. One transaction,
 * each row audited with the actor `system`. Refused when an active administrator exists unless `force`, so
 * that running it twice never silently adds a second all-powerful account.
 */
export async function createFirstAdmin(
  db: Knex,
  input: FirstAdminInput,
  options: { force?: boolean } = {},
): Promise<FirstAdminResult> {
  const parsed = ZFirstAdmin.safeParse(input);
  if (!parsed.success) {
    throw new FirstAdminError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n'));
  }
  const data = parsed.data;
  const admins = await activeAdmins(db);
  if (admins.length && !options.force) {
    throw new FirstAdminError(alreadyExists(admins.map((a) => a.email)));
  }
  if (await firstAdminRepository.findUserByEmail(db, data.email)) {
    throw new FirstAdminError(`A user with the email ${data.email} already exists: nothing was changed.`);
  }
  const passwordHash = await hashPassword(data.password);
  const ctx = systemContext();
  const now = toDbDateTime();
  const stamp = { created_at: now, updated_at: now };
  return db.transaction(async (trx) => {
    const created = { role: false, company: false, branch: false };
    let role = await firstAdminRepository.findRoleByName(trx, ADMIN_ROLE_NAME);
    if (!role) {
      const row = {
        name: ADMIN_ROLE_NAME,
        name_zh: '管理員',
        description: SEEDED_ROLE_DESCRIPTIONS.Administrator.en,
        description_zh: SEEDED_ROLE_DESCRIPTIONS.Administrator.zh,
        data_scope: 'all',
        permissions: JSON.stringify(PERMISSIONS),
      };
      const id = await firstAdminRepository.insertRole(trx, { ...row, ...stamp });
      role = { id };
      created.role = true;
      await auditService.record(trx, ctx, {
        action: 'create',
        entity: 'role',
        entityId: Number(id),
        after: row,
      });
    }
    let company = await firstAdminRepository.firstCompany(trx);
    if (!company) {
      const row = { code: data.companyCode, name_en: data.companyName, name_zh: data.companyName };
      const id = await firstAdminRepository.insertCompany(trx, { ...row, ...stamp });
      company = { id };
      created.company = true;
      await auditService.record(trx, ctx, {
        action: 'create',
        entity: 'company',
        entityId: Number(id),
        after: row,
      });
    }
    let branch = await firstAdminRepository.findBranchByCode(trx, data.branchCode);
    branch ??= await firstAdminRepository.firstActiveBranch(trx);
    if (!branch) {
      const row = {
        company_id: Number(company.id),
        code: data.branchCode,
        name_en: data.branchName,
        name_zh: data.branchName,
      };
      const id = await firstAdminRepository.insertBranch(trx, { ...row, ...stamp });
      branch = { id };
      created.branch = true;
      await auditService.record(trx, ctx, {
        action: 'create',
        entity: 'branch',
        entityId: Number(id),
        after: row,
      });
    }
    const user = {
      name: data.name,
      email: data.email,
      role_id: Number(role.id),
      branch_id: Number(branch.id),
      is_admin: true,
      is_active: true,
      language: data.language satisfies Locale,
      email_verified_at: now,
    };
    const userId = await firstAdminRepository.insertUser(trx, {
      ...user,
      password_hash: passwordHash,
      ...stamp,
    });
    await auditService.record(trx, ctx, {
      action: 'create',
      entity: 'user',
      entityId: Number(userId),
      after: user,
    });
    return {
      userId: Number(userId),
      roleId: Number(role.id),
      companyId: Number(company.id),
      branchId: Number(branch.id),
      created,
    };
  });
}
