import type { Knex } from 'knex';
import type { Features } from '../../../shared/features';
import type { PortalStudent, StaffUser } from '../http/context';
import { changeEvents, EVERY_TABLE } from '../lib/change-events';

/**
 * In-process cache of what authenticating a request reads: the browser-session row, the signed-in user with
 * role and permissions, the portal student, and the security settings. A warm request resolves its caller
 * without SQL (the session store's own read aside).
 *
 * Invalidation is by change events (lib/change-events.ts), never by time alone: every write statement to one of
 * these tables drops the family it feeds at once (db/write-watch.ts), again when it has committed, and on every
 * other instance before the writer answers (lib/instance-coherence.ts). A read started before an invalidation
 * is not stored (generation check). While an instance cannot hear the others (Redis away), nothing is answered
 * from here or kept. Entries also expire after `MAX_AGE_MS`, a safety net for writes made by another program.
 */

/** Which cached family a table's rows feed. */
const FAMILIES = {
  users: 'staff',
  roles: 'staff',
  students: 'students',
  settings: 'settings',
  user_sessions: 'sessions',
} as const;
type Family = (typeof FAMILIES)[keyof typeof FAMILIES];
const ALL_FAMILIES: readonly Family[] = ['staff', 'students', 'settings', 'sessions'];

const MAX_AGE_MS = 5 * 60_000;
const MAX_ENTRIES = 20_000;

class Memo<K, V> {
  private readonly map = new Map<K, { value: V; at: number }>();
  /** one read per key at a time: a burst of requests for a cold key waits for the same query */
  private readonly loading = new Map<K, Promise<V | null>>();
  private generation = 0;

  get(key: K, load: () => Promise<V | null | undefined>): Promise<V | null> {
    if (!changeEvents.cachesUsable()) return load().then((value) => value ?? null);
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
  if (tables.includes(EVERY_TABLE)) return [...ALL_FAMILIES];
  const out = new Set<Family>();
  for (const table of tables) {
    const family = (FAMILIES as Record<string, Family | undefined>)[table];
    if (family) out.add(family);
  }
  return [...out];
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

/** The cache of one database (apps on the same database in one process share it: a restarted app in tests). */
export function authCacheFor(db: Knex): AuthCache {
  const known = caches.get(db);
  if (known) return known;
  const created = new AuthCache();
  caches.set(db, created);
  live.add(new WeakRef(created));
  return created;
}
