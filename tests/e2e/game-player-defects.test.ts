// The game screen as a new player meets it, on what the unit tests cannot see: no request for a story with no id,
// the answer box's limit and counter, 'Reconnecting...' when the device goes offline (an answer sent meanwhile goes
// through once it is back), and a reload in the middle of a reward turn showing its award and MOMENT COMPLETE.
// Real server (PGlite), real web build, real Chromium. ~60-90 s on the shared 2-core machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, PHONE, signUp, startHarness } from './harness.js';
import { LANTERN, LANTERN_WIN, openGame, playTyped, settle, subScreen } from './game-driver.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 240_000);

afterAll(async () => {
  await h?.close();
});

describe('the game screen for a new player', () => {
  it('asks for no story without an id, and the answer box takes what the server takes, counting down near the limit', async () => {
    const account = await signUp(h.url);
    const page = await h.newPage({ signedInAs: account, viewport: PHONE });
    const bad: string[] = [];
    page.on('request', (r) => { if (/\/api\/stories\/(\?|$)/.test(r.url())) bad.push(r.url()); });
    page.on('response', (r) => { if (r.status() >= 400) bad.push(`${r.status()} ${r.url()}`); });
    page.on('console', (m) => { if (m.type() === 'error') bad.push(`console: ${m.text()}`); });
    await openGame(page, h.url, LANTERN, { via: 'api' });
    await settle(page);
    expect(bad).toEqual([]);

    const box = page.locator('[data-testid="typed-input"]');
    expect(await box.getAttribute('maxlength')).toBe('2000');
    await box.fill('a'.repeat(1700));
    expect(await page.locator('[data-testid="answer-counter"]').count()).toBe(0);
    await box.fill('When does the light go dark? '.repeat(80)); // 2,320 characters pasted
    expect((await box.inputValue()).length).toBe(2000);
    expect(await page.locator('[data-testid="answer-counter"]').textContent()).toBe('2,000 characters at most');
    await box.press('Backspace');
    expect(await page.locator('[data-testid="answer-counter"]').textContent()).toBe('1 character left');
    await box.press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-testid="record-button"]')?.getAttribute('data-state') !== 'PROCESSING', undefined, { timeout: 30_000 });
    await page.locator('[data-testid="caption-character"]').waitFor({ timeout: 30_000 });
    // The server took it: no dialog, no schema message anywhere.
    expect(await page.locator('[data-testid="error-dialog"]').count()).toBe(0);
    expect(await page.locator('[data-testid="game-screen"]').textContent()).not.toMatch(/schema|USER_INPUT/);
    await page.close();
  }, 120_000);

  it("covers the screen with 'Reconnecting...' while offline; an answer sent meanwhile is answered once back", async () => {
    const account = await signUp(h.url);
    const page = await h.newPage({ signedInAs: account });
    await openGame(page, h.url, LANTERN, { via: 'api' });
    await settle(page);
    const overlay = page.locator('[data-testid="connection-overlay"]');
    expect(await overlay.count()).toBe(0);
    await page.context().setOffline(true);
    await overlay.waitFor({ timeout: 3000 });
    expect(await overlay.textContent()).toContain('Reconnecting...');
    // Sent while offline (typed and Enter: the overlay covers the box from the pointer, as it should).
    const box = page.locator('[data-testid="typed-input"]');
    await box.fill('When does the light go dark?');
    await box.press('Enter');
    await page.waitForTimeout(5000);
    expect(await overlay.textContent()).toContain('Reconnecting...');
    await page.context().setOffline(false);
    await overlay.waitFor({ state: 'detached', timeout: 20_000 });
    await page.locator('[data-testid="caption-player"]:not(.is-pending)').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid="caption-player"]').textContent()).toContain('When does the light go dark?');
    await page.locator('[data-testid="caption-character"]').waitFor({ timeout: 30_000 });
    const dialog = page.locator('[data-testid="error-dialog"]');
    expect(await dialog.count() ? await dialog.textContent() : null).toBeNull();
    await page.close();
  }, 120_000);

  it('a reload while a reward shows its award shows the award again, then MOMENT COMPLETE', async () => {
    const account = await signUp(h.url);
    const page = await h.newPage({ signedInAs: account });
    await openGame(page, h.url, LANTERN, { via: 'api' });
    // The Keeper's Log, then Nell at the Quay: 'Yes, come with us!' awards Nell and completes the moment.
    expect(await playTyped(page, LANTERN_WIN.slice(0, 3))).toBe('in_game');
    await page.locator('[data-testid="typed-input"]').fill(LANTERN_WIN[3]);
    await page.locator('.control-bar__form button[type="submit"]').click();
    const award = page.locator('[data-testid="award-overlay"]');
    await award.waitFor({ timeout: 30_000 });
    const before = await award.textContent();
    expect(before).toContain('Nell');
    await page.reload();
    await award.waitFor({ timeout: 30_000 });
    expect(await award.textContent()).toBe(before);
    expect(await award.textContent()).not.toMatch(/_/);
    await award.click();
    await page.locator('[data-testid="game-screen"][data-sub-screen="end_of_moment"]').waitFor({ timeout: 30_000 });
    expect(await page.locator('.end-screen__title').textContent()).toBe('MOMENT COMPLETE');
    // Seen and left: a reload now opens the next moment with nothing of the reward's turn.
    await page.locator('.end-screen button').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="game-screen"]')?.getAttribute('data-sub-screen') === 'in_game'
      && document.querySelector('[data-testid="record-button"]')?.getAttribute('data-state') !== 'PROCESSING', undefined, { timeout: 30_000 });
    await page.reload();
    await page.locator('[data-testid="game-screen"]').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="game-screen"]')?.getAttribute('data-sub-screen') === 'start', undefined, { timeout: 30_000 });
    expect(await page.locator('[data-testid="award-overlay"]').count()).toBe(0);
    expect(await subScreen(page)).toBe('start');
    await page.close();
  }, 180_000);
});
