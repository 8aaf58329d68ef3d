// Screens of the game as a new player meets them: the answer box near its limit, 'Reconnecting...' when
// the device goes offline, 'Connection lost' once the reconnect attempts are spent, the hint after a line the game did
// not take, the award shown again after a reload, and a run lost at the Dead End (no rank celebrated).
import type { Page } from 'playwright-core';
import type { Shot } from '../screenshots.js';
import { BLOCK_SOCKETS, LANTERN, LANTERN_WIN, openGame, playTyped, settle, typeLine } from '../game-driver.js';

async function inGame(page: Page, url: string): Promise<string> {
  const id = await openGame(page, url, LANTERN, { via: 'api' });
  await settle(page);
  return id;
}

export const shots: Shot[] = [
  {
    name: 'game-player-answer-limit',
    signedIn: true,
    setup: async (page, { harness }) => {
      await inGame(page, harness.url);
      await page.locator('[data-testid="typed-input"]').fill('When does the light go dark? '.repeat(66));
      await page.locator('[data-testid="answer-counter"]').waitFor();
    },
  },
  {
    name: 'game-player-offline',
    signedIn: true,
    setup: async (page, { harness }) => {
      await inGame(page, harness.url);
      await page.context().setOffline(true);
      await page.locator('[data-testid="connection-overlay"]').waitFor();
    },
  },
  {
    name: 'game-player-connection-lost',
    signedIn: true,
    setup: async (page, { harness }) => {
      await page.addInitScript({ content: BLOCK_SOCKETS });
      // The page's clock is stepped: the 50 attempts 5 s apart (250 s) pass in seconds.
      await page.clock.install();
      await inGame(page, harness.url);
      await page.evaluate(() => (window as unknown as { __cutSockets: () => void }).__cutSockets());
      const overlay = page.locator('[data-testid="connection-overlay"]');
      await overlay.waitFor();
      for (let i = 0; i < 150 && !((await overlay.textContent()) ?? '').includes('Connection lost'); i++) {
        await page.clock.runFor(5_000);
        await page.waitForTimeout(50);
      }
      await overlay.getByText('Connection lost').waitFor({ timeout: 1000 });
      await page.clock.runFor(1_000); // the overlay's fade ends
    },
  },
  {
    name: 'game-player-miss-hint',
    signedIn: true,
    setup: async (page, { harness }) => {
      await inGame(page, harness.url);
      // A line the moment has no answer for: the character's reply to it (and the hint box, when the game shows one).
      await typeLine(page, 'Bananas are yellow');
      await page.locator('[data-testid="caption-player"]:not(.is-pending)').waitFor();
      await page.locator('[data-testid="caption-character"]').waitFor();
    },
  },
  {
    name: 'game-player-award-after-reload',
    signedIn: true,
    setup: async (page, { harness }) => {
      await inGame(page, harness.url);
      await playTyped(page, LANTERN_WIN.slice(0, 3));
      await typeLine(page, LANTERN_WIN[3]);
      await page.locator('[data-testid="award-overlay"]').waitFor();
      await page.reload();
      await page.locator('[data-testid="award-overlay"]').waitFor();
    },
  },
  {
    name: 'game-player-dead-end',
    signedIn: true,
    setup: async (page, { harness }) => {
      await inGame(page, harness.url);
      await playTyped(page, ['When does the light go dark?', 'Was it a ghost?', 'Is anything missing?', 'What did you find on the stairs?', 'Yes, come with us!', 'Down to the tide caves']);
      await page.locator('.end-screen--lost').waitFor();
      await page.waitForTimeout(700);
    },
  },
];
