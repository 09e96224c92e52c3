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
  two_factor_confirmed_at: string | null;
}

export interface RoleRow {
  id: number;
  name: string;
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
  findRole(db: Trx, id: number): Promise<RoleRow | undefined> {
    return db('roles').where({ id }).first();
  },
  async touchLastLogin(db: Trx, id: number): Promise<void> {
    await db('users').where({ id }).update({ last_login_at: toDbDateTime() });
  },
};
