import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import type { RequestContext } from '../../http/context';
import type { FileStorage } from './file-storage';
import { filesRepository, type FileRow } from './files.repository';
import type { FilesService } from './files.service';

/** A file on the disk that no row records. */
export interface UnrecordedFile {
  /** relative to `UPLOAD_DIR`, with `/` */
  path: string;
  size_bytes: number;
}

/** What `npm run files:orphans` finds: rows whose bytes are lost, and bytes no row records. */
export interface OrphanReport {
  missingOnDisk: FileRow[];
  notRecorded: UnrecordedFile[];
  totals: {
    missing_rows: number;
    missing_bytes: number;
    unrecorded_files: number;
    unrecorded_bytes: number;
  };
}

export interface OrphanOptions {
  /**
   * files on the disk younger than this are left out: an upload is moved in a moment before its row commits, and
   * a deleted file's bytes go a moment after (default 15 minutes)
   */
  graceMs?: number;
  /** rows read at a time */
  batchSize?: number;
  now?: number;
}

export const ORPHAN_GRACE_MS = 15 * 60 * 1000;

/** Who the orphans command acts as in the audit log. */
export function systemContext(): RequestContext {
  return {
    actor: { type: 'system', id: null },
    branchScope: null,
    ip: null,
    userAgent: null,
    requestId: null,
    access: null,
    language: 'en',
  };
}

/** Every regular file under the storage root but its temporary folder, relative with `/`. */
async function* walk(
  storage: FileStorage,
  dir = storage.root,
): AsyncGenerator<{ relative: string; stat: fs.Stats }> {
  const entries = await fs.promises.readdir(dir, { withFileTypes: true });
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (full === storage.tmpDir) continue;
      yield* walk(storage, full);
    } else if (entry.isFile()) {
      const stat = await fs.promises.lstat(full);
      yield { relative: path.relative(storage.root, full).split(path.sep).join('/'), stat };
    }
  }
}

/**
 * Compares the files table with the disk: rows of this disk whose stored file is missing, and files under
 * `UPLOAD_DIR` (its temporary folder left out) that no row records. Reads the table in batches by id.
 */
export async function findOrphans(
  db: Knex,
  storage: FileStorage,
  options: OrphanOptions = {},
): Promise<OrphanReport> {
  const graceMs = options.graceMs ?? ORPHAN_GRACE_MS;
  const now = options.now ?? Date.now();
  const batchSize = options.batchSize ?? 500;
  const recorded = new Set<string>();
  const missingOnDisk: FileRow[] = [];
  for (let after = 0; ;) {
    const rows = await filesRepository.batchAfter(db, after, batchSize);
    for (const row of rows) {
      if (row.disk !== storage.disk) continue;
      recorded.add(row.path);
      if (!(await storage.exists(row.path))) missingOnDisk.push(row);
    }
    if (rows.length < batchSize) break;
    after = rows[rows.length - 1].id;
  }
  const notRecorded: UnrecordedFile[] = [];
  for await (const { relative, stat } of walk(storage)) {
    if (recorded.has(relative) || now - stat.mtimeMs < graceMs) continue;
    notRecorded.push({ path: relative, size_bytes: stat.size });
  }
  notRecorded.sort((a, b) => a.path.localeCompare(b.path));
  return {
    missingOnDisk,
    notRecorded,
    totals: {
      missing_rows: missingOnDisk.length,
      missing_bytes: missingOnDisk.reduce((n, f) => n + f.size_bytes, 0),
      unrecorded_files: notRecorded.length,
      unrecorded_bytes: notRecorded.reduce((n, f) => n + f.size_bytes, 0),
    },
  };
}

export interface OrphansRemoved {
  rows: FileRow[];
  files: UnrecordedFile[];
}

/**
 * Removes what `findOrphans` found, each checked again first: a lost file's row through the files service (what
 * used it lets go, an audit row by `system`), a stray file from the disk unless a row has recorded it since.
 */
export async function removeOrphans(
  db: Knex,
  files: FilesService,
  report: OrphanReport,
): Promise<OrphansRemoved> {
  const storage = files.storage;
  const ctx = systemContext();
  const removed: OrphansRemoved = { rows: [], files: [] };
  for (const row of report.missingOnDisk) {
    if (await storage.exists(row.path)) continue;
    const gone = await files.removeLost(row.id, ctx);
    if (gone) removed.rows.push(gone);
  }
  for (const file of report.notRecorded) {
    if (await filesRepository.findByPath(db, storage.disk, file.path)) continue;
    await storage.remove(file.path);
    removed.files.push(file);
  }
  return removed;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The report as the command prints it. */
export function describeOrphans(report: OrphanReport): string[] {
  const lines = [`Rows whose stored file is missing: ${report.totals.missing_rows}`];
  for (const row of report.missingOnDisk) {
    lines.push(
      `  #${row.id} ${row.path} (${row.original_name}, ${row.owner_type} ${row.owner_id}, ${kb(row.size_bytes)})`,
    );
  }
  lines.push(`Files on the disk without a row: ${report.totals.unrecorded_files}`);
  for (const file of report.notRecorded) lines.push(`  ${file.path} (${kb(file.size_bytes)})`);
  lines.push(
    `Total: ${report.totals.missing_rows} rows (${kb(report.totals.missing_bytes)}), ` +
      `${report.totals.unrecorded_files} files (${kb(report.totals.unrecorded_bytes)})`,
  );
  return lines;
}

export function describeRemoved(removed: OrphansRemoved): string[] {
  return [
    `Removed ${removed.rows.length} rows:`,
    ...removed.rows.map((row) => `  #${row.id} ${row.path}`),
    `Removed ${removed.files.length} files:`,
    ...removed.files.map((file) => `  ${file.path}`),
  ];
}
