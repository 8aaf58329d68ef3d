// Accessibility checks in the page: axe-core (from npm) evaluated in the page and run on the whole document; a test
// fails on any serious or critical violation, printing each with its elements. (@axe-core/playwright 4.14 needs
// Node 22, hence the injection.)
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[]; failureSummary?: string }[] };

/** Runs axe-core on the page (WCAG 2.0/2.1/2.2 A and AA rules and best practices) and returns every violation. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined');
  // Evaluated rather than added as a <script>: the app's Content-Security-Policy forbids inline scripts.
  if (!loaded) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] }, resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
  });
}

/** The serious and critical violations, as readable lines ('' when none). */
export function describeSerious(violations: readonly AxeViolation[]): string {
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact}: ${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`)
    .join('\n');
}

/** Throws when the page has a serious or critical violation. */
export async function expectAccessible(page: Page, where: string): Promise<AxeViolation[]> {
  const violations = await axeViolations(page);
  const serious = describeSerious(violations);
  if (serious) throw new Error(`accessibility violations on ${where}:\n${serious}`);
  return violations;
}
