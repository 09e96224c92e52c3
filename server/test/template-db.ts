import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { createDb, migrateLatest } from '../src/db/knex';

/**
 * The run's migrated template database. Migrating a new database for every test file is most of the suite's time on
 * MariaDB (every migration's DDL, seconds a file on the 2-core CI machine); a test file's database is instead a copy
 * of one migrated once per run (jest's global setup): on MariaDB the template's tables as `SHOW CREATE TABLE` gives
 * them (keys, foreign keys and all) and their rows; on SQLite the template's file. `template-db.test.ts` holds the
 * copy to the database that migrating gives. Without a template (a test run some other way) each database migrates.
 */

const ENV = 'SA_TEST_TEMPLATE';

type Template =
  | { kind: 'mysql'; base: string; database: string; tables: { name: string; ddl: string; rows: number }[] }
  | { kind: 'sqlite'; file: string };

const mysqlBase = () => process.env.TEST_DATABASE_URL!.replace(/\/[^/]*$/, '');

function serverConnection(base: string, database = ''): Knex {
  // one connection: FOREIGN_KEY_CHECKS is the session's
  return knex({
    client: 'mysql2',
    connection: { uri: `${base}/${database}`, charset: 'utf8mb4' } as Knex.MySql2ConnectionConfig,
    pool: { min: 1, max: 1 },
  });
}

function readTemplate(): Template | null {
  const file = process.env[ENV];
  return file && fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Template) : null;
}

/** Jest's global setup: migrates the template and says where it is (the workers inherit the environment). */
export async function buildTemplate(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sa-template-'));
  let template: Template;
  if (process.env.TEST_DATABASE_URL?.startsWith('mysql://')) {
    const base = mysqlBase();
    const database = `sa_template_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const server = serverConnection(base);
    await server.raw(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await server.destroy();
    const db = createDb(`${base}/${database}`);
    try {
      await migrateLatest(db);
      const [names] = await db.raw(
        "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME",
        [database],
      );
      const tables = [];
      for (const { name } of names as { name: string }[]) {
        const [[created]] = await db.raw('SHOW CREATE TABLE ??', [name]);
        const [[{ n }]] = await db.raw('SELECT COUNT(*) AS n FROM ??', [name]);
        tables.push({ name, ddl: (created as Record<string, string>)['Create Table'], rows: Number(n) });
      }
      template = { kind: 'mysql', base, database, tables };
    } finally {
      await db.destroy();
    }
  } else {
    const file = path.join(dir, 'template.sqlite');
    const db = createDb(`sqlite:${file}`);
    await migrateLatest(db);
    // closing the only connection writes the WAL back into the file
    await db.destroy();
    template = { kind: 'sqlite', file };
  }
  const file = path.join(dir, 'template.json');
  fs.writeFileSync(file, JSON.stringify(template));
  process.env[ENV] = file;
}

/** Jest's global teardown. */
export async function dropTemplate(): Promise<void> {
  const template = readTemplate();
  if (!template) return;
  if (template.kind === 'mysql') {
    const server = serverConnection(template.base);
    await server.raw(`DROP DATABASE IF EXISTS \`${template.database}\``);
    await server.destroy();
  }
  fs.rmSync(path.dirname(process.env[ENV]!), { recursive: true, force: true });
}

/**
 * Makes the new, empty database `target` (its URL) a copy of the template; false when there is no template (the
 * caller migrates).
 */
export async function copyTemplate(target: string): Promise<boolean> {
  const template = readTemplate();
  if (!template) return false;
  if (template.kind === 'sqlite') {
    fs.copyFileSync(template.file, target.slice('sqlite:'.length));
    return true;
  }
  const db = serverConnection(template.base, target.slice(template.base.length + 1));
  try {
    await db.raw('SET FOREIGN_KEY_CHECKS = 0');
    for (const table of template.tables) {
      await db.raw(table.ddl);
      if (table.rows)
        await db.raw(`INSERT INTO ?? SELECT * FROM ??.??`, [table.name, template.database, table.name]);
    }
  } finally {
    await db.destroy();
  }
  return true;
}
