import { EventEmitter } from 'node:events';

/**
 * Tables whose rows changed, announced once the write has committed: caches of derived reads (the signed-in
 * caller's user, role and security settings; a list's count) drop what they hold for those tables. In-process:
 * one app process serves a deployment (docs/decisions).
 */
const bus = new EventEmitter();
bus.setMaxListeners(100);

export const changeEvents = {
  /** `tables` changed (after commit). */
  emit(tables: readonly string[]): void {
    if (tables.length) bus.emit('change', tables);
  },
  /** Calls `listener` with the changed tables; answers the unsubscribe. */
  on(listener: (tables: readonly string[]) => void): () => void {
    bus.on('change', listener);
    return () => bus.off('change', listener);
  },
};
