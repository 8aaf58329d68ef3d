// Screens of the game (issue #10): each sub-screen, the menu, the overlays (award, perfect notification, error
// dialog, connection, golden ticket) played to by typing on a fresh account.
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
    name: 'game-start',
    signedIn: true,
    setup: async (page, { harness }) => {
      await openGame(page, harness.url, LANTERN, { via: 'api' });
      await page.locator('.start-screen__name').waitFor();
      await page.waitForTimeout(1500); // the date's letters arrive
    },
  },
  {
    name: 'game-in-game',
    signedIn: true,
    setup: async (page, { harness }) => {
      await inGame(page, harness.url);
      await typeLine(page, 'When does the light go dark?');
      await settle(page);
    },
  },
  {
    name: 'game-menu',
    signedIn: true,
    setup: async (page, { harness }) => {
      await inGame(page, harness.url);
      await page.getByRole('button', { name: 'Menu' }).click();
      await page.locator('[data-testid="game-menu"]').waitFor();
      await page.waitForTimeout(400);
    },
  },
  {
    name: 'game-end-run-confirm',
    signedIn: true,
    setup: async (page, { harness }) => {
      await inGame(page, harness.url);
      await page.getByRole('button', { name: 'Menu' }).click();
      await page.locator('[data-testid="game-menu"]').getByRole('button', { name: 'End Current Run' }).click();
      await page.locator('[data-testid="end-run-confirm"]').waitFor();
    },
  },
  {
    name: 'game-award',
    signedIn: true,
    setup: async (page, { harness }) => {
      await inGame(page, harness.url);
      await playTyped(page, LANTERN_WIN.slice(0, 3));
      await typeLine(page, LANTERN_WIN[3]);
      await page.locator('[data-testid="award-overlay"]').waitFor();
    },
  },
  {
    name: 'game-perfect',
    signedIn: true,
    setup: async (page, { harness }) => {
      await inGame(page, harness.url);
      await playTyped(page, LANTERN_WIN.slice(0, 5));
      await typeLine(page, LANTERN_WIN[5]);
      await page.locator('[data-testid="notification"]').waitFor();
    },
  },
  {
    name: 'game-end-of-moment',
    signedIn: true,
    setup: async (page, { harness }) => {
      await inGame(page, harness.url);
      for (const line of LANTERN_WIN.slice(0, 3)) {
        await settle(page);
        await typeLine(page, line);
      }
      await settle(page, { pressStart: false });
      await page.locator('.end-screen--moment').waitFor();
    },
  },
  {
    name: 'game-won-ticket',
    signedIn: true,
    setup: async (page, { harness }) => {
      await inGame(page, harness.url);
      await playTyped(page, LANTERN_WIN);
      await page.locator('[data-testid="golden-ticket-popup"]').waitFor();
      await page.waitForTimeout(700);
    },
  },
  {
    name: 'game-won',
    signedIn: true,
    setup: async (page, { harness }) => {
      await inGame(page, harness.url);
      await playTyped(page, LANTERN_WIN);
      await page.locator('[data-testid="golden-ticket-popup"]').click({ position: { x: 5, y: 5 } });
      await page.locator('[data-testid="golden-ticket-popup"]').waitFor({ state: 'detached' });
    },
  },
  {
    name: 'game-lost',
    signedIn: true,
    setup: async (page, { harness }) => {
      await inGame(page, harness.url);
      await page.getByRole('button', { name: 'Menu' }).click();
      await page.locator('[data-testid="game-menu"]').getByRole('button', { name: 'End Current Run' }).click();
      await page.locator('[data-testid="end-run-confirm"]').getByRole('button', { name: 'End Current Run' }).click();
      await page.locator('.end-screen--lost').waitFor();
    },
  },
  {
    name: 'game-error',
    signedIn: true,
    setup: async (page, { harness, account }) => {
      const id = await inGame(page, harness.url);
      // The run is ended elsewhere: the next line gets the server's ERROR_MESSAGE.
      await fetch(`${harness.url}/api/player-stories/${id}/end`, { method: 'POST', headers: { authorization: `Bearer ${account?.session.access_token ?? ''}` } });
      await typeLine(page, 'When does the light go dark?');
      await page.locator('[data-testid="error-dialog"]').waitFor();
    },
  },
  {
    name: 'game-connection',
    signedIn: true,
    setup: async (page, { harness }) => {
      await page.addInitScript({ content: BLOCK_SOCKETS });
      await inGame(page, harness.url);
      await page.evaluate(() => (window as unknown as { __cutSockets: () => void }).__cutSockets());
      await page.locator('[data-testid="connection-overlay"]').waitFor();
    },
  },
];
