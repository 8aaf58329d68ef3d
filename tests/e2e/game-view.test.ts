// The rest of the game screen (issue #10 §1): a whole Clockwork Siege run played by typing, watching every overlay it
// reaches (award, forging, perfect, upgrade banner, rank achieved), the Assemble banner 'selected / maxRequired', the
// battle indicator, card pictures, and the story graph in the menu ('+N more', 4-character ids); then the error
// dialog; 'Connection lost' after the last reconnect attempt (the page's clock stepped). Real server (PGlite), real web
// build, real Chromium. ~40-90 s on the shared 2-core machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeMicrophoneArgs, type Harness, signUp, startHarness } from './harness.js';
import {
  BLOCK_SOCKETS, CLOCKWORK, CLOCKWORK_ASSEMBLE_AT, CLOCKWORK_BATTLE_AT, CLOCKWORK_WIN, LANTERN, openGame, playPlan, seenTexts, settle, typeLine,
  WATCH_SCRIPT,
} from './game-driver.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ args: fakeMicrophoneArgs() });
}, 240_000);

afterAll(async () => {
  await h?.close();
});

describe('the game screen: banners, pictures, story graph and overlays', () => {
  it('plays The Clockwork Siege to YOU WON through every overlay of the run', async () => {
    const account = await signUp(h.url);
    const page = await h.newPage({ signedInAs: account });
    await page.addInitScript({ content: WATCH_SCRIPT });
    await openGame(page, h.url, CLOCKWORK);

    // Up to the Assemble moment: the banner counts the selected characters against the moment's maximum (3).
    expect(await playPlan(page, CLOCKWORK_WIN.slice(0, CLOCKWORK_ASSEMBLE_AT))).toBe('in_game');
    const banner = page.locator('[data-testid="assemble-banner"]');
    expect(await banner.textContent()).toMatch(/^\d \/ 3$/);
    // Cards carry the pictures the server resolved to public URLs, and they load.
    const picture = page.locator('[data-testid="card-character"] img').first();
    expect(await picture.getAttribute('src')).toMatch(/^\/storage\/v1\/object\/public\/image\/[0-9a-f-]{36}\/.+/);
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('[data-testid="card-character"] img')].every((i) => i.complete && i.naturalWidth > 0), undefined, { timeout: 15_000 });

    // The battle: the indicator, the opponents' pictures, and the story graph with the battle as the current node.
    expect(await playPlan(page, CLOCKWORK_WIN.slice(CLOCKWORK_ASSEMBLE_AT, CLOCKWORK_BATTLE_AT))).toBe('in_game');
    expect(await page.locator('[data-testid="battle-indicator"]').textContent()).toBe('ATTACK');
    const opponents = page.locator('[data-testid="card-opponent"]');
    expect(await opponents.count()).toBe(3);
    expect(await opponents.locator('img').count()).toBe(3);
    await page.getByRole('button', { name: 'Menu' }).click();
    const nodes = page.locator('[data-testid="story-node"]');
    await nodes.first().waitFor({ timeout: 15_000 });
    const count = await nodes.count();
    expect(count).toBeGreaterThanOrEqual(10);
    const battle = nodes.nth(count - 1);
    expect(await battle.getAttribute('data-moment-type')).toBe('Battle');
    expect(await battle.getAttribute('aria-current')).toBe('step');
    // Only the first opponent shows, its id as 4 characters; the other two as '+2 more'.
    expect(await battle.locator('[data-testid="story-node-cards"]').textContent()).toMatch(/^.+ #[0-9a-f]{4}\+2 more$/);
    const reward = nodes.filter({ hasText: 'Waking Ferrule' });
    expect(await reward.locator('[data-testid="story-node-cards"]').textContent()).toMatch(/^Ferrule #[0-9a-f]{4}$/);
    await page.getByRole('button', { name: 'Close menu' }).click();

    expect(await playPlan(page, CLOCKWORK_WIN.slice(CLOCKWORK_BATTLE_AT))).toBe('game_won');
    // The rank reached shows over YOU WON once the notifications before it (perfect, upgrade) have had their time.
    await page.waitForFunction(() => (window as unknown as { __seen: Record<string, string[] | undefined> }).__seen.notification?.some((t) => t.includes('ACHIEVED')), undefined, { timeout: 30_000 });
    const seen = await seenTexts(page);
    if (process.env.GAME_E2E_DEBUG) process.stderr.write(`[game-view] seen ${JSON.stringify(seen, null, 1)}\n`);
    expect(seen['award-overlay']?.length).toBeGreaterThanOrEqual(2);
    expect(seen['forging-overlay']?.length).toBeGreaterThanOrEqual(1);
    expect(seen['upgrade-banner']).toContain('Here is your riddle');
    expect(seen['assemble-banner']).toContain('3 / 3');
    expect(seen['battle-indicator']).toEqual(expect.arrayContaining(['ATTACK', 'DEFEND']));
    const notes = (seen.notification ?? []).join('\n');
    expect(notes).toContain('Perfect answer!');
    expect(notes).toContain('Properties sacrificed');
    expect(notes).toContain('Upgraded to Golden');
    expect(notes).toContain('RANK B ACHIEVED!');
    expect(notes).toContain('FIRST TIME!');
    await page.close();
  }, 240_000);

  it("says 'Connection lost' after the last reconnect attempt, and Try again reconnects", async () => {
    const account = await signUp(h.url);
    const page = await h.newPage({ signedInAs: account });
    await page.addInitScript({ content: BLOCK_SOCKETS });
    // The page's clock is ours: the 50 attempts 5 s apart (250 s) pass in a few seconds.
    await page.clock.install();
    await openGame(page, h.url, LANTERN, { via: 'api' });
    await settle(page);
    await page.evaluate(() => (window as unknown as { __cutSockets: () => void }).__cutSockets());
    const overlay = page.locator('[data-testid="connection-overlay"]');
    await overlay.waitFor({ timeout: 10_000 });
    expect(await overlay.textContent()).toContain('Reconnecting...');
    // Each attempt fails at once: step the clock 5 s at a time, attempt by attempt.
    for (let i = 0; i < 150 && !((await overlay.textContent()) ?? '').includes('Connection lost'); i++) {
      await page.clock.runFor(5_000);
      await page.waitForTimeout(50);
    }
    expect(await overlay.textContent()).toContain('Connection lost');
    await page.evaluate(() => (window as unknown as { __mendSockets: () => void }).__mendSockets());
    await overlay.getByRole('button', { name: 'Try again' }).click();
    await overlay.waitFor({ state: 'detached', timeout: 30_000 });
    await page.close();
  }, 120_000);

  it('shows the error dialog for an ERROR_MESSAGE and closes it with its button', async () => {
    const account = await signUp(h.url);
    const page = await h.newPage({ signedInAs: account });
    const runId = await openGame(page, h.url, LANTERN);
    await settle(page);
    // The run is ended elsewhere (another tab): the next line is refused with an ERROR_MESSAGE.
    const ended = await fetch(`${h.url}/api/player-stories/${runId}/end`, { method: 'POST', headers: { authorization: `Bearer ${account.session.access_token}` } });
    expect(ended.status).toBe(200);
    await typeLine(page, 'When does the light go dark?');
    const dialog = page.locator('[data-testid="error-dialog"]');
    await dialog.waitFor({ timeout: 15_000 });
    expect(await dialog.locator('h2').textContent()).toBe('An error occurred');
    await dialog.getByRole('button', { name: 'Got it, thanks!' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 5000 });
    await page.close();
  }, 120_000);
});
