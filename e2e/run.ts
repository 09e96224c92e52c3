/**
 * End-to-end journeys in Chromium (Debian's /usr/bin/chromium, driven by playwright-core; nothing is
 * downloaded). Builds the client when needed, starts three servers on free ports with fresh SQLite files
 * (one with a 3-second idle timeout for the expired-session journey), runs the journeys in two lanes side by
 * side (each lane against its own server), saves
 * screenshots under test-results/e2e/, stops everything it started and exits non-zero on any failure.
 *
 *   npm run test:e2e            CHROMIUM_PATH=/path/to/chromium npm run test:e2e
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { CHROMIUM_PATH, launchChromium } from './browser';
import { a11yJourneys } from './a11y-journeys';
import { catalogueJourneys } from './catalogue-journeys';
import { dayOneJourneys } from './dayone-journeys';
import { accountsAdminJourneys } from './accounts-admin-journeys';
import { accountJourneys } from './accounts-journeys';
import { filesJourneys } from './files-journeys';
import { firstLoadJourneys } from './first-load-journeys';
import {
  clearFailureScreenshots,
  OUTPUT_DIR,
  runJourneys,
  type Journey,
  type JourneyResult,
} from './harness';
import { journeys } from './journeys';
import { portalJourneys } from './portal-journeys';
import { reportsJourneys } from './reports-journeys';
import { salesJourneys } from './sales-journeys';
import { moneyJourneys } from './money-journeys';
import { preferencesJourneys } from './preferences-journeys';
import { schoolsJourneys } from './schools-journeys';
import { settingsGeneralJourneys } from './settings-general-journeys';
import { settingsJourneys } from './settings-journeys';
import { settingsOrgJourneys } from './settings-org-journeys';
import { shellJourneys } from './shell-journeys';
import { startServer, type RunningServer } from './server';
import { studentsJourneys } from './students-journeys';
import { studentCategoryJourneys } from './student-categories.spec';

const root = resolve(import.meta.dirname, '..');
async function main(): Promise<number> {
  if (!existsSync(CHROMIUM_PATH)) {
    console.error(
      `Chromium not found at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH).`,
    );
    return 1;
  }
  execFileSync(process.execPath, ['--import', 'tsx', resolve(root, 'scripts', 'build-client-if-needed.ts')], {
    cwd: root,
    stdio: 'inherit',
  });

  clearFailureScreenshots();
  const servers: RunningServer[] = [];
  let browser: Browser | null = null;
  const extraBrowsers: Browser[] = [];
  let results: JourneyResult[] = [];
  try {
    // two lanes of journeys run side by side, each against a server (and database) of its own: a journey that
    // switches a setting for its server (storage suspended, API tokens off) never meets the other lane's
    const [mainServer, secondServer, shortSession] = await Promise.all([
      startServer('main'),
      startServer('second'),
      startServer('short-session', { SESSION_IDLE_MINUTES: '0.25' }),
    ]);
    servers.push(mainServer, secondServer, shortSession);
    browser = await launchChromium();
    console.log(
      `e2e: Chromium ${browser.version()}, servers on ports ${mainServer.port}, ${secondServer.port} and ${shortSession.port}`,
    );
    // `tsx e2e/run.ts student-categories settings-org`: only the journeys whose name holds one of the words
    const only = process.argv.slice(2).map((w) => w.toLowerCase());
    const slug = (name: string) => name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
    const lanes = [
      [
        ...journeys(mainServer, shortSession),
        ...settingsJourneys(mainServer),
        ...settingsOrgJourneys(mainServer),
        ...filesJourneys(mainServer),
        ...studentsJourneys(mainServer),
        ...shellJourneys(mainServer),
        ...firstLoadJourneys(mainServer),
        ...a11yJourneys(mainServer),
        ...dayOneJourneys(mainServer),
      ],
      [
        ...accountJourneys(secondServer),
        ...accountsAdminJourneys(secondServer),
        ...settingsGeneralJourneys(secondServer),
        ...studentCategoryJourneys(secondServer),
        ...schoolsJourneys(secondServer),
        ...catalogueJourneys(secondServer),
        ...reportsJourneys(secondServer),
        ...salesJourneys(secondServer),
        ...moneyJourneys(secondServer),
        ...portalJourneys(secondServer),
        ...preferencesJourneys(secondServer),
      ],
    ];
    const pick = (lane: Journey[]) =>
      only.length ? lane.filter((j) => only.some((w) => slug(j.name).includes(w))) : lane;
    // a browser per lane: two pages of one browser on localhost share a renderer process and take turns
    const second = await launchChromium();
    extraBrowsers.push(second);
    const browsers = [browser, second];
    results = (await Promise.all(lanes.map((lane, i) => runJourneys(browsers[i], pick(lane))))).flat();
  } catch (error) {
    console.error('e2e: could not run the journeys:', error instanceof Error ? error.message : error);
    results.push({ name: 'setup', ok: false, error: String(error) });
  } finally {
    await browser?.close().catch(() => undefined);
    await Promise.all(extraBrowsers.map((b) => b.close().catch(() => undefined)));
    await Promise.all(servers.map((s) => s.stop().catch(() => undefined)));
  }

  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  console.log(`e2e: screenshots and server logs in ${OUTPUT_DIR}`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
