import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type { Knex } from 'knex';
import * as tar from 'tar';
import { migrationSource } from '../../../migrations';
import { isMysql } from './knex';

/**
 * Backup and restore (issue 30, item 3; decision 0015): one `.tar.gz` holding
 *
 * - `manifest.json`: the format, when and from what kind of database, the migrations applied (the schema's version),
 *   every table with its row count, key and the sha256 of its file, every uploaded file with its size and sha256;
 * - `tables/<table>.jsonl`: every row of every table as a JSON line, read in key order, all tables inside one
 *   consistent snapshot (MariaDB/MySQL: `START TRANSACTION WITH CONSISTENT SNAPSHOT` on one connection, REPEATABLE
 *   READ; SQLite: one read transaction, which WAL keeps to one moment while the app goes on writing);
 * - `uploads/…`: the upload folder's files (its `.tmp` folder of uploads under way left out).
 *
 * A restore goes into an empty database of either kind and an empty upload folder: it checks the archive (every
 * sha256), migrates the new database to the backup's own migrations with this code's migrations (so SQLite and
 * MariaDB get the same tables, each in its own dialect), empties what the migrations filled in, loads the rows with
 * foreign key checks off, puts the files in place, counts and hashes again, and then migrates to this code's latest.
 */

export const BACKUP_FORMAT = 'study-abroad-backup';
const FORMAT_VERSION = 1;
/**
 * Rows read per query (key order); the most values one insert statement binds, and the most rows (SQLite writes a
 * multi-row insert as a compound SELECT, at most 500 terms).
 */
const READ_BATCH = 1000;
const MAX_BINDINGS = 10_000;
const MAX_INSERT_ROWS = 400;
/** knex's own bookkeeping: the migrations are the manifest's `migrations`, the lock is nobody's data. */
const KNEX_TABLES = new Set(['knex_migrations', 'knex_migrations_lock']);

export interface ManifestTable {
  name: string;
  rows: number;
  /** the columns it was read in order of (its primary key; every column when it has none) */
  key: string[];
  file: string;
  sha256: string;
}

export interface ManifestFile {
  path: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  created_at: string;
  database: 'sqlite' | 'mysql';
  /** the migrations the database had applied, in order: the last is the schema's version */
  migrations: string[];
  tables: ManifestTable[];
  uploads: ManifestFile[];
}

/**
 * Why a restore (or a backup) refuses: what the operator reads is worded by the CLI (cli/backup-messages.ts) from the
 * reason and its details.
 */
export type BackupRefusal =
  | { reason: 'no_file'; file: string }
  | { reason: 'not_a_backup'; file: string; detail: string }
  | { reason: 'newer'; migration: string; latest: string }
  | { reason: 'database_not_empty'; tables: string[] }
  | { reason: 'uploads_not_empty'; folder: string; files: number }
  | { reason: 'damaged'; entry: string; missing: boolean }
  | { reason: 'schema_mismatch'; table: string }
  | { reason: 'foreign_keys'; broken: number; table: string };

export class BackupError extends Error {
  constructor(readonly refusal: BackupRefusal) {
    super(refusal.reason);
    this.name = 'BackupError';
  }
}

type Row = Record<string, unknown>;

interface Reader {
  /** builds the snapshot's queries (the snapshot's transaction on SQLite) */
  k: Knex;
  /** runs a query on the snapshot's connection */
  run<T>(query: Knex.QueryBuilder | Knex.Raw): Promise<T>;
}

async function fileSha256(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** Every file under `dir` (relative, `/`-separated, sorted), leaving out `skip` at its top. */
function filesUnder(dir: string, skip: ReadonlySet<string> = new Set()): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (!rel && skip.has(entry.name)) continue;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) out.push(child);
    }
  };
  walk('');
  return out.sort();
}

/** The base tables of the database, sorted. */
async function tablesOf(db: Knex, reader: Reader = { k: db, run: (q) => q as never }): Promise<string[]> {
  const { k, run } = reader;
  if (isMysql(db)) {
    const [rows] = await run<[{ name: string }[]]>(
      k.raw(
        "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE'",
      ),
    );
    return rows.map((r) => r.name).sort();
  }
  const rows = await run<{ name: string }[]>(
    k.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"),
  );
  return rows.map((r) => r.name).sort();
}

/** A table's primary key columns in key order, or every column (in table order) when it has none. */
async function keyOf(db: Knex, table: string, reader: Reader): Promise<string[]> {
  const { k } = reader;
  if (isMysql(db)) {
    const [pk] = await reader.run<[{ name: string }[]]>(
      k.raw(
        "SELECT COLUMN_NAME AS name FROM information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND CONSTRAINT_NAME = 'PRIMARY' ORDER BY ORDINAL_POSITION",
        [table],
      ),
    );
    if (pk.length) return pk.map((c) => c.name);
    const [all] = await reader.run<[{ name: string }[]]>(
      k.raw(
        'SELECT COLUMN_NAME AS name FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION',
        [table],
      ),
    );
    return all.map((c) => c.name);
  }
  const info = await reader.run<{ name: string; pk: number }[]>(
    k.raw('SELECT name, pk FROM pragma_table_info(?)', [table]),
  );
  const pk = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  return (pk.length ? pk : info).map((c) => c.name);
}

/** The migrations the database has applied, in the order they ran. */
async function appliedMigrations(reader: Reader): Promise<string[]> {
  const rows = await reader.run<{ name: string }[]>(reader.k('knex_migrations').orderBy('id').select('name'));
  return rows.map((r) => r.name);
}

/**
 * Writes every row of `table` to `file` as JSON lines, read in key order: after the last key seen when the key is
 * one column (any size of table), else page by page in the key's order (small link tables), inside the snapshot.
 */
async function dumpTable(reader: Reader, table: string, key: string[], file: string): Promise<number> {
  const out = fs.createWriteStream(file);
  let failed: Error | null = null;
  out.on('error', (err) => (failed = err));
  let rows = 0;
  const write = async (line: string) => {
    if (failed) throw failed;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  };
  try {
    let last: unknown;
    for (let page = 0; ; page++) {
      const query = reader
        .k(table)
        .select('*')
        .orderBy(key.map((column) => ({ column })))
        .limit(READ_BATCH);
      if (key.length === 1) {
        if (last !== undefined) query.where(key[0], '>', last as Knex.Value);
      } else {
        query.offset(page * READ_BATCH);
      }
      const batch = await reader.run<Row[]>(query);
      for (const row of batch) await write(`${JSON.stringify(row)}\n`);
      rows += batch.length;
      if (batch.length < READ_BATCH) break;
      last = batch[batch.length - 1][key[0]];
    }
  } finally {
    await new Promise<void>((resolve, reject) =>
      out.end((err?: Error | null) => (err ? reject(err) : resolve())),
    );
  }
  return rows;
}

/**
 * Runs `work` on one snapshot of the database: MariaDB/MySQL on a connection of its own in a REPEATABLE READ, READ
 * ONLY transaction started `WITH CONSISTENT SNAPSHOT`; SQLite in one transaction (the first read fixes what it
 * sees).
 */
async function inSnapshot<T>(db: Knex, work: (reader: Reader) => Promise<T>): Promise<T> {
  if (!isMysql(db)) {
    return db.transaction(async (trx) =>
      work({ k: trx, run: <R>(q: Knex.QueryBuilder | Knex.Raw) => q as never as Promise<R> }),
    );
  }
  const client = db.client as unknown as {
    acquireConnection(): Promise<unknown>;
    releaseConnection(conn: unknown): Promise<unknown>;
  };
  const conn = await client.acquireConnection();
  const on = <R>(q: Knex.QueryBuilder | Knex.Raw) => q.connection(conn as never) as unknown as Promise<R>;
  try {
    await on(db.raw('SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ'));
    await on(db.raw('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY'));
    try {
      return await work({ k: db, run: on });
    } finally {
      await on(db.raw('COMMIT'));
    }
  } finally {
    await client.releaseConnection(conn);
  }
}

/**
 * `npm run backup -- --out <file>`: the database and the upload folder into one archive. Answers its manifest.
 * The app may go on writing meanwhile: the tables are one moment's; an upload made during the backup may be in
 * the archive without its row (an orphan, which `npm run files:orphans` finds), never a row without its file.
 */
export async function createBackup(db: Knex, uploadDir: string, out: string): Promise<Manifest> {
  const target = path.resolve(out);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const stage = fs.mkdtempSync(path.join(path.dirname(target), '.backup-'));
  try {
    fs.mkdirSync(path.join(stage, 'tables'));
    const { migrations, tables } = await inSnapshot(db, async (reader) => {
      const names = (await tablesOf(db, reader)).filter((name) => !KNEX_TABLES.has(name));
      const dumped: ManifestTable[] = [];
      for (const name of names) {
        const key = await keyOf(db, name, reader);
        const file = `tables/${name}.jsonl`;
        const rows = await dumpTable(reader, name, key, path.join(stage, file));
        dumped.push({ name, rows, key, file, sha256: (await fileSha256(path.join(stage, file))).sha256 });
      }
      return { migrations: await appliedMigrations(reader), tables: dumped };
    });
    // the files after the rows: every file a row of the snapshot names existed before it was read
    const uploadRoot = path.resolve(uploadDir);
    const uploads: ManifestFile[] = [];
    for (const rel of filesUnder(uploadRoot, new Set(['.tmp']))) {
      const { sha256, bytes } = await fileSha256(path.join(uploadRoot, rel));
      uploads.push({ path: rel, bytes, sha256 });
    }
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      version: FORMAT_VERSION,
      created_at: new Date().toISOString(),
      database: isMysql(db) ? 'mysql' : 'sqlite',
      migrations,
      tables,
      uploads,
    };
    fs.writeFileSync(path.join(stage, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    if (uploads.length) fs.symlinkSync(uploadRoot, path.join(stage, 'uploads'), 'dir');
    const partial = `${target}.partial-${randomBytes(4).toString('hex')}`;
    await tar.create({ gzip: true, file: partial, cwd: stage, portable: true }, [
      'manifest.json',
      ...tables.map((t) => t.file),
      ...uploads.map((f) => `uploads/${f.path}`),
    ]);
    fs.renameSync(partial, target);
    return manifest;
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

/** The archive's entries a restore reads: the manifest, table files and uploads, as plain files only. */
function wanted(entryPath: string, entry: tar.ReadEntry | fs.Stats): boolean {
  const type = (entry as tar.ReadEntry).type;
  if (type !== undefined && type !== 'File' && type !== 'OldFile' && type !== 'Directory') return false;
  return (
    entryPath === 'manifest.json' ||
    /^tables\/\w+\.jsonl$/.test(entryPath) ||
    /^uploads\//.test(entryPath) ||
    entryPath === 'tables/' ||
    entryPath === 'uploads/'
  );
}

async function readManifest(file: string, stage: string): Promise<Manifest> {
  if (!fs.existsSync(file)) throw new BackupError({ reason: 'no_file', file });
  try {
    await tar.extract({ file, cwd: stage, filter: (p) => p === 'manifest.json' });
  } catch (err) {
    throw new BackupError({ reason: 'not_a_backup', file, detail: (err as Error).message });
  }
  const at = path.join(stage, 'manifest.json');
  if (!fs.existsSync(at)) throw new BackupError({ reason: 'not_a_backup', file, detail: 'no manifest.json' });
  let manifest: Manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(at, 'utf8')) as Manifest;
  } catch (err) {
    throw new BackupError({ reason: 'not_a_backup', file, detail: (err as Error).message });
  }
  if (manifest?.format !== BACKUP_FORMAT || manifest.version !== FORMAT_VERSION) {
    throw new BackupError({
      reason: 'not_a_backup',
      file,
      detail: `format ${String(manifest?.format)} ${String(manifest?.version)}`,
    });
  }
  return manifest;
}

export interface RestoreReport {
  manifest: Manifest;
  /** every table with the rows the backup holds and the rows the target has now */
  tables: { name: string; backup: number; restored: number }[];
  /** every uploaded file with its sha256 in the backup and on the disk now */
  files: { path: string; backup: string; restored: string }[];
  /** migrations applied after the load (the backup was of an older version) */
  migratedAfter: string[];
}

/** Inserts `rows` (JSON lines of `file`) into `table`, a statement per batch. */
async function loadTable(
  db: Knex,
  table: string,
  file: string,
  insert: (table: string, rows: Row[]) => Promise<void>,
): Promise<number> {
  let batch: Row[] = [];
  let rows = 0;
  let perBatch = 0;
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    const row = JSON.parse(line) as Row;
    perBatch ||= Math.max(
      1,
      Math.min(MAX_INSERT_ROWS, Math.floor(MAX_BINDINGS / Math.max(1, Object.keys(row).length))),
    );
    batch.push(row);
    if (batch.length >= perBatch) {
      await insert(table, batch);
      rows += batch.length;
      batch = [];
    }
  }
  if (batch.length) {
    await insert(table, batch);
    rows += batch.length;
  }
  return rows;
}

/**
 * `npm run restore -- <file>`: the archive into an empty database and an empty upload folder (see the file's
 * comment). Refuses, changing nothing, a target database that has any table, an upload folder that holds any file,
 * a backup made by a newer version (a migration this code does not know) and a damaged archive.
 */
export async function restoreBackup(db: Knex, uploadDir: string, file: string): Promise<RestoreReport> {
  const archive = path.resolve(file);
  const uploadRoot = path.resolve(uploadDir);
  fs.mkdirSync(path.dirname(uploadRoot), { recursive: true });
  // beside the upload folder: the files are moved into place, not copied
  const stage = fs.mkdtempSync(path.join(path.dirname(uploadRoot), '.restore-'));
  try {
    const manifest = await readManifest(archive, stage);
    const known = await migrationSource.getMigrations([]);
    const unknown = manifest.migrations.filter((name) => !known.includes(name));
    if (unknown.length) {
      throw new BackupError({ reason: 'newer', migration: unknown[0], latest: known[known.length - 1] });
    }
    const existing = await tablesOf(db);
    if (existing.length) {
      throw new BackupError({ reason: 'database_not_empty', tables: existing });
    }
    const present = filesUnder(uploadRoot);
    if (present.length) {
      throw new BackupError({ reason: 'uploads_not_empty', folder: uploadRoot, files: present.length });
    }
    await tar.extract({ file: archive, cwd: stage, filter: wanted });
    for (const item of [
      ...manifest.tables,
      ...manifest.uploads.map((f) => ({ ...f, file: `uploads/${f.path}` })),
    ]) {
      const at = path.join(stage, item.file);
      const found = fs.existsSync(at) ? (await fileSha256(at)).sha256 : 'missing';
      if (found !== item.sha256) {
        throw new BackupError({ reason: 'damaged', entry: item.file, missing: found === 'missing' });
      }
    }

    // the backup's schema, made by this code's migrations in the target's dialect; the rows the migrations put in
    // (default settings) go, the backup's come
    await db.migrate.latest({
      migrationSource: {
        ...migrationSource,
        getMigrations: async () => manifest.migrations,
      },
    });
    const tables = (await tablesOf(db)).filter((name) => !KNEX_TABLES.has(name));
    const missing = manifest.tables.filter((t) => !tables.includes(t.name));
    if (missing.length) throw new BackupError({ reason: 'schema_mismatch', table: missing[0].name });
    await withoutForeignKeys(db, async (trx) => {
      for (const table of tables) await trx(table).delete();
      for (const table of manifest.tables) {
        await loadTable(db, table.name, path.join(stage, table.file), async (name, rows) => {
          await trx(name).insert(rows);
        });
      }
    });

    const uploads: RestoreReport['files'] = [];
    for (const item of manifest.uploads) {
      const from = path.join(stage, 'uploads', item.path);
      const to = path.join(uploadRoot, item.path);
      fs.mkdirSync(path.dirname(to), { recursive: true });
      try {
        fs.renameSync(from, to);
      } catch {
        fs.copyFileSync(from, to);
      }
      uploads.push({ path: item.path, backup: item.sha256, restored: (await fileSha256(to)).sha256 });
    }
    const counted: RestoreReport['tables'] = [];
    for (const table of manifest.tables) {
      const [{ n }] = (await db(table.name).count({ n: '*' })) as { n: number | string }[];
      counted.push({ name: table.name, backup: table.rows, restored: Number(n) });
    }
    const [, migratedAfter] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
    return { manifest, tables: counted, files: uploads, migratedAfter };
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

/**
 * Runs `work` in one transaction with foreign key checks off (the rows arrive table by table, in name order, a
 * self-reference too), and checks them afterwards on SQLite. MariaDB/MySQL: `FOREIGN_KEY_CHECKS` of the
 * transaction's connection; SQLite: `PRAGMA foreign_keys` outside the transaction, on its one connection.
 */
async function withoutForeignKeys(db: Knex, work: (trx: Knex.Transaction) => Promise<void>): Promise<void> {
  if (isMysql(db)) {
    await db.transaction(async (trx) => {
      await trx.raw('SET FOREIGN_KEY_CHECKS = 0');
      try {
        await work(trx);
      } finally {
        await trx.raw('SET FOREIGN_KEY_CHECKS = 1');
      }
    });
    return;
  }
  await db.raw('PRAGMA foreign_keys = OFF');
  try {
    await db.transaction(work);
  } finally {
    await db.raw('PRAGMA foreign_keys = ON');
  }
  const broken = (await db.raw('PRAGMA foreign_key_check')) as Row[];
  if (broken.length) {
    throw new BackupError({ reason: 'foreign_keys', broken: broken.length, table: String(broken[0].table) });
  }
}
