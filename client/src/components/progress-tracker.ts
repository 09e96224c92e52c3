import type { ProgressEvent } from '../http/progress';

/** Spec §9: the progress bar appears only when requests last longer than 250 ms. */
export const PROGRESS_DELAY_MS = 250;

/**
 * Counts requests in flight from their start/finish events and reports when the bar should be visible:
 * only once requests have been pending for `delayMs`, hidden as soon as none is pending.
 */
export function createProgressTracker(onChange: (visible: boolean) => void, delayMs = PROGRESS_DELAY_MS) {
  let active = 0;
  let visible = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const set = (next: boolean) => {
    if (next !== visible) {
      visible = next;
      onChange(next);
    }
  };
  return {
    handle(event: ProgressEvent): void {
      if (event === 'start') {
        active += 1;
        if (!visible && timer === null) {
          timer = setTimeout(() => {
            timer = null;
            if (active > 0) set(true);
          }, delayMs);
        }
        return;
      }
      active = Math.max(0, active - 1);
      if (active === 0) {
        if (timer !== null) clearTimeout(timer);
        timer = null;
        set(false);
      }
    },
    dispose(): void {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
