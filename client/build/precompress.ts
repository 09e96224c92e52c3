import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';
import { isCompressible, PRECOMPRESSED_ENCODINGS } from '../../shared/precompressed';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const COMPRESS: Record<
  (typeof PRECOMPRESSED_ENCODINGS)[number]['encoding'],
  (data: Buffer) => Promise<Buffer>
> = {
  br: (data) =>
    brotli(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  gzip: (data) => gzipAsync(data, { level: constants.Z_BEST_COMPRESSION }),
};

/**
 * Writes `<file>.br` and `<file>.gz` beside each compressible file of `dir` named in `files` (brotli at its highest
 * quality, gzip at level 9), each only when it is smaller than the file itself: the server sends the file as it is
 * where there is no smaller sibling. Files in dot-folders (`.vite/manifest.json`) are not served and are skipped.
 * Returns the bytes written per encoding, for the build's log.
 */
export async function precompressFiles(
  dir: string,
  files: Iterable<string>,
): Promise<Record<string, number>> {
  const written: Record<string, number> = {};
  const chosen = [...files].filter((name) => isCompressible(name) && !/(^|\/)\./.test(name));
  await Promise.all(
    chosen.map(async (name) => {
      const path = join(dir, name);
      const data = await readFile(path);
      for (const { encoding, suffix } of PRECOMPRESSED_ENCODINGS) {
        const compressed = await COMPRESS[encoding](data);
        if (compressed.length >= data.length) continue;
        await writeFile(path + suffix, compressed);
        written[encoding] = (written[encoding] ?? 0) + compressed.length;
      }
    }),
  );
  return written;
}

/**
 * The build stores every text file of the bundle compressed beside itself, so the server sends brotli or gzip
 * without compressing while a request waits (see shared/precompressed.ts).
 */
export function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    async writeBundle(output, bundle) {
      if (!output.dir) this.error('precompress: the build has no output directory');
      const written = await precompressFiles(output.dir, Object.keys(bundle));
      const kib = (bytes = 0) => `${(bytes / 1024).toFixed(0)} KiB`;
      this.info(`precompressed: brotli ${kib(written.br)}, gzip ${kib(written.gzip)}`);
    },
  };
}
