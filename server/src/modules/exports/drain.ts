import type { Writable } from 'node:stream';

/** The reader went away: nothing more will be read. */
export class ExportAbandoned extends Error {}

/**
 * Resolves once `stream` has room again (at once when it has); rejects when `destination` — the response the stream
 * feeds, or the stream itself — closes first, so that an export whose reader went away stops instead of waiting.
 */
export async function drained(stream: Writable, destination: Writable = stream): Promise<void> {
  if (destination.destroyed || destination.writableEnded)
    throw new ExportAbandoned('the destination is closed');
  if (!stream.writableNeedDrain) return;
  await new Promise<void>((resolve, reject) => {
    const done = () => {
      stream.off('drain', done);
      destination.off('close', closed);
      resolve();
    };
    const closed = () => {
      stream.off('drain', done);
      reject(new ExportAbandoned('the destination closed'));
    };
    stream.on('drain', done);
    destination.once('close', closed);
  });
}
