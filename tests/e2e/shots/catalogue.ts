// Screens of the catalogues and the story modal (issue #9 phase 2): the public card's hover details, the personal
// catalogue with its Continue row (a run started over the API first), the story modal.
import type { Page } from 'playwright-core';
import type { Shot, ShotContext } from '../screenshots.js';
import { LANTERN } from './shell.js';

/** Starts a run of The Lantern Keeper for the shot's account, so the Continue row has a story. */
export async function startRun(ctx: ShotContext, storyId = LANTERN): Promise<string> {
  const res = await fetch(`${ctx.harness.url}/api/player-stories`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.account?.session.access_token ?? ''}` },
    body: JSON.stringify({ blueprint_story_id: storyId, language: 'english' }),
  });
  if (!res.ok) throw new Error(`start run: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

async function browse(page: Page, ctx: ShotContext): Promise<void> {
  await page.goto(`${ctx.harness.url}/browse`);
  await page.getByTestId('story-card').first().waitFor();
}

export const shots: Shot[] = [
  {
    name: 'catalogue-public-hover',
    setup: async (page, ctx) => {
      await browse(page, ctx);
      const card = page.getByTestId('story-card').first();
      await card.scrollIntoViewIfNeeded();
      await card.hover();
      await page.waitForTimeout(400);
    },
  },
  {
    name: 'catalogue-personal',
    signedIn: true,
    setup: async (page, ctx) => {
      await startRun(ctx);
      await browse(page, ctx);
      await page.getByTestId('continue-row').waitFor();
    },
  },
  {
    name: 'catalogue-personal-full',
    signedIn: true,
    fullPage: true,
    setup: async (page, ctx) => {
      await startRun(ctx);
      await browse(page, ctx);
      await page.getByTestId('progress-caption').filter({ hasText: 'moments reached' }).first().waitFor();
    },
  },
  {
    name: 'story-modal',
    signedIn: true,
    setup: async (page, ctx) => {
      await browse(page, ctx);
      await page.getByTestId('trending').getByTestId('story-card').first().click();
      await page.getByTestId('story-modal').waitFor();
      await page.waitForTimeout(400);
    },
  },
  {
    name: 'launch-intro',
    signedIn: true,
    setup: async (page, ctx) => {
      await page.goto(`${ctx.harness.url}/launch/${LANTERN}`);
      await page.getByRole('button', { name: 'START' }).waitFor();
      await page.waitForTimeout(1500);
    },
  },
  {
    name: 'launch-ongoing',
    signedIn: true,
    setup: async (page, ctx) => {
      await startRun(ctx);
      await page.goto(`${ctx.harness.url}/launch/${LANTERN}`);
      await page.getByRole('button', { name: 'START' }).click();
      await page.getByTestId('launch-buttons').waitFor();
    },
  },
  {
    name: 'launch-reset-confirm',
    signedIn: true,
    setup: async (page, ctx) => {
      await startRun(ctx);
      await page.goto(`${ctx.harness.url}/launch/${LANTERN}`);
      await page.getByRole('button', { name: 'START' }).click();
      await page.getByRole('button', { name: 'reset all progress' }).click();
      await page.getByRole('dialog').waitFor();
      await page.waitForTimeout(400);
    },
  },
];
