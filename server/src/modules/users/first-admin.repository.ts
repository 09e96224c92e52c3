import type { Trx } from '../../db/knex';

type Inserted = Record<string, unknown>;

async function insertRow(db: Trx, table: string, row: Inserted): Promise<number> {
  const [id] = await db(table).insert(row);
  return Number(id);
}

/**
 * The rows `admin:create` (server/src/cli/first-admin.ts) reads and writes to give a fresh install its first
 * administrator: the Administrator role, a first company and branch, the account. Rows are inserted as given
 * (the caller sets `created_at`/`updated_at`, one time for the whole run).
 */
export const firstAdminRepository = {
  /** The user of exactly this email (as stored), if any. */
  findUserByEmail(db: Trx, email: string): Promise<{ id: number } | undefined> {
    return db('users').where({ email }).first('id');
  },
  findRoleByName(db: Trx, name: string): Promise<{ id: number } | undefined> {
    return db('roles').where({ name }).first('id');
  },
  /** The first company (lowest id), if there is one. */
  firstCompany(db: Trx): Promise<{ id: number } | undefined> {
    return db('companies').orderBy('id').first('id');
  },
  /** Any company at all: a fresh install has none. */
  anyCompany(db: Trx): Promise<{ id: number } | undefined> {
    return db('companies').first('id');
  },
  findBranchByCode(db: Trx, code: string): Promise<{ id: number } | undefined> {
    return db('branches').where({ code }).first('id');
  },
  /** The first active branch (lowest id), if there is one. */
  firstActiveBranch(db: Trx): Promise<{ id: number } | undefined> {
    return db('branches').where({ is_active: true }).orderBy('id').first('id');
  },
  /** Any branch at all: a fresh install has none. */
  anyBranch(db: Trx): Promise<{ id: number } | undefined> {
    return db('branches').first('id');
  },
  insertRole(db: Trx, row: Inserted): Promise<number> {
    return insertRow(db, 'roles', row);
  },
  insertCompany(db: Trx, row: Inserted): Promise<number> {
    return insertRow(db, 'companies', row);
  },
  insertBranch(db: Trx, row: Inserted): Promise<number> {
    return insertRow(db, 'branches', row);
  },
  insertUser(db: Trx, row: Inserted): Promise<number> {
    return insertRow(db, 'users', row);
  },
};
