/**
 * `npm run files:orphans [-- --delete]`: lists the files table's rows whose stored file is missing and the files
 * under `UPLOAD_DIR` that no row records (its temporary folder left out, and files of the last 15 minutes), with
 * totals. A dry run unless `--delete` is given: then the rows go through the files service (audited as `system`)
 * and the stray files are removed from the disk, and it prints what it removed.
 */
import { ConfigError, loadConfig } from '../config';
import { createDb } from '../db/knex';
import { createLocalStorage } from '../modules/files/file-storage';
import { createFilesService } from '../modules/files/files.service';
import {
  describeOrphans,
  describeRemoved,
  findOrphans,
  removeOrphans,
} from '../modules/files/file-orphans.service';

async function run(args: readonly string[]): Promise<void> {
  const unknown = args.filter((a) => a !== '--delete');
  if (unknown.length) {
    console.error('Usage: tsx server/src/cli/files-orphans.ts [--delete]');
    process.exitCode = 2;
    return;
  }
  const config = loadConfig();
  const db = createDb(config.databaseUrl);
  try {
    const files = createFilesService(db, createLocalStorage(config.uploadDir));
    const report = await findOrphans(db, files.storage);
    for (const line of describeOrphans(report)) console.log(line);
    if (!args.includes('--delete')) {
      if (report.totals.missing_rows || report.totals.unrecorded_files)
        console.log('Dry run: nothing was removed. Run with --delete to remove them.');
      return;
    }
    const removed = await removeOrphans(db, files, report);
    for (const line of describeRemoved(removed)) console.log(line);
  } finally {
    await db.destroy();
  }
}

run(process.argv.slice(2)).catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
