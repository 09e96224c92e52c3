import type { Knex } from 'knex';
import { changeEvents } from '../lib/change-events';

/**
 * Every write statement the app's knex instance runs — the repositories', a migration's, a test's written straight
 * to the database, raw SQL — tells the caches which table it touched (lib/change-events.ts): at once, as an
 * uncommitted change, and again when its connection goes back to the pool (after its COMMIT or ROLLBACK, or after
 * the statement itself outside a transaction), as a committed change that the other instances are told of.
 * No service has to remember to announce a write for a cache to stay true.
 */

/**
 * Columns whose update changes nothing a cache holds: the throttled activity stamps. Without this, every
 * session's once-a-minute touch would empty the session cache on every instance.
 */
const HARMLESS_COLUMNS: Record<string, ReadonlySet<string>> = {
  user_sessions: new Set(['last_active_at', 'updated_at', 'ip', 'user_agent']),
  users: new Set(['last_login_at', 'two_factor_last_step', 'updated_at']),
  api_tokens: new Set(['last_used_at', 'updated_at']),
};

/** Only rows that exist are cached, so a new browser-session row changes nothing a cache holds. */
const INSERT_HARMLESS: ReadonlySet<string> = new Set(['user_sessions']);

const READ_ONLY = /^\s*(select|pragma|show|explain|describe|begin|commit|rollback|savepoint|release|set)\b/i;
const WRITE_TARGET =
  /^\s*(insert\s+(?:ignore\s+)?into|replace\s+into|update|delete\s+from|truncate(?:\s+table)?)\s+[`"]?(\w+)[`"]?(?:\s+set\s+([\s\S]*?)\s+where\s)?/i;
const DDL = /^\s*(create|alter|drop|rename)\s+table\s+(?:if\s+(?:not\s+)?exists\s+)?[`"]?(\w+)/i;

/** The tables a statement changes, leaving out the harmless writes above (none for reads). */
export function tablesWrittenBy(sql: string): string[] {
  if (READ_ONLY.test(sql)) return [];
  const write = WRITE_TARGET.exec(sql);
  if (write) {
    const verb = write[1].toLowerCase();
    const table = write[2].toLowerCase();
    if (verb.startsWith('insert') && INSERT_HARMLESS.has(table)) return [];
    const harmless = HARMLESS_COLUMNS[table];
    if (verb === 'update' && harmless && write[3]) {
      const columns = [...write[3].matchAll(/[`"](\w+)[`"]\s*=/g)].map((m) => m[1]);
      if (columns.length && columns.every((c) => harmless.has(c))) return [];
    }
    return [table];
  }
  const ddl = DDL.exec(sql);
  return ddl ? [ddl[2].toLowerCase()] : [];
}

interface QueryEvent {
  sql?: string;
  __knexUid?: string;
}

const watched = new WeakSet<Knex>();

/** Installs the watcher on `db` (once; createDb does it for every instance the app makes). */
export function watchWrites(db: Knex): void {
  if (watched.has(db)) return;
  watched.add(db);
  // tables written on a connection, announced as committed when it goes back to the pool
  const pending = new Map<string, Set<string>>();
  db.on('query', (q: QueryEvent) => {
    if (!q.sql) return;
    const tables = tablesWrittenBy(q.sql);
    if (!tables.length) return;
    void changeEvents.emit(tables, 'uncommitted');
    if (!q.__knexUid) return;
    const set = pending.get(q.__knexUid) ?? new Set<string>();
    for (const table of tables) set.add(table);
    pending.set(q.__knexUid, set);
  });
  const client = db.client as { releaseConnection?: (connection: { __knexUid?: string }) => unknown };
  const release = client.releaseConnection;
  if (typeof release !== 'function') return;
  client.releaseConnection = function (this: unknown, connection) {
    const uid = connection?.__knexUid;
    const tables = uid ? pending.get(uid) : undefined;
    if (tables) {
      pending.delete(uid!);
      void changeEvents.emit([...tables]);
    }
    return release.call(this, connection);
  };
}
