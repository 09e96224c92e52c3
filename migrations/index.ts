import type { Knex } from 'knex';
import * as foundation from './20261122000001_foundation';
import * as students from './20261122000002_students';
import * as accounts from './20261122000003_accounts';
import * as reference from './20261122000004_reference';
import * as files from './20261122000005_files';
import * as security from './20261124000006_security';
import * as listIndexes from './20261125000007_list_indexes';
import * as schools from './20261125000008_schools';
import * as studentRecords from './20261126000009_student_records';
import * as roleNames from './20261126000010_role_names';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** Every migration, in order. Imported statically so the CLI, the server and the tests run the same code. */
const MIGRATIONS: Record<string, Migration> = {
  '20261122000001_foundation': foundation,
  '20261122000002_students': students,
  '20261122000003_accounts': accounts,
  '20261122000004_reference': reference,
  '20261122000005_files': files,
  '20261124000006_security': security,
  '20261125000007_list_indexes': listIndexes,
  '20261125000008_schools': schools,
  '20261126000009_student_records': studentRecords,
  '20261126000010_role_names': roleNames,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS),
  getMigrationName: (name) => name,
  getMigration: async (name) => MIGRATIONS[name],
};
