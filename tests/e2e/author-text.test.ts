// Author-written text is data, never markup: a story whose name, description, moment name, character name and
// opening line hold HTML and script is shown in Chromium on the catalogue, the story modal and the game's start screen
// as the literal characters, and none of it becomes an element or runs, there or while the moment plays.
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Story } from '../../engine/story/format.js';
import { cloneFixtureStory } from '../helpers/story-clone.js';
import { openGame } from './game-driver.js';
import { DESKTOP, type Harness, signUp, startHarness } from './harness.js';

const IMG = '<img src=x onerror="window.__injected=1">';
const SCRIPT = '<script>window.__injected=2</script>';
const BOLD = '<b data-injected="1">Ysolde</b>';

let h: Harness;
let storyId = '';
const tag = randomUUID().slice(0, 6);
const storyName = `${IMG}Hostile ${tag}`;

beforeAll(async () => {
  h = await startHarness();
  const doc = cloneFixtureStory('lantern-keeper', storyName);
  const catalogue = doc.catalogue as Record<string, unknown>;
  catalogue.description = { en: `${SCRIPT} A story with markup in it.` };
  const moments = doc.moments as Record<string, unknown>[];
  const first = moments.find((m) => m.id === doc.first_moment_id) as Record<string, unknown>;
  first.name = { en: `${IMG}Fog` };
  first.opening = [{ en: `${SCRIPT}${IMG} Welcome, apprentice.` }];
  const speaker = (doc.characters as Record<string, unknown>[]).find((c) => c.id === first.character_id) as Record<string, unknown>;
  speaker.name = BOLD;
  await h.server.services.stories.importStory(Story.parse(doc), doc);
  storyId = String(doc.id);
}, 180_000);
afterAll(async () => h?.close());

/** No element the author's text could have made, and no script of it ran. */
async function noMarkup(page: Page, where: string): Promise<void> {
  const found = await page.evaluate(() => ({
    images: document.querySelectorAll('img[src="x"]').length,
    bold: document.querySelectorAll('[data-injected]').length,
    scripts: [...document.querySelectorAll('script')].filter((s) => (s.textContent ?? '').includes('__injected')).length,
    ran: (window as unknown as { __injected?: number }).__injected ?? null,
  }));
  expect(found, where).toEqual({ images: 0, bold: 0, scripts: 0, ran: null });
}

describe('author-written text in the browser', { timeout: 180_000 }, () => {
  it('shows markup in a story as text on the catalogue, the story modal and the start screen, and runs none of it while the moment plays', async () => {
    const page = await h.newPage({ signedInAs: await signUp(h.url), viewport: DESKTOP });
    await page.goto(`${h.url}/browse`);
    const card = page.getByTestId('story-card').filter({ hasText: `Hostile ${tag}` }).first();
    await card.waitFor({ timeout: 30_000 });
    await expect(card.textContent()).resolves.toContain(storyName);
    await noMarkup(page, 'catalogue');

    await card.click();
    const modal = page.getByTestId('story-modal');
    await modal.waitFor();
    await expect(modal.textContent()).resolves.toContain(`${SCRIPT} A story with markup in it.`);
    await noMarkup(page, 'story modal');

    await openGame(page, h.url, storyId, { via: 'api' });
    await page.getByText(`${IMG}Fog`).first().waitFor({ timeout: 30_000 });
    await noMarkup(page, 'start screen');

    // The moment plays (its opening line, spoken by the character named in markup) to its end: nothing ran.
    await page.locator('.start-screen__start').click();
    await page.getByText('MOMENT COMPLETE').waitFor({ timeout: 30_000 });
    await noMarkup(page, 'after the moment played');
  });
});
