/**
 * The server as production runs it: `server/src/main.ts` and what it imports of ours (server, shared, migrations,
 * seeds) bundled by esbuild into one CommonJS file, `server/dist/main.js`, the packages left to node_modules.
 * `node server/dist/main.js` then loads plain JavaScript: no TypeScript compiler or loader thread in the process,
 * and no inline source map beside every module's source — about 30 MiB less resident memory per instance than
 * `node --import tsx server/src/main.ts` (decision 0019, "The server compiled"). `npm start` and the CLI commands
 * still run the sources under tsx.
 *
 * `npm run build:server` (part of `npm run build`). The file is written beside its final name and renamed, so a
 * process starting at that moment reads the old file or the new one, never half of one.
 */
import { renameSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { buildSync } from 'esbuild';

const root = resolve(__dirname, '..');

/** The built entry production runs. */
export const SERVER_BUNDLE = join(root, 'server', 'dist', 'main.js');

/**
 * Node's options production gives the built server (`node --heap-growing-percent=50 server/dist/main.js`: the image's
 * CMD, the README's systemd unit, `npm run cluster`, the tests and the bench's servers). V8 lets its old generation grow
 * up to four times what survived the last full collection before it collects again; under ten users' dashboards on a
 * busy machine a process that keeps about 40 MiB live grew to 100 MiB of old generation and 190 MiB resident before
 * an export. 1.5 times keeps it to about 140 MiB, at a cost the bench does not tell from noise (decision 0019).
 */
export const SERVER_NODE_OPTIONS = ['--heap-growing-percent=50'] as const;

/**
 * Bundles `entry` (a path from the repository's root) into `outfile`. The output sits two directories below the root,
 * as `server/src/main.ts` does, so that a path the code builds from `__dirname` (the client's `dist`) is the same.
 */
export function bundle(entry: string, outfile: string): string {
  const temporary = join(dirname(outfile), `.${process.pid}.${Date.now()}.tmp.js`);
  buildSync({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile: temporary,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    // a stack trace in the log names the function and its source file (the bundle keeps a comment per file); no
    // source map is loaded into the process
    keepNames: true,
    logLevel: 'warning',
  });
  renameSync(temporary, outfile);
  return outfile;
}

export function buildServer(): string {
  return bundle('server/src/main.ts', SERVER_BUNDLE);
}

// run as a script (`npm run build:server`), not when bundled into another file (the bench's servers)
if (/build-server\.[cm]?[jt]s$/.test(process.argv[1] ?? '')) {
  const out = buildServer();
  console.log(`build:server: ${out.slice(root.length + 1)}`);
}
