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
import * as catalogue from './20261127000011_catalogue';
import * as searchTermsTable from './20261127000011_search_terms';
import * as idempotencyKeys from './20261127000020_idempotency_keys';
import * as reminders from './20261128000030_reminders';
import * as reports from './20261128000030_reports';
import * as listPagingIndexes from './20261128000040_list_paging_indexes';
import * as roleDescriptions from './20261128000040_role_descriptions';
import * as sales from './20261128000040_sales';
import * as money from './20261128000050_money';
import * as moneySumsIndexes from './20261128000060_money_sums_indexes';
import * as dashboardOpenIndexes from './20261128000070_dashboard_open_indexes';

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
  '20261127000011_catalogue': catalogue,
  '20261127000011_search_terms': searchTermsTable,
  '20261127000020_idempotency_keys': idempotencyKeys,
  '20261128000030_reminders': reminders,
  '20261128000030_reports': reports,
  '20261128000040_list_paging_indexes': listPagingIndexes,
  '20261128000040_role_descriptions': roleDescriptions,
  '20261128000040_sales': sales,
  '20261128000050_money': money,
  '20261128000060_money_sums_indexes': moneySumsIndexes,
  '20261128000070_dashboard_open_indexes': dashboardOpenIndexes,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS),
  getMigrationName: (name) => name,
  getMigration: async (name) => MIGRATIONS[name],
};
