import type { Trx } from '../../db/knex';
import { toDbDateTime } from '../../lib/clock';

export interface UserRow {
  id: number;
  name: string;
  email: string;
  password_hash: string;
  role_id: number | null;
  branch_id: number | null;
  is_admin: number | boolean;
  language: string;
  is_active: number | boolean;
  email_verified_at: string | null;
  two_factor_secret: string | null;
  two_factor_recovery_codes: string | null;
  two_factor_confirmed_at: string | null;
  two_factor_last_step: number | string | null;
  profile_photo_file_id: number | null;
}

export interface RoleRow {
  id: number;
  name: string;
  name_zh: string | null;
  data_scope: 'all' | 'branch';
  permissions: string;
}

export const usersRepository = {
  findByEmail(db: Trx, email: string): Promise<UserRow | undefined> {
    return db('users').whereRaw('lower(email) = ?', [email.toLowerCase()]).first();
  },
  findById(db: Trx, id: number): Promise<UserRow | undefined> {
    return db('users').where({ id }).first();
  },
  /** The branch a user belongs to: null for none, undefined when there is no such user. */
  async branchOf(db: Trx, id: number): Promise<number | null | undefined> {
    const row = await db('users').where({ id }).first('branch_id');
    if (!row) return undefined;
    return row.branch_id === null ? null : Number(row.branch_id);
  },
  /** The user's profile photo file, the row locked until the transaction ends (it is being replaced). */
  async lockProfilePhotoId(db: Trx, id: number): Promise<number | null> {
    const row = await db('users').where({ id }).forUpdate().first('profile_photo_file_id');
    return row?.profile_photo_file_id ? Number(row.profile_photo_file_id) : null;
  },
  findRole(db: Trx, id: number): Promise<RoleRow | undefined> {
    return db('roles').where({ id }).first();
  },
  /** The roles of these ids (one query for a page of users). */
  rolesByIds(db: Trx, ids: readonly number[]): Promise<RoleRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return db('roles').whereIn('id', [...new Set(ids)]);
  },
  /** Every role, by name: the choices a form filters by what the caller may grant. */
  allRoles(db: Trx): Promise<RoleRow[]> {
    return db('roles').orderBy('name');
  },
  branchesByIds(
    db: Trx,
    ids: readonly number[],
  ): Promise<{ id: number; code: string; name_en: string; name_zh: string }[]> {
    if (!ids.length) return Promise.resolve([]);
    return db('branches')
      .whereIn('id', [...new Set(ids)])
      .select('id', 'code', 'name_en', 'name_zh');
  },
  /** Branches by code, or only one (a branch-scoped caller's choices). */
  listBranches(
    db: Trx,
    onlyId: number | null | undefined,
  ): Promise<{ id: number; code: string; name_en: string; name_zh: string }[]> {
    const qb = db('branches').orderBy('code').select('id', 'code', 'name_en', 'name_zh');
    if (onlyId !== undefined) qb.where('id', onlyId ?? 0);
    return qb;
  },
  /** How many users outside `branchId` hold each of these roles. */
  async holdersOutsideBranch(
    db: Trx,
    roleIds: readonly number[],
    branchId: number | null,
  ): Promise<Map<number, number>> {
    if (!roleIds.length) return new Map();
    const rows: { role_id: number; n: number | string }[] = await db('users')
      .whereIn('role_id', [...new Set(roleIds)])
      .where((w) => {
        w.whereNull('branch_id');
        if (branchId !== null) w.orWhereNot('branch_id', branchId);
      })
      .groupBy('role_id')
      .select('role_id')
      .count({ n: '*' });
    return new Map(rows.map((r) => [Number(r.role_id), Number(r.n)]));
  },
  /** Which of these users have confirmed 2FA. */
  async twoFactorConfirmed(db: Trx, ids: readonly number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows: { id: number }[] = await db('users')
      .whereIn('id', [...ids])
      .whereNotNull('two_factor_confirmed_at')
      .select('id');
    return new Set(rows.map((r) => Number(r.id)));
  },
  /** The active admins, to tell them of a change to the mail, security or storage settings. */
  listActiveAdmins(db: Trx): Promise<Pick<UserRow, 'id' | 'name' | 'email' | 'language'>[]> {
    return db('users').where({ is_admin: true, is_active: true }).select('id', 'name', 'email', 'language');
  },
  findBranch(
    db: Trx,
    id: number,
  ): Promise<{ id: number; code: string; name_en: string; name_zh: string } | undefined> {
    return db('branches').where({ id }).first('id', 'code', 'name_en', 'name_zh');
  },
  async touchLastLogin(db: Trx, id: number): Promise<void> {
    await db('users').where({ id }).update({ last_login_at: toDbDateTime() });
  },
  async update(db: Trx, id: number, data: Partial<Record<string, unknown>>): Promise<void> {
    await db('users')
      .where({ id })
      .update({ ...data, updated_at: toDbDateTime() });
  },
  /** Compare-and-set on the last accepted TOTP step: true only for the one request that moved it forward. */
  async advanceTwoFactorStep(db: Trx, id: number, step: number): Promise<boolean> {
    const n = await db('users')
      .where({ id })
      .where((w) => w.whereNull('two_factor_last_step').orWhere('two_factor_last_step', '<', step))
      .update({ two_factor_last_step: step });
    return n === 1;
  },
  /** Compare-and-set on the recovery codes: a code is spent by exactly one request. */
  async replaceRecoveryCodes(db: Trx, id: number, expected: string, next: string): Promise<boolean> {
    const n = await db('users')
      .where({ id, two_factor_recovery_codes: expected })
      .update({ two_factor_recovery_codes: next, updated_at: toDbDateTime() });
    return n === 1;
  },
  async insert(db: Trx, row: Record<string, unknown>): Promise<number> {
    const now = toDbDateTime();
    const [id] = await db('users').insert({ ...row, created_at: now, updated_at: now });
    return Number(id);
  },
  /**
   * The ids of the active admins, their rows locked until the transaction ends (`SELECT … FOR UPDATE` on
   * MySQL/MariaDB; on SQLite the single writer serialises): two transactions that each take an admin away
   * see each other's result instead of the same stale count.
   */
  async lockActiveAdminIds(db: Trx): Promise<number[]> {
    const rows = await db('users').where({ is_admin: true, is_active: true }).forUpdate().select('id');
    return rows.map((r: { id: number | string }) => Number(r.id));
  },
  async countStudentsOfConsultant(db: Trx, id: number): Promise<number> {
    const row = await db('students').where({ consultant_user_id: id }).count({ n: '*' }).first();
    return Number(row?.n ?? 0);
  },
};
