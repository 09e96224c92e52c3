/**
 * Bundle-size benchmark (issue 3, point 10). Builds the client, then prints the gzip size of
 *  - the first load of each entry: the entry's JS and CSS plus everything it imports statically, and
 *  - the largest lazy route: a dynamically imported chunk plus the static imports it adds on top of the
 *    first load of the entry that imports it,
 * against the targets (back-office ≤ 250 KiB, portal ≤ 200 KiB, any route ≤ 375 KiB). Exits 1 on a miss.
 * Named routes (the calendar's, which carry FullCalendar) get a line of their own, measured the same way.
 *
 *   npm run bench:bundle            (build, then measure)
 *   npm run bench:bundle -- --no-build
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'client', 'dist');
const KiB = 1024;
const TARGETS = { 'index.html': 250, 'portal.html': 200, route: 375 } as const;
const LABELS: Record<string, string> = { 'index.html': 'back-office', 'portal.html': 'portal' };
/** Routes printed by name: the page module (as the manifest names it) of each. */
const NAMED_ROUTES: { label: string; src: string }[] = [
  { label: 'calendar route', src: 'src/features/calendar/calendar-page.tsx' },
  { label: 'calendar list route', src: 'src/features/calendar/calendar-list-page.tsx' },
];

if (!process.argv.includes('--no-build')) {
  execFileSync('npx', ['vite', 'build', '--config', 'client/vite.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
}

const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
const gzCache = new Map<string, number>();
function gz(file: string): number {
  let size = gzCache.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
    gzCache.set(file, size);
  }
  return size;
}

/** Files loaded with a chunk: itself, its CSS, and all it imports statically (transitively). */
function staticClosure(key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) staticClosure(dep, seen);
  return seen;
}
function files(keys: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const key of keys) {
    const chunk = manifest[key];
    out.add(chunk.file);
    for (const css of chunk.css ?? []) out.add(css);
  }
  return out;
}
const sum = (set: Iterable<string>) => [...set].reduce((n, f) => n + gz(f), 0);
const kib = (bytes: number) => (bytes / KiB).toFixed(1);

let failed = false;
const lines: string[] = [];
let largestRoute = { name: '', bytes: 0, entry: '' };
const namedBytes = new Map<string, number>();

for (const entry of ['index.html', 'portal.html'] as const) {
  if (!manifest[entry]) throw new Error(`${entry} is missing from the build manifest`);
  const firstKeys = staticClosure(entry);
  const firstFiles = files(firstKeys);
  const first = sum(firstFiles);
  const target = TARGETS[entry];
  const ok = first <= target * KiB;
  failed ||= !ok;
  lines.push(
    `${LABELS[entry].padEnd(12)} first load  ${kib(first).padStart(7)} KiB gzip  (target ≤ ${target} KiB)  ${ok ? 'ok' : 'OVER'}  [${firstFiles.size} files]`,
  );

  // Every lazily imported module reachable from this entry (routes, layouts, and what they import lazily).
  const lazy = new Set<string>();
  const queue = [...firstKeys];
  while (queue.length > 0) {
    const key = queue.pop()!;
    for (const dyn of manifest[key]?.dynamicImports ?? []) {
      if (!lazy.has(dyn)) {
        lazy.add(dyn);
        queue.push(...staticClosure(dyn));
      }
    }
  }
  for (const dyn of lazy) {
    const extra = [...files(staticClosure(dyn))].filter((f) => !firstFiles.has(f));
    const bytes = sum(extra);
    const src = manifest[dyn].src ?? dyn;
    if (NAMED_ROUTES.some((route) => route.src === src)) namedBytes.set(src, bytes);
    if (bytes > largestRoute.bytes)
      largestRoute = { name: manifest[dyn].src ?? dyn, bytes, entry: LABELS[entry] };
  }
}

const routeOk = largestRoute.bytes <= TARGETS.route * KiB;
failed ||= !routeOk;
lines.push(
  `${'largest route'.padEnd(12)}  ${kib(largestRoute.bytes).padStart(7)} KiB gzip  (target ≤ ${TARGETS.route} KiB)  ${routeOk ? 'ok' : 'OVER'}  [${largestRoute.name}, ${largestRoute.entry}]`,
);

for (const route of NAMED_ROUTES) {
  const bytes = namedBytes.get(route.src);
  if (bytes === undefined) throw new Error(`${route.src} is not a lazy route of the build`);
  const ok = bytes <= TARGETS.route * KiB;
  failed ||= !ok;
  lines.push(
    `${route.label.padEnd(20)}  ${kib(bytes).padStart(7)} KiB gzip  (target ≤ ${TARGETS.route} KiB)  ${ok ? 'ok' : 'OVER'}  [${route.src}]`,
  );
}

console.log('bench:bundle — gzip sizes (level 9) of what the browser downloads');
for (const line of lines) console.log(`  ${line}`);
console.log(failed ? 'bench:bundle: a target was missed' : 'bench:bundle: all targets met');
process.exit(failed ? 1 : 0);
