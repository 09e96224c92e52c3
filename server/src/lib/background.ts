import { logger } from './logger';

/**
 * Work that runs after the reply, in this process: mail, mostly. A job that fails is logged (it never reaches
 * a caller who has been answered already); `flush` waits for the jobs under way (tests, shutdown).
 */
export function createBackgroundWork() {
  const pending = new Set<Promise<void>>();
  return {
    run(name: string, job: () => Promise<void>): void {
      const running: Promise<void> = Promise.resolve()
        .then(job)
        .catch((err: unknown) => {
          logger.warn('background job failed', { job: name, error: String((err as Error)?.message ?? err) });
        })
        .finally(() => pending.delete(running));
      pending.add(running);
    },
    /** Settles every job under way, and those they start. */
    async flush(): Promise<void> {
      while (pending.size) await Promise.allSettled([...pending]);
    },
  };
}

export type BackgroundWork = ReturnType<typeof createBackgroundWork>;
