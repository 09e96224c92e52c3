import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';

export const OUTPUT_DIR = resolve(import.meta.dirname, '..', 'test-results', 'e2e');
mkdirSync(OUTPUT_DIR, { recursive: true });

/** Failure screenshots of an earlier run would mislead: the journey runner clears them as it starts (only it). */
export function clearFailureScreenshots(): void {
  for (const file of readdirSync(OUTPUT_DIR)) if (file.startsWith('failure-')) rmSync(join(OUTPUT_DIR, file));
}

export function outputPath(name: string): string {
  return join(OUTPUT_DIR, name);
}

export class AssertionError extends Error {}

/** A plain check that fails the journey with a readable message. */
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new AssertionError(message);
}

export interface Journey {
  name: string;
  run: (page: Page, context: BrowserContext) => Promise<void>;
}

export interface JourneyResult {
  name: string;
  ok: boolean;
  error?: string;
}

/** Runs each journey in a fresh browser context (fresh cookies and storage); a failure saves a screenshot. */
export async function runJourneys(browser: Browser, journeys: Journey[]): Promise<JourneyResult[]> {
  const results: JourneyResult[] = [];
  for (const journey of journeys) {
    // A system asking for less motion: the app then opens menus, pop-ups and dialogs at once. A button still zooming
    // in moves between the press and the release, and the browser gives that click to the dialog's frame instead
    // (seen: the unsaved-changes guard's Leave lost, the photo's Remove confirmation). The shell journey checks both.
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      locale: 'en-GB',
      reducedMotion: 'reduce',
    });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    const started = Date.now();
    const took = () => `(${((Date.now() - started) / 1000).toFixed(1)} s)`;
    try {
      await journey.run(page, context);
      check(consoleErrors.length === 0, `uncaught errors in the page: ${consoleErrors.join(' | ')}`);
      results.push({ name: journey.name, ok: true });
      console.log(`  ✓ ${journey.name} ${took()}`);
    } catch (error) {
      const slug = journey.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
      await page
        .screenshot({ path: outputPath(`failure-${slug}.png`), fullPage: true })
        .catch(() => undefined);
      const message = error instanceof Error ? error.message : String(error);
      results.push({ name: journey.name, ok: false, error: message });
      console.log(
        `  ✗ ${journey.name} ${took()}\n      ${message.split('\n').join('\n      ')}\n      at ${page.url()}`,
      );
    } finally {
      await context.close();
    }
  }
  return results;
}
