// Screens of the game as a new player meets them: the answer box near its limit, 'Reconnecting...' when
// the device goes offline, the award shown again after a reload, and a run lost at the Dead End (no rank celebrated).
import type { Page } from 'playwright-core';
import type { Shot } from '../screenshots.js';
import { LANTERN, LANTERN_WIN, openGame, playTyped, settle, typeLine } from '../game-driver.js';

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
