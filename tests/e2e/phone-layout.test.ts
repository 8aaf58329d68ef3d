// The game on a phone: The Lantern Keeper played by typing at 390x844, each screen and overlay it reaches measured at
// 390x844 and 360x640 (the page resized in place): tap targets at least 44 px, text at least 12 px, no control or text
// hidden under another, no caption over the character's face or cut short (layout-probe.ts); axe-core on the in-game
// screen and the menu. The account pages (settings, feedback, profile) get the same measures. Real server (PGlite),
// real web build, real Chromium. ~60-120 s on the shared 2-core machine.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, describeSerious } from './axe.js';
import { LANTERN, LANTERN_WIN, openGame, settle, typeLine } from './game-driver.js';
import { type Harness, PHONE, signUp, SMALL_PHONE, startHarness } from './harness.js';
import { describeLayout, layoutViolations } from './layout-probe.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 240_000);

afterAll(async () => {
  await h?.close();
});

/** axe-core's serious and critical violations on the screen, as lines. */
async function accessibility(page: Page, where: string): Promise<string[]> {
  const serious = describeSerious(await axeViolations(page));
  return serious ? [`${where}: axe: ${serious}`] : [];
}

/** Measures the screen at both phone sizes (the layout redrawn after each resize); returns the violations as lines. */
async function measure(page: Page, where: string): Promise<string[]> {
  const lines: string[] = [];
  for (const size of [PHONE, SMALL_PHONE]) {
    await page.setViewportSize(size);
    // Two frames: the resize observers (the card fans' scale) run, then the layout they change.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const found = describeLayout(`${where} at ${size.width}x${size.height}`, await layoutViolations(page));
    if (found) lines.push(found);
  }
  await page.setViewportSize(PHONE);
  return lines;
}

describe('the game on a phone', { timeout: 240_000 }, () => {
  it('every screen and overlay of a run is readable and tappable at 390x844 and 360x640', async () => {
    const account = await signUp(h.url);
    const page = await h.newPage({ signedInAs: account, viewport: PHONE });
    const found: string[] = [];

    await openGame(page, h.url, LANTERN, { via: 'api' });
    await page.locator('.start-screen__start').waitFor();
    await page.waitForTimeout(1500); // the date's letters arrive
    found.push(...await measure(page, 'start'));

    expect(await settle(page)).toBe('in_game');
    await typeLine(page, LANTERN_WIN[0] ?? '');
    await page.locator('[data-testid="caption-player"]').waitFor();
    await page.locator('[data-testid="caption-character"]').waitFor();
    // The character's picture shows (its crossfade ends) before the captions are held against its face.
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.visuals__character img.is-shown');
      return !img || (img.complete && Number(getComputedStyle(img).opacity) > 0.95);
    }, undefined, { timeout: 10_000 });
    found.push(...await measure(page, 'in-game with captions'));
    found.push(...await accessibility(page, 'in-game'));

    await page.getByRole('button', { name: 'Menu' }).click();
    await page.locator('[data-testid="game-menu"]').waitFor();
    await page.waitForTimeout(400); // it slides up
    found.push(...await measure(page, 'menu'));
    found.push(...await accessibility(page, 'menu'));
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="game-menu"]').waitFor({ state: 'hidden' });

    for (const line of LANTERN_WIN.slice(1, 3)) {
      await settle(page);
      await typeLine(page, line);
    }
    expect(await settle(page, { pressStart: false })).toBe('end_of_moment');
    found.push(...await measure(page, 'moment complete'));
    found.push(...await accessibility(page, 'moment complete'));

    expect(await settle(page)).toBe('in_game');
    await typeLine(page, LANTERN_WIN[3] ?? '');
    await page.locator('[data-testid="award-overlay"]').waitFor();
    await page.waitForTimeout(600); // its card turns in (500 ms); it stays 5000 ms
    found.push(...await measure(page, 'award'));

    expect(found.join('\n')).toBe('');
  });

  it('the account pages are readable and tappable at 390x844 and 360x640', async () => {
    const account = await signUp(h.url);
    const page = await h.newPage({ signedInAs: account, viewport: PHONE });
    const found: string[] = [];
    for (const [path, ready] of [['/settings', 'Settings'], ['/share-feedback', 'Share feedback'], ['/my-profile', 'My profile']] as const) {
      await page.goto(`${h.url}${path}`);
      await page.getByRole('heading', { level: 1, name: ready }).waitFor();
      await page.waitForLoadState('networkidle');
      found.push(...await measure(page, path));
    }
    expect(found.join('\n')).toBe('');
  });
});
