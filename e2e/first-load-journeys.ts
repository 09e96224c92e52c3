import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { check, type Journey } from './harness';
import type { RunningServer } from './server';

/**
 * What a signed-out visit fetches (issue 25): a person types the address, not `/login`. A signed-out visit to `/`
 * or to a signed-in address reaches the sign-in form on either host without fetching the signed-in side — the
 * signed-in layout, what only it imports (antd's core), the screens' error page, the screen asked for — which
 * react-router's `lazy` used to start for every matched route before the loader sent the visitor to /login.
 */

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const manifest = (): Manifest =>
  JSON.parse(
    readFileSync(resolve(import.meta.dirname, '..', 'client', 'dist', '.vite', 'manifest.json'), 'utf8'),
  ) as Manifest;

/** The files of `keys` and of all they import statically, as the browser asks for them (`/assets/…`). */
function closure(chunks: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const files = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = chunks[key];
    check(chunk, `${key} is not in the build's manifest`);
    seen.add(key);
    for (const file of [chunk.file, ...(chunk.css ?? [])]) files.add(`/${file}`);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  keys.forEach(visit);
  return files;
}

interface FrontEnd {
  name: string;
  origin: (server: RunningServer) => string;
  entry: string;
  signIn: string[];
  signedIn: { layout: string; screens: string[] };
  /** `/` and a signed-in address that loads a screen of its own */
  addresses: string[];
}

const FRONT_ENDS: FrontEnd[] = [
  {
    name: 'back-office',
    origin: (server) => server.staffUrl,
    entry: 'index.html',
    signIn: ['src/components/layout/public-layout.tsx', 'src/features/auth/login-page.tsx'],
    signedIn: {
      layout: 'src/components/layout/app-layout.tsx',
      screens: ['src/components/errors/error-screen.tsx', 'src/features/calendar/calendar-page.tsx'],
    },
    addresses: ['/', '/calendar'],
  },
  {
    name: 'portal',
    origin: (server) => server.portalUrl,
    entry: 'portal.html',
    signIn: ['src/components/layout/portal-public-layout.tsx', 'src/features/portal/portal-login-page.tsx'],
    signedIn: {
      layout: 'src/components/layout/portal-layout.tsx',
      screens: ['src/components/errors/error-screen.tsx', 'src/features/portal/personal-page.tsx'],
    },
    addresses: ['/', '/index'],
  },
];

async function visitSignedOut(page: Page, url: string): Promise<string[]> {
  const requested: string[] = [];
  const listen = (request: { url(): string }) => requested.push(new URL(request.url()).pathname);
  page.on('request', listen);
  try {
    await page.goto(url);
    await page.waitForURL((u) => u.pathname === '/login');
    await page.locator('form input[type="password"]').first().waitFor({ state: 'visible' });
    await page.waitForLoadState('networkidle');
  } finally {
    page.off('request', listen);
  }
  return requested;
}

export function firstLoadJourneys(main: RunningServer): Journey[] {
  return FRONT_ENDS.map((front) => ({
    name: `first load: signed out, the ${front.name}'s ${front.addresses.join(' and ')} reach /login without the signed-in shell`,
    async run(page, context) {
      const chunks = manifest();
      const firstLoad = closure(chunks, [front.entry, ...front.signIn]);
      const signedInOnly = [...closure(chunks, [front.signedIn.layout, ...front.signedIn.screens])].filter(
        (file) => !firstLoad.has(file),
      );
      const layoutFile = `/${chunks[front.signedIn.layout].file}`;
      check(signedInOnly.includes(layoutFile), `the signed-in layout ${layoutFile} should be its own chunk`);
      for (const address of front.addresses) {
        // each address in a context of its own (empty cache), as a person's first visit
        const fresh = await context.browser()!.newContext({ viewport: { width: 1280, height: 800 } });
        try {
          const requested = await visitSignedOut(await fresh.newPage(), `${front.origin(main)}${address}`);
          check(requested.length > 0, `nothing was requested for ${address}`);
          const fetched = signedInOnly.filter((file) => requested.includes(file));
          check(
            fetched.length === 0,
            `a signed-out visit to ${address} on the ${front.name} fetched the signed-in side: ${fetched.join(', ')}`,
          );
        } finally {
          await fresh.close();
        }
      }
      // and the journey's own page: / reaches the sign-in form
      await visitSignedOut(page, `${front.origin(main)}/`);
    },
  }));
}
