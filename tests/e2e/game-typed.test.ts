// The game screen played by typing and tapping (issue #10 §1, §3): a whole Lantern Keeper run to 'YOU WON' and the
// golden ticket popup, the menu and End Current Run, the connection overlay with the turn replayed once, French.
// Real server (PGlite), real web build, real Chromium. ~60-90 s on the shared 2-core machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeMicrophoneArgs, type Harness, PHONE, signUp, startHarness } from './harness.js';
import { LANTERN, LANTERN_WIN, openGame, playTyped, settle, subScreen, typeLine } from './game-driver.js';

let h: Harness;

/** Closes the page's socket right after it sends the next USER_INPUT when window.__killNextInput is set. */
const KILL_SCRIPT = `(() => {
  window.__killed = 0;
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    send.call(this, data);
    if (window.__killNextInput) {
      window.__killNextInput = false;
      window.__killed++;
      this.close(4000, 'test: network dropped');
    }
  };
})();`;

beforeAll(async () => {
  h = await startHarness({ args: fakeMicrophoneArgs() });
}, 240_000);

afterAll(async () => {
  await h?.close();
});

describe('the game screen, typed', () => {
  it('plays a whole Lantern Keeper run to YOU WON and the golden ticket popup', async () => {
    const account = await signUp(h.url);
    const page = await h.newPage({ signedInAs: account });
    await openGame(page, h.url, LANTERN);
    // The start screen: date, moment name, Start, 'Run 1', 'Beat rank F'.
    await page.locator('.start-screen__name').waitFor();
    expect(await page.locator('.start-screen__name').textContent()).toBe('Fog over Saltmere');
    expect(await page.locator('.start-screen__facts').textContent()).toBe('Run 1·Beat rank F');
    expect(await page.locator('[data-testid="moment-date"] .visually-hidden').textContent()).toMatch(/\d{4}/);
    const end = await playTyped(page, LANTERN_WIN);
    expect(end).toBe('game_won');
    expect(await page.locator('.end-screen__title').textContent()).toBe('YOU WON');
    const popup = page.locator('[data-testid="golden-ticket-popup"]');
    await popup.waitFor({ timeout: 10_000 });
    expect(await popup.textContent()).toContain('GOLDEN TICKET EARNED!');
    expect(await popup.textContent()).toContain('Congratulations on your first Rank A! You can now permanently recruit this character!');
    // A click on the backdrop closes it (after its 500 ms fade).
    await popup.click({ position: { x: 5, y: 5 } });
    await popup.waitFor({ state: 'detached', timeout: 5000 });
    // Restart goes to the launch screen.
    await page.getByRole('button', { name: 'Restart' }).click();
    await page.waitForURL(`${h.url}/launch/${LANTERN}`);
    await page.close();
  }, 240_000);

  it('shows the menu and ends the run: YOU LOOSE', async () => {
    const account = await signUp(h.url);
    const page = await h.newPage({ signedInAs: account, viewport: PHONE });
    await openGame(page, h.url, LANTERN);
    await settle(page);
    await page.getByRole('button', { name: 'Menu' }).click();
    const menu = page.locator('[data-testid="game-menu"]');
    await menu.waitFor();
    expect(await page.locator('[data-testid="menu-loop"]').textContent()).toBe('1');
    expect(await page.locator('[data-testid="menu-remaining"] svg').getAttribute('aria-label')).toBe('20 of 20');
    expect(await menu.textContent()).toContain('Characters');
    expect(await page.locator('[data-testid="menu-character"]').count()).toBe(1);
    if (process.env.GAME_E2E_DEBUG) process.stderr.write(`[game] menu: ${await menu.textContent()}\n`);
    expect(await page.locator('[data-testid="menu-item"]').textContent()).toContain('Oilskin Coat');
    await menu.getByRole('button', { name: 'End Current Run' }).click();
    const confirm = page.locator('[data-testid="end-run-confirm"]');
    expect(await confirm.textContent()).toContain("⚠️ End Current Run? This will immediately end your current game and mark it as lost. You'll return to the launch screen to start a new run. Are you sure you want to end this run?");
    await confirm.getByRole('button', { name: 'End Current Run' }).click();
    await page.locator('.end-screen--lost').waitFor({ timeout: 15_000 });
    expect(await page.locator('.end-screen__title').textContent()).toBe('YOU LOOSE');
    expect(await subScreen(page)).toBe('game_lost');
    await page.close();
  }, 120_000);

  it('covers the screen while the socket is down, then replays the turn once and counts it once', async () => {
    const account = await signUp(h.url);
    const page = await h.newPage({ signedInAs: account });
    // The socket is cut right after the next USER_INPUT went out, before its answer can arrive (a dropped network).
    await page.addInitScript({ content: KILL_SCRIPT });
    const runId = await openGame(page, h.url, LANTERN);
    await settle(page);
    await page.evaluate(() => { (window as unknown as { __killNextInput: boolean }).__killNextInput = true; });
    await page.locator('[data-testid="typed-input"]').fill('When does the light go dark?');
    await page.locator('.control-bar__form button[type="submit"]').click();
    const overlay = page.locator('[data-testid="connection-overlay"]');
    await overlay.waitFor({ timeout: 10_000 });
    expect(await overlay.textContent()).toContain('Reconnecting...');
    await overlay.waitFor({ state: 'detached', timeout: 30_000 });
    await page.locator('[data-testid="caption-character"]').waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => document.querySelector('[data-testid="record-button"]')?.getAttribute('data-state') !== 'PROCESSING', undefined, { timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { __killed: number }).__killed)).toBe(1);
    const dialogue = await (await fetch(`${h.url}/api/player-stories/${runId}/dialogue`, { headers: { authorization: `Bearer ${account.session.access_token}` } })).text();
    // The replayed input was applied once: the player's line is in the history once.
    expect(dialogue.split('When does the light go dark?').length - 1).toBe(1);
    expect(await page.locator('[data-testid="caption-player"]').textContent()).toContain('When does the light go dark?');
    // ...and counted once: the server's interaction count is that of one turn.
    const view = (await (await fetch(`${h.url}/api/player-stories/${runId}/game-view`, { headers: { authorization: `Bearer ${account.session.access_token}` } })).json()) as { loop_current_number_of_interactions: number };
    expect(view.loop_current_number_of_interactions).toBe(1);
    await page.close();
  }, 120_000);

  it('plays typed in French', async () => {
    const account = await signUp(h.url);
    const page = await h.newPage({ signedInAs: account });
    await openGame(page, h.url, LANTERN, { language: 'french' });
    await page.locator('.start-screen__name').waitFor();
    expect(await page.locator('[data-testid="moment-date"] .visually-hidden').textContent()).toMatch(/octobre|novembre|décembre|janvier|février|mars|avril|mai|juin|juillet|août|septembre/);
    await settle(page);
    await typeLine(page, "Quand est-ce que la lumière s'éteint ?");
    await page.locator('[data-testid="caption-character"]').waitFor();
    await page.close();
  }, 120_000);
});
