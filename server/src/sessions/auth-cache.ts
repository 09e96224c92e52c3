import type { Knex } from 'knex';
import type { Features } from '../../../shared/features';
import type { PortalStudent, StaffUser } from '../http/context';
import { changeEvents } from '../lib/change-events';

/**
 * In-process cache of what authenticating a request reads: the browser-session row, the signed-in user with
 * role and permissions, the portal student, and the security settings. A warm request resolves its caller
 * without SQL (the session store's own read aside).
 *
 * Invalidation is explicit, never by time alone:
 * - `changeEvents` (lib/change-events.ts): services announce the tables they changed once committed;
 * - the database itself: every write statement the app's knex instance runs on one of these tables (the app's
 *   repositories, a migration, a test writing directly, raw SQL) drops the family it feeds — at once, and again
 *   when the connection goes back to the pool, i.e. after its transaction committed or rolled back, so a read
 *   that raced the transaction cannot keep the old row.
 * A read started before an invalidation is not stored (generation check). Entries also expire after
 * `MAX_AGE_MS`, a safety net for writes made outside this process (one process serves a deployment).
 */

/** Which cached family a table's rows feed. */
const FAMILIES = {
  users: 'staff',
  roles: 'staff',
  students: 'students',
  settings: 'settings',
  user_sessions: 'sessions',
} as const;
type Table = keyof typeof FAMILIES;
type Family = (typeof FAMILIES)[Table];

/**
 * Columns whose update changes nothing the cache holds: the throttled activity stamps. Without this, every
 * session's once-a-minute touch would empty the session cache for everyone.
 */
const HARMLESS_COLUMNS: Partial<Record<Table, ReadonlySet<string>>> = {
  user_sessions: new Set(['last_active_at', 'updated_at', 'ip', 'user_agent']),
  users: new Set(['last_login_at', 'two_factor_last_step']),
};

/** Only rows that exist are cached, so a new browser-session row invalidates nothing. */
const INSERT_HARMLESS: ReadonlySet<Table> = new Set(['user_sessions']);

const MAX_AGE_MS = 5 * 60_000;
const MAX_ENTRIES = 20_000;

class Memo<K, V> {
  private readonly map = new Map<K, { value: V; at: number }>();
  /** one read per key at a time: a burst of requests for a cold key waits for the same query */
  private readonly loading = new Map<K, Promise<V | null>>();
  private generation = 0;

  get(key: K, load: () => Promise<V | null | undefined>): Promise<V | null> {
    const hit = this.map.get(key);
    const now = Date.now();
    if (hit && now - hit.at < MAX_AGE_MS) return Promise.resolve(hit.value);
    const pending = this.loading.get(key);
    if (pending) return pending;
    const generation = this.generation;
    const read = load().then(
      (value) => {
        if (this.loading.get(key) === read) this.loading.delete(key);
        if (value === null || value === undefined) return null;
        // a read that an invalidation overtook may hold the old row: answered, not kept
        if (generation === this.generation) {
          if (this.map.size >= MAX_ENTRIES) this.map.clear();
          this.map.set(key, { value, at: now });
        }
        return value;
      },
      (err: unknown) => {
        if (this.loading.get(key) === read) this.loading.delete(key);
        throw err;
      },
    );
    this.loading.set(key, read);
    return read;
  }

  clear(): void {
    this.generation++;
    this.map.clear();
    // a read in flight began before the change: later callers read again
    this.loading.clear();
  }
}

export class AuthCache {
  readonly sessions = new Memo<string, CachedSession>();
  readonly staff = new Memo<number, { user: StaffUser; active: boolean }>();
  readonly students = new Memo<number, { student: PortalStudent; enabled: boolean }>();
  readonly settings = new Memo<'security', SecuritySettings>();

  invalidate(families: Iterable<Family>): void {
    for (const family of families) this[family].clear();
  }
}

/** The settings a request's authentication consults. */
export interface SecuritySettings {
  twoFactorRequired: boolean;
  features: Features;
}

/** The part of a browser-session row authentication needs; `lastActiveMs` is advanced by the throttled touch. */
export interface CachedSession {
  id: number;
  user_id: number | null;
  student_id: number | null;
  lastActiveMs: number;
}

function familiesOf(tables: readonly string[]): Family[] {
  const out = new Set<Family>();
  for (const table of tables) {
    const family = (FAMILIES as Record<string, Family | undefined>)[table];
    if (family) out.add(family);
  }
  return [...out];
}

const WATCHED = Object.keys(FAMILIES) as Table[];
const READ_ONLY = /^\s*(select|pragma|show|explain|describe|begin|commit|rollback|savepoint|release|set)\b/i;
const WRITE_TARGET =
  /^\s*(insert\s+(?:ignore\s+)?into|replace\s+into|update|delete\s+from)\s+[`"]?(\w+)[`"]?(?:\s+set\s+([\s\S]*?)\s+where\s)?/i;
const MENTIONS = new RegExp(`\\b(${WATCHED.join('|')})\\b`, 'gi');

/** The families a statement may change (none for reads and for the harmless writes above). */
export function familiesWrittenBy(sql: string): Family[] {
  if (READ_ONLY.test(sql)) return [];
  const write = WRITE_TARGET.exec(sql);
  if (write) {
    const verb = write[1].toLowerCase();
    const table = write[2] as Table;
    const family = (FAMILIES as Record<string, Family | undefined>)[table];
    if (!family) return [];
    if (verb.startsWith('insert') && INSERT_HARMLESS.has(table)) return [];
    const harmless = HARMLESS_COLUMNS[table];
    if (verb === 'update' && harmless && write[3]) {
      const columns = [...write[3].matchAll(/[`"](\w+)[`"]\s*=/g)].map((m) => m[1]);
      if (columns.length && columns.every((c) => harmless.has(c) || c === 'updated_at')) return [];
    }
    return [family];
  }
  // anything else that names a watched table (DDL, TRUNCATE, a raw statement): drop what it may touch
  return familiesOf(sql.match(MENTIONS)?.map((t) => t.toLowerCase()) ?? []);
}

interface QueryEvent {
  sql?: string;
  __knexUid?: string;
}

const caches = new WeakMap<Knex, AuthCache>();
const live = new Set<WeakRef<AuthCache>>();

changeEvents.on((tables) => {
  const families = familiesOf(tables);
  if (!families.length) return;
  for (const ref of live) {
    const cache = ref.deref();
    if (cache) cache.invalidate(families);
    else live.delete(ref);
  }
});

/**
 * The cache of one database (apps on the same database share it: a restarted app, a second instance in
 * tests). Installs the write watcher on first use.
 */
export function authCacheFor(db: Knex): AuthCache {
  const known = caches.get(db);
  if (known) return known;
  const created = new AuthCache();
  caches.set(db, created);
  live.add(new WeakRef(created));

  // writes seen on a connection, dropped again when it returns to the pool (after COMMIT / ROLLBACK)
  const pending = new Map<string, Set<Family>>();
  db.on('query', (q: QueryEvent) => {
    if (!q.sql) return;
    const families = familiesWrittenBy(q.sql);
    if (!families.length) return;
    created.invalidate(families);
    if (!q.__knexUid) return;
    const set = pending.get(q.__knexUid) ?? new Set<Family>();
    for (const f of families) set.add(f);
    pending.set(q.__knexUid, set);
  });
  const client = db.client as { releaseConnection?: (connection: { __knexUid?: string }) => unknown };
  const release = client.releaseConnection;
  if (typeof release === 'function') {
    client.releaseConnection = function (this: unknown, connection) {
      const uid = connection?.__knexUid;
      const families = uid ? pending.get(uid) : undefined;
      if (families) {
        pending.delete(uid!);
        created.invalidate(families);
      }
      return release.call(this, connection);
    };
  }
  return created;
}
