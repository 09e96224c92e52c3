/**
 * `npm run backup -- --out <file>`: every table of the database (one consistent snapshot, while the app goes on
 * working) and the upload folder into one `.tar.gz` with a manifest (server/src/db/backup.ts). Reads DATABASE_URL
 * (or DB_*) and UPLOAD_DIR as the app does. Prints each table's row count and the files, and the archive's sha256.
 */
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { ConfigError, loadConfig } from '../config';
import { BackupError, createBackup } from '../db/backup';
import { createDb } from '../db/knex';
import { backupRefusalText } from './backup-messages';

function usage(): never {
  console.error('Usage: npm run backup -- --out <file.tar.gz>');
  process.exit(2);
}

async function run(args: readonly string[]): Promise<void> {
  const at = args.indexOf('--out');
  const out = at >= 0 ? args[at + 1] : undefined;
  if (!out || args.length !== 2) usage();
  const config = loadConfig();
  const db = createDb(config.databaseUrl);
  try {
    const started = Date.now();
    const manifest = await createBackup(db, config.uploadDir, out);
    const rows = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
    const bytes = manifest.uploads.reduce((sum, f) => sum + f.bytes, 0);
    for (const table of manifest.tables) console.log(`  ${table.name}: ${table.rows} rows`);
    const digest = createHash('sha256').update(fs.readFileSync(out)).digest('hex');
    console.log(
      `Backup written to ${out} in ${((Date.now() - started) / 1000).toFixed(1)} s: ${manifest.tables.length} tables, ` +
        `${rows} rows, ${manifest.uploads.length} uploaded files (${bytes} bytes); ${manifest.database} at migration ` +
        `${manifest.migrations[manifest.migrations.length - 1]}. sha256 ${digest}`,
    );
  } finally {
    await db.destroy();
  }
}

run(process.argv.slice(2)).catch((err) => {
  if (err instanceof BackupError) console.error(backupRefusalText(err.refusal));
  else console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
