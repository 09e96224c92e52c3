import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { filesServiceOf } from '../../src/modules/files.module';
import { describeOrphans, findOrphans, removeOrphans } from '../../src/modules/files/file-orphans.service';
import { signedInAdmin, type Client, type TestApp } from '../harness';
import { PDF, PNG, createFilesTestApp } from './file-fixtures';
import { attach, createSchool } from './file-helpers';

/**
 * `npm run files:orphans`: rows whose stored file is missing, files on the disk that no row records (the
 * temporary folder and files of the last minutes left out); a dry run by default, `--delete` removes them —
 * rows through the files service (audited as `system`, what used them lets go), stray files from the disk.
 */

let t: TestApp;
let uploadDir: string;
let cleanup: () => Promise<void>;
let admin: Client;

beforeAll(async () => {
  ({ t, uploadDir, cleanup } = await createFilesTestApp());
  admin = await signedInAdmin(t);
});
afterAll(() => cleanup());

const HOUR_AGO = new Date(Date.now() - 60 * 60 * 1000);
const fileRow = (id: number) => t.db('files').where({ id }).first();

/** A file under UPLOAD_DIR that no row records, last changed `when`. */
function stray(relative: string, when: Date = HOUR_AGO): string {
  const full = path.join(uploadDir, relative);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, 'stray bytes');
  fs.utimesSync(full, when, when);
  return full;
}

/** A school attachment whose stored file is then lost. */
async function lostAttachment(schoolId: number): Promise<number> {
  const id = (await attach(admin, 'school', schoolId, PDF, 'lost.pdf').expect(201)).body.id;
  fs.rmSync(path.join(uploadDir, (await fileRow(id)).path));
  return id;
}

describe('files:orphans', () => {
  it('finds lost rows and stray files, and removes them with --delete', async () => {
    const school = await createSchool(admin);
    const kept = (await attach(admin, 'school', school.id, PDF, 'kept.pdf').expect(201)).body.id;
    const keptPath = path.join(uploadDir, (await fileRow(kept)).path);
    const lost = await lostAttachment(school.id);
    // a logo whose bytes are lost: in use, but its row goes and the school lets go of it
    const logo = (
      await admin
        .post(`/api/schools/${school.id}/logo`)
        .attach('file', PNG, { filename: 'logo.png', contentType: 'image/png' })
        .expect(200)
    ).body.logo_file_id;
    fs.rmSync(path.join(uploadDir, (await fileRow(logo)).path));
    const old = stray('2026/01/stray.pdf');
    const fresh = stray('2026/01/fresh.pdf', new Date());
    const temp = stray('.tmp/upload.part');

    const files = filesServiceOf(t);
    const report = await findOrphans(t.db, files.storage);
    expect(report.missingOnDisk.map((f) => f.id).sort()).toEqual([lost, logo].sort());
    expect(report.notRecorded).toEqual([{ path: '2026/01/stray.pdf', size_bytes: 11 }]);
    expect(report.totals).toEqual({
      missing_rows: 2,
      missing_bytes: PDF.length + PNG.length,
      unrecorded_files: 1,
      unrecorded_bytes: 11,
    });
    const text = describeOrphans(report).join('\n');
    expect(text).toContain('Rows whose stored file is missing: 2');
    expect(text).toContain(`#${lost} `);
    expect(text).toContain('2026/01/stray.pdf');
    // finding changes nothing
    expect(await fileRow(lost)).toBeDefined();
    expect(fs.existsSync(old)).toBe(true);

    const removed = await removeOrphans(t.db, files, report);
    expect(removed.rows.map((r) => r.id).sort()).toEqual([lost, logo].sort());
    expect(removed.files.map((f) => f.path)).toEqual(['2026/01/stray.pdf']);
    expect(await fileRow(lost)).toBeUndefined();
    expect(await fileRow(logo)).toBeUndefined();
    expect((await t.db('schools').where({ id: school.id }).first()).logo_file_id).toBeNull();
    const audit = await t
      .db('audit_logs')
      .where({ entity: 'file', action: 'delete' })
      .whereIn('entity_id', [lost, logo]);
    expect(audit.map((a) => [a.actor_type, a.actor_id])).toEqual([
      ['system', null],
      ['system', null],
    ]);
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.existsSync(fresh)).toBe(true);
    expect(fs.existsSync(temp)).toBe(true);
    expect(fs.existsSync(keptPath)).toBe(true);
    expect(await fileRow(kept)).toBeDefined();
    const again = await findOrphans(t.db, files.storage);
    expect(again.totals).toMatchObject({ missing_rows: 0, unrecorded_files: 0 });
    fs.rmSync(fresh);
    fs.rmSync(temp);
  });

  it('npm run files:orphans: a dry run lists and totals, --delete removes and says so', async () => {
    const school = await createSchool(admin);
    const lost = await lostAttachment(school.id);
    const old = stray('2026/02/left-behind.docx');
    const run = (...args: string[]) =>
      promisify(execFile)(
        process.execPath,
        [require.resolve('tsx/cli'), 'server/src/cli/files-orphans.ts', ...args],
        {
          cwd: path.resolve(__dirname, '../../..'),
          env: {
            ...process.env,
            NODE_ENV: 'test',
            LOG_LEVEL: 'silent',
            DATABASE_URL: t.config.databaseUrl,
            UPLOAD_DIR: uploadDir,
          },
        },
      );

    const dry = await run();
    expect(dry.stdout).toContain('Rows whose stored file is missing: 1');
    expect(dry.stdout).toContain(`#${lost} `);
    expect(dry.stdout).toContain('Files on the disk without a row: 1');
    expect(dry.stdout).toContain('2026/02/left-behind.docx');
    expect(dry.stdout).toContain('Dry run: nothing was removed.');
    expect(await fileRow(lost)).toBeDefined();
    expect(fs.existsSync(old)).toBe(true);

    const done = await run('--delete');
    expect(done.stdout).toContain('Removed 1 rows:');
    expect(done.stdout).toContain('Removed 1 files:');
    expect(await fileRow(lost)).toBeUndefined();
    expect(fs.existsSync(old)).toBe(false);
  }, 60_000);
});
