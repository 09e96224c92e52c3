import { AsyncLocalStorage } from 'node:async_hooks';
import { EventEmitter } from 'node:events';

/**
 * Tables whose rows changed, for the caches of derived reads (the signed-in caller's user, role, session and
 * security settings; a list's count; the names a list shows): they drop what they hold for those tables.
 *
 * A change reaches them three ways:
 * - `uncommitted`: a write statement was just sent (db/write-watch.ts), inside a transaction perhaps: this
 *   process drops at once, so nothing it reads while the transaction is open is kept;
 * - `committed`: the write is durable (the connection went back to the pool, or a service says so after its
 *   commit): this process drops again, and the change is **announced to every other instance**
 *   (`announceWith`: lib/instance-coherence.ts, through Redis);
 * - `remote`: another instance announced it (read at the start of each request): dropped here, not announced
 *   again.
 * `*` stands for every table (an instance lost its announcements while Redis was away).
 *
 * The announcements a request started are awaited before its answer is sent (`trackAnnouncements`), so the
 * caller's next request — on any instance — never meets a cache that still holds the old rows.
 */
export type ChangeOrigin = 'uncommitted' | 'committed' | 'remote';
export const EVERY_TABLE = '*';

type Listener = (tables: readonly string[], origin: ChangeOrigin) => void;
type Announcer = (tables: readonly string[]) => Promise<void>;

const bus = new EventEmitter();
bus.setMaxListeners(100);
const announcers = new Set<Announcer>();
/** the announcements the current request started, to await before it answers */
const requestAnnouncements = new AsyncLocalStorage<Promise<void>[]>();
/** while > 0, no cache may answer or keep anything (an instance cannot hear the others) */
let suspensions = 0;
/** bumped by every change to a table (`*`: to every table): what a cache read before a change is not kept */
const generations = new Map<string, number>();
let everyGeneration = 0;
bus.on('change', (tables: readonly string[]) => {
  if (tables.includes(EVERY_TABLE)) everyGeneration++;
  else for (const table of tables) generations.set(table, (generations.get(table) ?? 0) + 1);
});

export const changeEvents = {
  /**
   * `tables` changed. Answers once every other instance has been told (at once when there is none, or when the
   * change is not a committed one).
   */
  emit(tables: readonly string[], origin: ChangeOrigin = 'committed'): Promise<void> {
    if (!tables.length) return Promise.resolve();
    bus.emit('change', tables, origin);
    if (origin !== 'committed' || !announcers.size) return Promise.resolve();
    // an announcer deals with its own failure (it suspends the caches): the answer never rejects
    const told = Promise.all([...announcers].map((announce) => announce(tables).catch(() => undefined))).then(
      () => undefined,
    );
    requestAnnouncements.getStore()?.push(told);
    return told;
  },

  /** Calls `listener` with the changed tables; answers the unsubscribe. */
  on(listener: Listener): () => void {
    bus.on('change', listener);
    return () => bus.off('change', listener);
  },

  /** Tells other instances of committed changes (one announcer per Redis the process talks to). */
  announceWith(announcer: Announcer): () => void {
    announcers.add(announcer);
    return () => announcers.delete(announcer);
  },

  /** Runs `work` (a request) keeping the announcements it starts, for `announced`. */
  trackAnnouncements<T>(work: () => T): T {
    return requestAnnouncements.run([], work);
  },

  /** Settles once the announcements the current request started are out; null when there are none. */
  announced(): Promise<void> | null {
    const pending = requestAnnouncements.getStore();
    if (!pending?.length) return null;
    return Promise.all(pending.splice(0)).then(() => undefined);
  },

  /**
   * A text that changes with every change to any of `tables` (or to every table): a cache notes it before a read
   * and keeps what it read only if it is the same after, or answers what it holds only while it is the same.
   */
  generation(tables: readonly string[]): string {
    return `${everyGeneration}:${tables.map((table) => generations.get(table) ?? 0).join(',')}`;
  },

  /** Whether a cache may answer from, or keep, what it holds. */
  cachesUsable(): boolean {
    return suspensions === 0;
  },

  /**
   * No cache answers until `resume` (an instance that cannot hear the others fails closed); every cache is
   * emptied at once, and again on resuming.
   */
  suspendCaches(): void {
    suspensions++;
    bus.emit('change', [EVERY_TABLE], 'remote');
  },

  resumeCaches(): void {
    if (suspensions > 0) suspensions--;
    bus.emit('change', [EVERY_TABLE], 'remote');
  },
};

/** Whether a change to `tables` concerns `table` (`*` concerns every table). */
export function touches(tables: readonly string[], table: string): boolean {
  return tables.includes(table) || tables.includes(EVERY_TABLE);
}
