/**
 * Bundle-size benchmark (issue 3, point 10; issue 15: first load measured as the browser loads it; issue 25: bytes on
 * the wire). Builds the client, then prints, against the targets (back-office ≤ 250 KiB, portal ≤ 200 KiB, any
 * route ≤ 375 KiB):
 *
 *  - the first load of each front end as Chromium receives it: the built app is served by the real server
 *    (`e2e/server.ts`, which sends the build's brotli/gzip files), and four addresses are each opened in a fresh
 *    browser context (empty cache): the back-office's `/` and `/login`, the portal's `/` and `/login` (the `student.`
 *    host). `/` is what a person types: signed out, it must reach the sign-in form loading only what `/login` loads.
 *    Every response of the page — the document, scripts, stylesheets, the API calls of the start, fonts, images —
 *    counts its bytes on the wire as Chromium's network layer reports them (CDP `Network.loadingFinished`
 *    `encodedDataLength`: the compressed body and the response headers, what DevTools calls "transferred"), until the
 *    sign-in form is visible and the network has been idle for 500 ms. Each response is printed with its encoding; a
 *    text file sent without one is named, since it means the compressed files are not being served;
 *  - the largest lazy route, computed from Vite's manifest (not in the browser; gzip -9 of each file): a dynamically
 *    imported chunk plus the static imports it adds beyond the signed-in shell. The signed-in shell is what loads
 *    with every signed-in page: the entry's static import closure (the entry chunk and all it imports statically) and
 *    the signed-in layout's (`components/layout/app-layout.tsx` on the back-office, `portal-layout.tsx` on the
 *    portal), antd's core included since the sign-in pages no longer carry it. So the figure is what a deep link
 *    to the route adds once the shell is there; the shell's own size (entry + layout closure) is printed as an
 *    information line for each front end. What a screen loads later with `lazy()` (a tab or a dialog opened on
 *    click) is not counted. The calendar routes (FullCalendar) and the dashboard's (recharts) get a line of their own, measured the same way.
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
import type { Browser } from 'playwright-core';
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
  // recharts loads with the dashboard only (issue 29)
  { label: 'dashboard route', src: 'src/features/dashboard/dashboard-page.tsx' },
];
/** Each front end: its HTML entry and its signed-in layout (loaded with every signed-in page). */
const FRONT_ENDS = [
  { entry: 'index.html', label: 'back-office', layout: 'src/components/layout/app-layout.tsx' },
  { entry: 'portal.html', label: 'portal', layout: 'src/components/layout/portal-layout.tsx' },
] as const;

const kib = (bytes: number) => (bytes / KiB).toFixed(1);
const verdict = (bytes: number, target: number) => (bytes <= target * KiB ? 'ok' : 'OVER');

// ---------------------------------------------------------------------------------------------------------
// First load, in Chromium: bytes on the wire

interface Received {
  /** path of the response, e.g. /assets/index-abc.js */
  path: string;
  /** Chromium's resource type: document, script, stylesheet, fetch, font, image… */
  type: string;
  /** the response's Content-Encoding, `-` for none */
  encoding: string;
  /** the body's bytes on the wire: as sent, compressed or not */
  bytes: number;
  /** the response headers' bytes on the wire (HTTP/1.1, from the server itself) */
  headerBytes: number;
  /** a text response of 1 KiB or more that came without compression */
  uncompressedText: boolean;
}

const TEXT = /^(text\/|application\/(javascript|json|xml)|image\/svg)/;

/**
 * Opens `url` in a fresh context and returns every response the page received until the sign-in form is visible
 * and the network idle, with its bytes on the wire; `landed` is the address the page ended on.
 */
async function firstLoad(browser: Browser, url: string): Promise<{ landed: string; received: Received[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    const pending: Promise<Received>[] = [];
    page.on('requestfinished', (request) => {
      pending.push(
        (async () => {
          const [response, sizes] = await Promise.all([request.response(), request.sizes()]);
          const headers = response?.headers() ?? {};
          const encoding = headers['content-encoding'] ?? '-';
          return {
            path: new URL(request.url()).pathname,
            type: request.resourceType(),
            encoding,
            bytes: sizes.responseBodySize,
            headerBytes: sizes.responseHeadersSize,
            uncompressedText:
              encoding === '-' && TEXT.test(headers['content-type'] ?? '') && sizes.responseBodySize >= 1024,
          };
        })(),
      );
    });
    page.on('requestfailed', (request) => errors.push(`${request.url()}: ${request.failure()?.errorText}`));
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(url, { waitUntil: 'networkidle', timeout: 60_000 });
    // the sign-in form is there (its password field), then nothing more is fetched for 500 ms
    await page.locator('form input[type="password"]').first().waitFor({ state: 'visible', timeout: 30_000 });
    await page.waitForLoadState('networkidle', { timeout: 30_000 });
    if (errors.length > 0) throw new Error(`the page at ${url} failed: ${errors.join(' | ')}`);
    const received = await Promise.all(pending);
    return { landed: new URL(page.url()).pathname, received: received.sort((a, b) => b.bytes - a.bytes) };
  } finally {
    await context.close();
  }
}

interface FirstLoad {
  label: string;
  path: string;
  landed: string;
  received: Received[];
  target: number;
}

async function measureFirstLoads(): Promise<FirstLoad[]> {
  const server = await startServer('bench-bundle');
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const loads: FirstLoad[] = [];
    for (const { label, origin, target } of [
      { label: 'back-office', origin: server.staffUrl, target: TARGETS.backoffice },
      { label: 'portal', origin: server.portalUrl, target: TARGETS.portal },
    ]) {
      for (const path of ['/', '/login']) {
        const { landed, received } = await firstLoad(browser, `${origin}${path}`);
        loads.push({ label, path, landed, received, target });
      }
    }
    return loads;
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
  for (const { label, path, landed, received, target } of loads) {
    const where = landed === path ? path : `${path} → ${landed}`;
    console.log(`${label} ${where}, first load in Chromium (KiB on the wire: body as sent, + headers):`);
    for (const r of received)
      console.log(
        `  ${kib(r.bytes).padStart(7)}  + ${kib(r.headerBytes).padStart(4)}  ${r.type.padEnd(10)}  ${r.encoding.padEnd(4)}  ${r.path}${r.uncompressedText ? '  (text, not compressed)' : ''}`,
      );
    const bodies = received.reduce((n, r) => n + r.bytes, 0);
    const headers = received.reduce((n, r) => n + r.headerBytes, 0);
    // the budget holds everything that crossed the wire: bodies as sent and the response headers (HTTP/1.1, as the
    // app itself answers; behind Caddy's HTTP/2 the headers shrink further)
    const total = bodies + headers;
    const uncompressed = received.filter((r) => r.uncompressedText).length;
    failed ||= total > target * KiB;
    summary.push(
      `${`${label} ${where}`.padEnd(28)} ${kib(total).padStart(7)} KiB on the wire  (target ≤ ${target} KiB)  ${verdict(total, target)}  [${received.length} responses: ${kib(bodies)} KiB bodies + ${kib(headers)} KiB HTTP/1.1 headers; ${uncompressed} text uncompressed; Chromium]`,
    );
  }
  // signed out, `/` reaches the sign-in form fetching nothing `/login` does not (the signed-in shell stays out)
  for (const label of new Set(loads.map((l) => l.label))) {
    const files = (path: string) =>
      new Set(
        loads
          .find((l) => l.label === label && l.path === path)!
          .received.filter((r) => r.type !== 'document')
          .map((r) => r.path),
      );
    const login = files('/login');
    const extra = [...files('/')].filter((path) => !login.has(path));
    failed ||= extra.length > 0;
    summary.push(
      `${`${label} / beyond /login`.padEnd(28)} ${String(extra.length).padStart(7)} files  (target 0)  ${extra.length ? `OVER: ${extra.join(', ')}` : 'ok'}`,
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

  console.log('bench:bundle — what the browser downloads (first loads: bytes on the wire; routes: gzip -9)');
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
