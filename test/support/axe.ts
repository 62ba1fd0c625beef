// axe-core in a Playwright page: the WCAG 2.1 A/AA violations it finds, by rule, with the nodes
// that fail and why. Evaluated over the DevTools protocol, so a page's CSP (no inline scripts,
// or none at all) allows it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** axe's WCAG 2.1 A/AA violations on the page: `rule (impact)` -> the selectors of the failing nodes. */
export async function axeViolations(page: Page): Promise<Record<string, string[]>> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => [
      `${v.id} (${v.impact})`,
      v.nodes.map((n) => `${n.target.join(' ')}: ${[...n.any, ...n.all, ...n.none].map((c) => c.message).join(' ')}`),
    ]) as [string, string[]][];
  }, WCAG_TAGS);
  return Object.fromEntries(violations);
}
