import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * Accessibility as axe-core sees a page in Chromium: its source (the npm package, nothing downloaded) injected
 * into the page and run there. Journeys call `seriousViolations` on each screen they reach and require none.
 */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

// page.evaluate runs in the browser: axe is the global the injected source defines
declare const document: { getAnimations(): { finished: Promise<unknown> }[] };
declare const axe: {
  run(options: object): Promise<{
    violations: {
      id: string;
      impact: string | null;
      help: string;
      nodes: { target: unknown[]; any: { data?: unknown }[] }[];
    }[];
  }>;
};

/** A contrast failure's colours and ratio (`#777 on #fff, 4.48:1`): what to change, said with the target. */
function contrast(data: unknown): string {
  const d = data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | undefined;
  return d?.fgColor && d.bgColor ? ` (${d.fgColor} on ${d.bgColor}, ${d.contrastRatio ?? '?'}:1)` : '';
}

/** The serious and critical violations of WCAG 2.1 A and AA rules on the page as it is now. */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => typeof (globalThis as { axe?: unknown }).axe !== 'undefined')))
    // evaluated through the DevTools protocol: the app's CSP (no inline scripts) rightly refuses a script tag
    await page.evaluate(axeSource);
  // a dialog or drawer fading in blends its colours with the page behind: judge the screen once it stands still
  await page.evaluate(() =>
    Promise.race([
      Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))),
      new Promise((resolve) => setTimeout(resolve, 2_000)),
    ]),
  );
  const result = await page.evaluate(() =>
    axe.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }),
  );
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: String(v.impact),
      help: v.help,
      targets: v.nodes.slice(0, 3).map((n) => n.target.map(String).join(' ') + contrast(n.any[0]?.data)),
    }));
}
