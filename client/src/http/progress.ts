/**
 * Request progress events (spec §7: "each request signals a start and a finish event to a
 * page-progress indicator"). The HTTP client emits; the top progress bar listens.
 */
export type ProgressEvent = 'start' | 'finish';
type Listener = (event: ProgressEvent) => void;

const listeners = new Set<Listener>();

export const progressEvents = {
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  emit(event: ProgressEvent): void {
    for (const listener of [...listeners]) listener(event);
  },
};
