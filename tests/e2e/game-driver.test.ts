// The game driver itself (game-driver.ts), against a stand-in page in real Chromium: the game screen changes under the
// driver between two of its reads (a button it was about to press is gone), which must cost it no more than a moment.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settle } from './game-driver.js';
import { launchChromium } from './harness.js';

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.newPage();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/** A game screen on `first` with no button to press (as when it left that screen just after the driver read it), then in_game, ready to speak, after `afterMs`. */
async function standIn(first: 'start' | 'end_of_moment', afterMs: number): Promise<void> {
  await page.setContent(`<div data-testid="game-screen" data-sub-screen="${first}"></div>
    <script>setTimeout(() => {
      const s = document.querySelector('[data-testid="game-screen"]');
      s.setAttribute('data-sub-screen', 'in_game');
      s.innerHTML = '<button data-testid="record-button" data-state="IDLE">REC</button>';
    }, ${afterMs});</script>`);
}

describe('settle', () => {
  for (const first of ['start', 'end_of_moment'] as const) {
    it(`goes on at once when the ${first} screen's button is gone by the time it looks for it`, async () => {
      await standIn(first, 1000);
      const t0 = Date.now();
      expect(await settle(page, { timeoutMs: 20_000 })).toBe('in_game');
      // The button's absence costs at most a probe's timeout (1 s), not Playwright's default 30 s wait for an element.
      expect(Date.now() - t0).toBeLessThan(6000);
    }, 60_000);
  }
});
