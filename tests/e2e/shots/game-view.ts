// More game screens (issue #10): a Clockwork Siege run typed to each of its moments: the forging overlay, the upgrade
// banner, the Assemble banner, a battle (ATTACK, DEFEND), the menu's story graph, and the rank reached over YOU WON.
import type { Page } from 'playwright-core';
import type { Shot } from '../screenshots.js';
import { CLOCKWORK, CLOCKWORK_ASSEMBLE_AT, CLOCKWORK_BATTLE_AT, CLOCKWORK_WIN, openGame, playPlan, settle, typeLine } from '../game-driver.js';

async function clockwork(page: Page, url: string, steps: number): Promise<void> {
  await openGame(page, url, CLOCKWORK, { via: 'api' });
  await playPlan(page, CLOCKWORK_WIN.slice(0, steps));
}

const line = (i: number): string => {
  const s = CLOCKWORK_WIN[i];
  if (typeof s !== 'string') throw new Error(`step ${i} is not a line`);
  return s;
};

export const shots: Shot[] = [
  {
    name: 'game-upgrade-banner',
    signedIn: true,
    setup: async (page, { harness }) => {
      await clockwork(page, harness.url, 6);
      await settle(page);
      await typeLine(page, line(6));
      await page.locator('[data-testid="upgrade-banner"]').waitFor();
    },
  },
  {
    name: 'game-forging',
    signedIn: true,
    setup: async (page, { harness }) => {
      await clockwork(page, harness.url, 8);
      await settle(page);
      await typeLine(page, line(8));
      await page.locator('[data-testid="forging-overlay"]').waitFor();
      await page.waitForTimeout(600);
    },
  },
  {
    name: 'game-assemble',
    signedIn: true,
    setup: async (page, { harness }) => {
      await clockwork(page, harness.url, CLOCKWORK_ASSEMBLE_AT);
      await page.locator('[data-testid="assemble-banner"]').waitFor();
    },
  },
  {
    name: 'game-battle',
    signedIn: true,
    setup: async (page, { harness }) => {
      await clockwork(page, harness.url, CLOCKWORK_BATTLE_AT);
      await page.locator('[data-testid="battle-indicator"]').waitFor();
    },
  },
  {
    name: 'game-battle-defend',
    signedIn: true,
    setup: async (page, { harness }) => {
      await clockwork(page, harness.url, CLOCKWORK_BATTLE_AT + 1);
      await page.locator('[data-testid="battle-indicator"]', { hasText: 'DEFEND' }).waitFor();
    },
  },
  {
    name: 'game-story-graph',
    signedIn: true,
    setup: async (page, { harness }) => {
      await clockwork(page, harness.url, CLOCKWORK_BATTLE_AT);
      await page.getByRole('button', { name: 'Menu' }).click();
      await page.locator('[data-testid="story-node"]').first().waitFor();
      await page.locator('[data-testid="story-graph"]').scrollIntoViewIfNeeded();
      await page.waitForTimeout(400);
    },
  },
  {
    name: 'game-rank',
    signedIn: true,
    setup: async (page, { harness }) => {
      await clockwork(page, harness.url, CLOCKWORK_WIN.length);
      await page.locator('[data-testid="notification"]', { hasText: 'ACHIEVED' }).waitFor({ timeout: 30_000 });
    },
  },
];
