/**
 * Bundle-size benchmark (issue 3, point 10; issue 15: first load measured as the browser loads it). Builds the
 * client, then prints, against the targets (back-office ≤ 250 KiB, portal ≤ 200 KiB, any route ≤ 375 KiB):
 *
 *  - the first load of each front end, measured in Chromium: the built app is served by the real server
 *    (`e2e/server.ts`), and each sign-in page — the back-office's `/login`, the portal's `/login` on the
 *    `student.` host — is opened in a fresh browser context (empty cache). Every script and stylesheet response
 *    (by resource type or content type: modulepreloads and lazily imported chunks included) is recorded until
 *    the page is idle: the sign-in form is visible and the network has been idle for 500 ms. Each file counts
 *    its transferred size when the server sent it compressed, otherwise its body gzipped at level 9 (the server
 *    sends them uncompressed today; level 9 is what the manifest figures used before);
 *  - the largest lazy route, computed from Vite's manifest (not in the browser): a dynamically imported chunk
 *    plus the static imports it adds beyond the signed-in shell. The signed-in shell is what loads with every
 *    signed-in page: the entry's static import closure (the entry chunk and all it imports statically) and the
 *    signed-in layout's (`components/layout/app-layout.tsx` on the back-office, `portal-layout.tsx` on the
 *    portal), antd's core included since the sign-in pages no longer carry it. So the figure is what a deep link
 *    to the route adds once the shell is there; the shell's own size (entry + layout closure) is printed as an
 *    information line for each front end. What a screen loads later with `lazy()` (a tab or a dialog opened on
 *    click) is not counted. The calendar routes (FullCalendar) get a line of their own, measured the same way.
 *    (The public screens other than the two sign-in pages load antd with themselves, app/routes/antd-page.ts;
 *    they are measured the same way, which leaves the antd core they share with the shell out of their figure.)
 *
 * Exits 1 when a figure is over its target.
 *
 *   npm run bench:bundle            (build, then measure)
 *   npm run bench:bundle -- --no-build
 *   CHROMIUM_PATH=/path/to/chromium npm run bench:bundle   (default /usr/bin/chromium; nothing is downloaded)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Response } from 'playwright-core';
import { launchChromium } from '../e2e/browser';
import { startServer } from '../e2e/server';

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
const TARGETS = { backoffice: 250, portal: 200, route: 375 } as const;
/** Routes printed by name: the page module (as the manifest names it) of each. */
const NAMED_ROUTES: { label: string; src: string }[] = [
  { label: 'calendar route', src: 'src/features/calendar/calendar-page.tsx' },
  { label: 'calendar list route', src: 'src/features/calendar/calendar-list-page.tsx' },
];
/** Each front end: its HTML entry and its signed-in layout (loaded with every signed-in page). */
const FRONT_ENDS = [
  { entry: 'index.html', label: 'back-office', layout: 'src/components/layout/app-layout.tsx' },
  { entry: 'portal.html', label: 'portal', layout: 'src/components/layout/portal-layout.tsx' },
] as const;

const kib = (bytes: number) => (bytes / KiB).toFixed(1);
const verdict = (bytes: number, target: number) => (bytes <= target * KiB ? 'ok' : 'OVER');

// ---------------------------------------------------------------------------------------------------------
// First load, in Chromium

interface Loaded {
  /** path of the file, e.g. /assets/index-abc.js */
  path: string;
  kind: 'script' | 'stylesheet';
  bytes: number;
  /** how `bytes` was obtained */
  how: 'transferred' | 'gzip -9';
}

function kindOf(response: Response): Loaded['kind'] | null {
  const type = response.request().resourceType();
  const contentType = response.headers()['content-type'] ?? '';
  if (type === 'stylesheet' || contentType.includes('text/css')) return 'stylesheet';
  if (type === 'script' || /javascript|ecmascript/.test(contentType)) return 'script';
  return null;
}

async function sizeOf(response: Response): Promise<Pick<Loaded, 'bytes' | 'how'>> {
  const body = await response.body();
  const encoding = response.headers()['content-encoding'];
  if (encoding && encoding !== 'identity') {
    const { responseBodySize } = await response.request().sizes();
    return { bytes: responseBodySize, how: 'transferred' };
  }
  return { bytes: gzipSync(body, { level: 9 }).length, how: 'gzip -9' };
}

/** Opens `url` in a fresh context and returns every script and stylesheet fetched until the sign-in form is idle. */
async function firstLoad(browser: Browser, url: string): Promise<Loaded[]> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const pending: Promise<Loaded | null>[] = [];
    page.on('response', (response) => {
      const kind = kindOf(response);
      if (!kind) return;
      pending.push(
        sizeOf(response).then(
          (size) => ({ path: new URL(response.url()).pathname, kind, ...size }),
          (error: unknown) => {
            throw new Error(`could not read ${response.url()}: ${String(error)}`);
          },
        ),
      );
    });
    page.on('requestfailed', (request) => errors.push(`${request.url()}: ${request.failure()?.errorText}`));
    await page.goto(url, { waitUntil: 'networkidle', timeout: 60_000 });
    // the sign-in form is there (its password field), then nothing more is fetched for 500 ms
    await page.locator('form input[type="password"]').first().waitFor({ state: 'visible', timeout: 30_000 });
    await page.waitForLoadState('networkidle', { timeout: 30_000 });
    if (errors.length > 0) throw new Error(`the page at ${url} failed: ${errors.join(' | ')}`);
    const loaded = (await Promise.all(pending)).filter((l): l is Loaded => l !== null);
    const byPath = new Map(loaded.map((l) => [l.path, l])); // a file fetched twice counts once
    return [...byPath.values()].sort((a, b) => b.bytes - a.bytes);
  } finally {
    await context.close();
  }
}

async function measureFirstLoads(): Promise<{ label: string; files: Loaded[]; target: number }[]> {
  const server = await startServer('bench-bundle');
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    return [
      {
        label: 'back-office',
        files: await firstLoad(browser, `${server.staffUrl}/login`),
        target: TARGETS.backoffice,
      },
      {
        label: 'portal',
        files: await firstLoad(browser, `${server.portalUrl}/login`),
        target: TARGETS.portal,
      },
    ];
  } finally {
    await browser?.close();
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Lazy routes, from the manifest

interface RouteFigures {
  /** the largest lazy module's figure */
  name: string;
  entry: string;
  bytes: number;
  /** the named routes' figures, by page module */
  named: Map<string, number>;
  /** each front end's signed-in shell: entry + signed-in layout closure */
  shells: { label: string; bytes: number }[];
}

function measureRoutes(): RouteFigures {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const gzCache = new Map<string, number>();
  const gz = (file: string): number => {
    let size = gzCache.get(file);
    if (size === undefined) {
      size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
      gzCache.set(file, size);
    }
    return size;
  };
  /** A chunk and all it imports statically (transitively). */
  const staticClosure = (key: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(key)) return seen;
    seen.add(key);
    for (const dep of manifest[key]?.imports ?? []) staticClosure(dep, seen);
    return seen;
  };
  const files = (keys: Iterable<string>): Set<string> => {
    const out = new Set<string>();
    for (const key of keys) {
      out.add(manifest[key].file);
      for (const css of manifest[key].css ?? []) out.add(css);
    }
    return out;
  };

  let largest = { name: '', entry: '', bytes: 0 };
  const named = new Map<string, number>();
  const shells: RouteFigures['shells'] = [];
  for (const { entry, label, layout } of FRONT_ENDS) {
    if (!manifest[entry]) throw new Error(`${entry} is missing from the build manifest`);
    if (!manifest[layout])
      throw new Error(`${layout} (the ${label} signed-in layout) is missing from the manifest`);
    const firstKeys = staticClosure(entry);
    // the signed-in shell: the entry's closure and the signed-in layout's
    const shellFiles = files(staticClosure(layout, new Set(firstKeys)));
    shells.push({ label, bytes: [...shellFiles].reduce((n, f) => n + gz(f), 0) });
    // every lazily imported module reachable from this entry (routes, layouts, and what they import lazily)
    const lazy = new Set<string>();
    const queue = [...firstKeys];
    while (queue.length > 0) {
      for (const dyn of manifest[queue.pop()!]?.dynamicImports ?? []) {
        if (lazy.has(dyn)) continue;
        lazy.add(dyn);
        queue.push(...staticClosure(dyn));
      }
    }
    lazy.delete(layout); // the shell itself, printed on its own line
    for (const dyn of lazy) {
      const bytes = [...files(staticClosure(dyn))]
        .filter((f) => !shellFiles.has(f))
        .reduce((n, f) => n + gz(f), 0);
      const src = manifest[dyn].src ?? dyn;
      if (NAMED_ROUTES.some((route) => route.src === src)) named.set(src, bytes);
      if (bytes > largest.bytes) largest = { name: src, entry: label, bytes };
    }
  }
  return { ...largest, named, shells };
}

// ---------------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  if (!process.argv.includes('--no-build')) {
    execFileSync('npx', ['vite', 'build', '--config', 'client/vite.config.ts', '--logLevel', 'warn'], {
      cwd: root,
      stdio: 'inherit',
    });
  }
  const loads = await measureFirstLoads();
  const routes = measureRoutes();

  let failed = false;
  const summary: string[] = [];
  for (const { label, files, target } of loads) {
    console.log(`${label} sign-in page, first load in Chromium (gzip KiB):`);
    for (const f of files)
      console.log(`  ${kib(f.bytes).padStart(7)}  ${f.kind.padEnd(10)}  ${f.path}  (${f.how})`);
    const total = files.reduce((n, f) => n + f.bytes, 0);
    failed ||= total > target * KiB;
    summary.push(
      `${`${label} first load`.padEnd(28)} ${kib(total).padStart(7)} KiB gzip  (target ≤ ${target} KiB)  ${verdict(total, target)}  [${files.length} files, Chromium]`,
    );
  }
  for (const shell of routes.shells) {
    summary.push(
      `${`${shell.label} signed-in shell`.padEnd(28)} ${kib(shell.bytes).padStart(7)} KiB gzip  (information: entry + signed-in layout closure, the routes' baseline; manifest)`,
    );
  }
  failed ||= routes.bytes > TARGETS.route * KiB;
  summary.push(
    `${'largest route'.padEnd(28)} ${kib(routes.bytes).padStart(7)} KiB gzip  (target ≤ ${TARGETS.route} KiB)  ${verdict(routes.bytes, TARGETS.route)}  [${routes.name}, ${routes.entry}; beyond the signed-in shell; manifest]`,
  );
  for (const route of NAMED_ROUTES) {
    const bytes = routes.named.get(route.src);
    if (bytes === undefined) throw new Error(`${route.src} is not a lazy route of the build`);
    failed ||= bytes > TARGETS.route * KiB;
    summary.push(
      `${route.label.padEnd(28)} ${kib(bytes).padStart(7)} KiB gzip  (target ≤ ${TARGETS.route} KiB)  ${verdict(bytes, TARGETS.route)}  [${route.src}; beyond the signed-in shell; manifest]`,
    );
  }

  console.log('bench:bundle — gzip sizes of what the browser downloads');
  for (const line of summary) console.log(`  ${line}`);
  console.log(failed ? 'bench:bundle: a target was missed' : 'bench:bundle: all targets met');
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
