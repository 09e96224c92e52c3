/**
 * `npm start` builds the client only when it has to: when client/dist lacks an entry, or when any client
 * source, shared module or the build configuration is newer than the built entries.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'client', 'dist');
const outputs = ['index.html', 'portal.html'].map((f) => join(dist, f));
const SKIP = new Set(['dist', 'node_modules']);

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.endsWith('.test.ts') || entry.name.endsWith('.test.tsx')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry.name)));
  }
  return newest;
}

export function clientBuildIsStale(): string | null {
  const missing = outputs.find((f) => !existsSync(f));
  if (missing) return `${missing} is missing`;
  const built = Math.min(...outputs.map((f) => statSync(f).mtimeMs));
  const inputs = [join(root, 'client'), join(root, 'shared'), join(root, 'package-lock.json')];
  const newest = Math.max(...inputs.map(newestMtime));
  return newest > built ? 'client sources changed since the last build' : null;
}

const reason = clientBuildIsStale();
if (reason) {
  console.log(`build:client:if-needed: building (${reason})`);
  execFileSync('npx', ['vite', 'build', '--config', 'client/vite.config.ts'], {
    cwd: root,
    stdio: 'inherit',
  });
} else {
  console.log('build:client:if-needed: client/dist is up to date');
}
