// axe-core on every screen a player meets, each reached the player's way: the sign-in and sign-up views, the public
// and personal catalogues, the story modal, the launch screen, the account pages, the legal pages and the 404 page,
// at 390x844 and 1440x900; and the game at 1440x900 (its phone sizes: phone-layout.test.ts) from the start screen
// through captions, the menu, the end-run confirmation, the award, MOMENT COMPLETE, the golden ticket and YOU WON to
// the ticket picker, then a lost run, the error dialog and 'Reconnecting...'. Fails on any serious or critical
// violation, listing every screen's. Real server (PGlite), real web build, real Chromium. ~2-3 min.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, describeSerious } from './axe.js';
import { BLOCK_SOCKETS, LANTERN, LANTERN_WIN, openGame, playTyped, settle, typeLine } from './game-driver.js';
import { DESKTOP, type Harness, PHONE, signUp, startHarness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 240_000);

afterAll(async () => {
  await h?.close();
});

/** Waits for the entrance animations to end (looping ones, such as the speaking portrait, go on). */
async function still(page: Page): Promise<void> {
  await page.waitForFunction(
    () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
    undefined, { timeout: 10_000 },
  );
}

/** Runs axe-core on the page as it is and adds its serious and critical violations to `found`. */
async function check(page: Page, where: string, found: string[]): Promise<void> {
  await still(page);
  const serious = describeSerious(await axeViolations(page));
  if (serious) found.push(`${where}:\n${serious}`);
}

describe('accessibility of every screen (axe-core: no serious or critical violation)', { timeout: 300_000 }, () => {
  it('sign-in, sign-up, the public catalogue, the legal pages and the 404 page', async () => {
    const found: string[] = [];
    for (const viewport of [PHONE, DESKTOP]) {
      const at = `${viewport.width}x${viewport.height}`;
      const page = await h.newPage({ viewport });
      await page.goto(`${h.url}/browse`);
      await page.getByTestId('story-card').first().waitFor();
      await check(page, `/browse (public) at ${at}`, found);
      await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
      const signIn = page.getByRole('dialog', { name: 'Sign in to Looptale' });
      await signIn.waitFor();
      await check(page, `sign in (magic link) at ${at}`, found);
      await signIn.getByRole('button', { name: 'Use a password instead' }).click();
      await check(page, `sign in (password) at ${at}`, found);
      await signIn.getByRole('button', { name: 'Sign Up' }).click();
      await page.getByRole('dialog', { name: 'Create your Looptale account' }).waitFor();
      await check(page, `sign up at ${at}`, found);
      for (const path of ['/privacy.html', '/terms.html']) {
        await page.goto(`${h.url}${path}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await check(page, `${path} at ${at}`, found);
      }
      await page.context().close();
      const signedIn = await h.newPage({ viewport, signedInAs: await signUp(h.url) });
      await signedIn.goto(`${h.url}/no-such-page`);
      await signedIn.getByTestId('app-error').waitFor();
      await check(signedIn, `404 at ${at}`, found);
      await signedIn.context().close();
    }
    expect(found.join('\n')).toBe('');
  });

  it('the personal catalogue, the story modal, the launch screen and the account pages', async () => {
    const found: string[] = [];
    for (const viewport of [PHONE, DESKTOP]) {
      const at = `${viewport.width}x${viewport.height}`;
      const page = await h.newPage({ viewport, signedInAs: await signUp(h.url) });
      await page.goto(`${h.url}/browse`);
      await page.getByTestId('personal-hero').waitFor();
      await check(page, `/browse (personal) at ${at}`, found);
      await page.getByTestId('story-card').filter({ hasText: 'The Lantern Keeper' }).first().click();
      await page.getByTestId('story-modal').waitFor();
      await check(page, `story modal at ${at}`, found);
      await page.getByTestId('story-modal').getByRole('button', { name: 'Launch' }).click();
      await page.getByRole('button', { name: 'START' }).waitFor();
      await check(page, `launch intro at ${at}`, found);
      await page.getByRole('button', { name: 'START' }).click();
      await page.getByTestId('launch-buttons').waitFor();
      await check(page, `launch (FRESH) at ${at}`, found);
      for (const [path, title] of [['/my-profile', 'My profile'], ['/settings', 'Settings'], ['/share-feedback', 'Share feedback']] as const) {
        await page.goto(`${h.url}${path}`);
        await page.getByRole('heading', { level: 1, name: title }).waitFor();
        await page.waitForLoadState('networkidle');
        await check(page, `${path} at ${at}`, found);
      }
      await page.getByTestId('ticket-button').click();
      await page.getByRole('dialog', { name: 'Golden Tickets' }).waitFor();
      await check(page, `golden tickets (none yet) at ${at}`, found);
      await page.context().close();
    }
    expect(found.join('\n')).toBe('');
  });

  it('the game won: start, captions, menu, end-run confirmation, award, MOMENT COMPLETE, golden ticket, YOU WON, the ticket picker', async () => {
    const found: string[] = [];
    const page = await h.newPage({ viewport: DESKTOP, signedInAs: await signUp(h.url) });
    await openGame(page, h.url, LANTERN, { via: 'api' });
    await page.locator('.start-screen__start').waitFor();
    await check(page, 'game start', found);
    expect(await settle(page)).toBe('in_game');
    await typeLine(page, LANTERN_WIN[0]);
    await page.locator('[data-testid="caption-character"]').waitFor();
    await check(page, 'in-game with captions', found);
    await page.getByRole('button', { name: 'Menu' }).click();
    const menu = page.locator('[data-testid="game-menu"]');
    await menu.waitFor();
    await check(page, 'menu', found);
    await menu.getByRole('button', { name: 'End Current Run' }).click();
    await page.locator('[data-testid="end-run-confirm"]').waitFor();
    await check(page, 'end-run confirmation', found);
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="end-run-confirm"]').waitFor({ state: 'hidden' });
    if (await menu.isVisible()) await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    for (const line of LANTERN_WIN.slice(1, 3)) {
      await settle(page);
      await typeLine(page, line);
    }
    expect(await settle(page, { pressStart: false })).toBe('end_of_moment');
    await check(page, 'MOMENT COMPLETE', found);
    expect(await settle(page)).toBe('in_game');
    await typeLine(page, LANTERN_WIN[3]);
    await page.locator('[data-testid="award-overlay"]').waitFor();
    await check(page, 'award', found);
    await playTyped(page, LANTERN_WIN.slice(4));
    const popup = page.locator('[data-testid="golden-ticket-popup"]');
    await popup.waitFor();
    await check(page, 'golden ticket', found);
    await popup.click({ position: { x: 5, y: 5 } });
    await popup.waitFor({ state: 'detached' });
    await page.locator('.end-screen--won').waitFor();
    await check(page, 'YOU WON', found);

    await page.goto(`${h.url}/browse`);
    await page.getByTestId('ticket-button').filter({ hasText: '1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Golden Tickets' });
    await dialog.getByText('Available Tickets (1)').waitFor();
    await check(page, 'golden tickets (one to redeem)', found);
    await dialog.getByRole('button', { name: 'Redeem' }).click();
    await dialog.getByTestId('ticket-choice').first().waitFor({ timeout: 15_000 });
    await check(page, 'ticket picker', found);
    expect(found.join('\n')).toBe('');
  });

  it('a lost run, the error dialog and Reconnecting...', async () => {
    const found: string[] = [];
    const account = await signUp(h.url);
    const page = await h.newPage({ viewport: DESKTOP, signedInAs: account });
    await page.addInitScript({ content: BLOCK_SOCKETS });
    await openGame(page, h.url, LANTERN, { via: 'api' });
    await settle(page);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.locator('[data-testid="game-menu"]').getByRole('button', { name: 'End Current Run' }).click();
    await page.locator('[data-testid="end-run-confirm"]').getByRole('button', { name: 'End Current Run' }).click();
    await page.locator('.end-screen--lost').waitFor();
    await check(page, 'YOU LOOSE', found);

    // The run is ended elsewhere: the next line gets the server's error.
    const id = await openGame(page, h.url, LANTERN, { via: 'api' });
    await settle(page);
    await fetch(`${h.url}/api/player-stories/${id}/end`, { method: 'POST', headers: { authorization: `Bearer ${account.session.access_token}` } });
    await typeLine(page, LANTERN_WIN[0]);
    await page.locator('[data-testid="error-dialog"]').waitFor();
    await check(page, 'error dialog', found);

    await openGame(page, h.url, LANTERN, { via: 'api' });
    await settle(page);
    await page.evaluate(() => (window as unknown as { __cutSockets: () => void }).__cutSockets());
    await page.locator('[data-testid="connection-overlay"]').waitFor();
    await check(page, 'Reconnecting...', found);
    expect(found.join('\n')).toBe('');
  });
});
