// The studio's forms in Chromium against a real server: an author edits a moment's goal in English and French side by
// side (the French flagged missing, then outdated once the English changes), renames a character on its page and sees
// every reference follow (its name in the lists and pickers, the texts that said it), and after a reload finds all of
// it kept on the server.
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneFixtureStory } from '../helpers/story-clone.js';
import { DESKTOP, type Account, type Harness, signUp, startHarness } from './harness.js';

type Json = Record<string, unknown>;
let h: Harness;
let author: Account;
let storyId = '';
let rewardId = '';
let nellId = '';

async function api(method: string, path: string, body?: unknown): Promise<Json> {
  const res = await fetch(`${h.url}${path}`, {
    method, headers: { authorization: `Bearer ${author.session.access_token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return (await res.json()) as Json;
}

beforeAll(async () => {
  h = await startHarness();
  author = await signUp(h.url);
  await h.server.services.authors.setRole(author.session.user.id, 'author');
  const file = cloneFixtureStory('lantern-keeper', `Forms ${randomUUID().slice(0, 6)}`);
  const reward = (file.moments as Json[]).find((m) => (m.name as Json).en === 'Nell at the Quay') as Json;
  // A hint that names Nell in full in both languages, for the rename to rewrite.
  reward.hint = { en: 'Ask Nell Cardew for the coat.', fr: 'Demandez le ciré à Nell Cardew.' };
  const created = await api('POST', '/api/authoring/stories', { story: file });
  storyId = String((created.draft as Json).story_id);
  rewardId = String(reward.id);
  nellId = String((file.characters as Json[]).find((c) => c.name === 'Nell Cardew')?.id);
}, 180_000);
afterAll(async () => h?.close());

const draft = async (): Promise<Json> => (await api('GET', `/api/authoring/stories/${storyId}/draft`)).document as Json;
const moment = (doc: Json, id: string): Json => (doc.moments as Json[]).find((m) => m.id === id) as Json;

async function saved(page: Page): Promise<void> {
  await page.locator('[data-testid="save-status"][data-status="saved"]').waitFor({ timeout: 20_000 });
}

describe('studio forms in the browser', { timeout: 180_000 }, () => {
  it('edits a moment\'s goal in English and French, renames a character with every reference following, and keeps both over a reload', async () => {
    const page = await h.newPage({ signedInAs: author, viewport: DESKTOP });
    await page.goto(`${h.url}/admin/stories/${storyId}/flow/moment/${rewardId}`);
    const form = page.getByTestId('moment-form');
    await form.waitFor({ timeout: 30_000 });
    const goal = form.locator('.form-row[data-field="goal"]');
    await goal.getByLabel('Goal (French)').fill('');
    await goal.locator('[data-testid="translation-flag"][data-state="missing"]').waitFor();
    await expect(goal.getByTestId('translation-flag').textContent()).resolves.toBe('French missing');
    await goal.getByLabel('Goal (English)').fill('Win <b>the</b> coat from Nell Cardew.');
    await goal.getByLabel('Goal (French)').fill('Gagnez le ciré de Nell Cardew.');
    await goal.getByTestId('translation-flag').waitFor({ state: 'detached' });
    await saved(page);
    let doc = await draft();
    expect(moment(doc, rewardId).goal).toEqual({ en: 'Win <b>the</b> coat from Nell Cardew.', fr: 'Gagnez le ciré de Nell Cardew.' });

    // The English changes again: the French, untouched since, is now older than it.
    await goal.getByLabel('Goal (English)').fill('Win the coat from Nell Cardew, kindly.');
    await saved(page);
    await goal.locator('[data-testid="translation-flag"][data-state="outdated"]').waitFor({ timeout: 20_000 });

    // Rename Nell on her page: the "used in" list links back to this moment.
    await page.goto(`${h.url}/admin/characters/${nellId}`);
    await page.getByTestId('entity-editor').waitFor({ timeout: 30_000 });
    await page.getByTestId('entity-uses').getByRole('link', { name: 'Nell at the Quay' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Nell Marsh');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByTestId('entity-name').filter({ hasText: 'Nell Marsh' }).waitFor();
    await saved(page);
    doc = await draft();
    expect((doc.characters as Json[]).find((c) => c.id === nellId)?.name).toBe('Nell Marsh');
    expect(JSON.stringify(doc)).not.toContain('Nell Cardew');
    expect(moment(doc, rewardId).hint).toEqual({ en: 'Ask Nell Marsh for the coat.', fr: 'Demandez le ciré à Nell Marsh.' });
    expect(moment(doc, rewardId).goal).toEqual({ en: 'Win the coat from Nell Marsh, kindly.', fr: 'Gagnez le ciré de Nell Marsh.' });

    // One undo takes the whole rename back, one redo brings it again.
    await page.getByRole('button', { name: 'Undo Rename Nell Cardew to Nell Marsh' }).click();
    await page.getByTestId('entity-name').filter({ hasText: 'Nell Cardew' }).waitFor();
    await expect.poll(async () => JSON.stringify(await draft()).includes('Nell Marsh'), { timeout: 20_000 }).toBe(false);
    await page.getByRole('button', { name: 'Redo Rename Nell Cardew to Nell Marsh' }).click();
    await page.getByTestId('entity-name').filter({ hasText: 'Nell Marsh' }).waitFor();
    await expect.poll(async () => JSON.stringify(await draft()).includes('Nell Cardew'), { timeout: 20_000 }).toBe(false);

    // Reload the moment's form: everything is there, and the speaker picker names her anew.
    await page.getByTestId('entity-uses').getByRole('link', { name: 'Nell at the Quay' }).click();
    await page.reload();
    await form.waitFor({ timeout: 30_000 });
    await expect(goal.getByLabel('Goal (English)').inputValue()).resolves.toBe('Win the coat from Nell Marsh, kindly.');
    await expect(goal.getByLabel('Goal (French)').inputValue()).resolves.toBe('Gagnez le ciré de Nell Marsh.');
    const speaker = form.locator('.form-row[data-field="character_id"] select');
    await expect(speaker.inputValue()).resolves.toBe(nellId);
    await expect(speaker.locator('option:checked').textContent()).resolves.toBe('Nell Marsh');
    await expect(form.locator('.form-row[data-field="hint"]').getByLabel('Hint (French)').inputValue()).resolves.toBe('Demandez le ciré à Nell Marsh.');
    // The characters list shows the new name.
    await page.goto(`${h.url}/admin/stories/${storyId}/characters`);
    await page.getByTestId('entity-row').filter({ hasText: 'Nell Marsh' }).waitFor({ timeout: 30_000 });
    await page.close();
  });
});
