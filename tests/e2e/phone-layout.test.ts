// The game on a phone: The Lantern Keeper played by typing at 390x844, each screen and overlay it reaches measured at
// 390x844 and 360x640 (the page resized in place): tap targets at least 44 px, text at least 12 px, no control or text
// hidden under another, no caption over the character's face or cut short (layout-probe.ts); axe-core on the in-game
// screen and the menu. The account pages (settings, feedback, profile) get the same measures. Real server (PGlite),
// real web build, real Chromium. ~60-120 s on the shared 2-core machine.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, describeSerious } from './axe.js';
import { CLOCKWORK, CLOCKWORK_ASSEMBLE_AT, CLOCKWORK_BATTLE_AT, CLOCKWORK_WIN, LANTERN, LANTERN_WIN, openGame, playPlan, settle, typeLine } from './game-driver.js';
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

/**
 * Measures the screen at both phone sizes (the layout redrawn after each resize), then returns to `home`; returns the
 * violations as lines.
 */
async function measure(page: Page, where: string, home: { width: number; height: number } = PHONE): Promise<string[]> {
  const lines: string[] = [];
  for (const size of [PHONE, SMALL_PHONE]) {
    await page.setViewportSize(size);
    // Two frames: the resize observers (the card fans' scale) run, then the layout they change.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const found = describeLayout(`${where} at ${size.width}x${size.height}`, await layoutViolations(page));
    if (found) lines.push(found);
  }
  await page.setViewportSize(home);
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

  it('a run played to its battle at 360x640: Assemble and the battle keep their caption whole, no card off the screen, no notification over a face', async () => {
    const account = await signUp(h.url);
    const page = await h.newPage({ signedInAs: account, viewport: SMALL_PHONE });
    const found: string[] = [];
    await openGame(page, h.url, CLOCKWORK, { via: 'api' });
    await playPlan(page, CLOCKWORK_WIN.slice(0, CLOCKWORK_ASSEMBLE_AT));
    await page.locator('[data-testid="assemble-banner"]').waitFor();
    await settle(page);
    found.push(...await measure(page, 'assemble', SMALL_PHONE));

    // The team named: a perfect answer's notification (3 s) shows over the Assemble moment when the page keeps up.
    const team = CLOCKWORK_WIN[CLOCKWORK_ASSEMBLE_AT];
    if (typeof team !== 'string') throw new Error('the Assemble step is not a line');
    await typeLine(page, team);
    if (await page.locator('[data-testid="notification"]').waitFor({ timeout: 3000 }).then(() => true, () => false)) {
      found.push(...await measure(page, 'assemble with a notification', SMALL_PHONE));
    }

    await settle(page);
    await page.locator('[data-testid="battle-indicator"]').waitFor();
    await page.locator('[data-testid="caption-character"]').waitFor();
    await page.setViewportSize(SMALL_PHONE);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    // The opponent's line reads whole at 360x640: all of it inside the screen and inside its box's visible part.
    const caption = await page.evaluate(() => {
      const el = document.querySelector('[data-testid="caption-character"]');
      const box = document.querySelector('.captions');
      if (!el || !box) return 'no caption';
      const r = el.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      const inside = r.height > 20 && r.top >= Math.max(0, b.top) - 1 && r.bottom <= Math.min(innerHeight, b.bottom) + 1;
      return inside ? 'whole' : `caption at y ${r.top.toFixed(0)}..${r.bottom.toFixed(0)}, its box shows y ${b.top.toFixed(0)}..${b.bottom.toFixed(0)}`;
    });
    if (caption !== 'whole') found.push(`battle at 360x640: the opponent's line does not read whole: ${caption}`);
    found.push(...await measure(page, 'battle', SMALL_PHONE));

    // Near the answer box's limit, its count of characters left ('200 characters left', the longest) reads on one line.
    const input = page.locator('[data-testid="typed-input"]');
    await input.fill('x'.repeat(1800));
    const counter = page.locator('[data-testid="answer-counter"]');
    for (const size of [PHONE, SMALL_PHONE]) {
      await page.setViewportSize(size);
      const lines = await counter.evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      });
      if (lines !== 1) found.push(`answer counter at ${size.width}x${size.height}: "${await counter.textContent()}" on ${lines} lines`);
    }
    await input.fill('');

    await playPlan(page, CLOCKWORK_WIN.slice(CLOCKWORK_BATTLE_AT, CLOCKWORK_BATTLE_AT + 1));
    await page.locator('[data-testid="battle-indicator"]', { hasText: 'DEFEND' }).waitFor();
    found.push(...await measure(page, 'battle, defend', SMALL_PHONE));
    expect(found.join('\n')).toBe('');
  });

  it('the public catalogue scrolled at 360x640: the hero headline does not show through the sticky top bar', async () => {
    const page = await h.newPage({ viewport: SMALL_PHONE, deviceScaleFactor: 1 });
    await page.goto(`${h.url}/browse`);
    await page.getByRole('heading', { level: 1, name: 'Stories you play with your voice' }).waitFor();
    // Scrolled until the headline's first line is under the bar.
    await page.evaluate(() => window.scrollTo(0, (document.getElementById('hero-title')?.getBoundingClientRect().top ?? 0) - 16));
    // The bar as drawn with the headline under it, then with the headline hidden: the same pixels if the bar hides it.
    const bar = await page.locator('.top-bar').boundingBox();
    if (!bar) throw new Error('no top bar');
    const title = await page.locator('#hero-title').boundingBox();
    expect(title && title.y < bar.y + bar.height && title.y + title.height > bar.y).toBe(true);
    const clip = { x: 0, y: 0, width: bar.width, height: bar.height - 1 };
    const shot = async () => {
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      return page.screenshot({ clip, animations: 'disabled' });
    };
    await page.addStyleTag({ content: '.hero-carousel, .catalogue-hero__art { visibility: hidden !important; }' });
    const withTitle = await shot();
    await page.addStyleTag({ content: '#hero-title { visibility: hidden !important; }' });
    const without = await shot();
    expect(withTitle.equals(without)).toBe(true);
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
