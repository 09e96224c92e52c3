/**
 * `npm run restore -- <file>`: a backup (`npm run backup`) into the empty database DATABASE_URL (or DB_*) names —
 * SQLite or MySQL/MariaDB, whichever the backup came from — and the empty UPLOAD_DIR (server/src/db/backup.ts).
 * Refuses a target that is not empty and a backup of a newer version, saying why and changing nothing. Prints every
 * table's rows and every file's sha256, the backup's beside the restored.
 */
import { ConfigError, loadConfig } from '../config';
import { BackupError, restoreBackup } from '../db/backup';
import { createDb } from '../db/knex';
import { backupRefusalText } from './backup-messages';

async function run(args: readonly string[]): Promise<void> {
  if (args.length !== 1 || args[0].startsWith('-')) {
    console.error('Usage: npm run restore -- <file.tar.gz>');
    process.exitCode = 2;
    return;
  }
  const config = loadConfig();
  const db = createDb(config.databaseUrl);
  try {
    const report = await restoreBackup(db, config.uploadDir, args[0]);
    let differ = 0;
    for (const t of report.tables) {
      if (t.backup !== t.restored) differ++;
      console.log(`  ${t.name}: ${t.backup} rows in the backup, ${t.restored} restored`);
    }
    for (const f of report.files) {
      if (f.backup !== f.restored) differ++;
      console.log(
        `  uploads/${f.path}: sha256 ${f.restored}${f.backup === f.restored ? '' : ` (backup: ${f.backup})`}`,
      );
    }
    console.log(
      `Restored ${report.tables.length} tables and ${report.files.length} files from ${report.manifest.database} ` +
        `(${report.manifest.created_at}) into ${config.databaseClient}: ${differ ? `${differ} differ` : 'every count and sha256 equal'}` +
        `${report.migratedAfter.length ? `; then applied ${report.migratedAfter.join(', ')}` : ''}.`,
    );
    if (differ) process.exitCode = 1;
  } finally {
    await db.destroy();
  }
}

run(process.argv.slice(2)).catch((err) => {
  if (err instanceof BackupError) console.error(backupRefusalText(err.refusal));
  else console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
