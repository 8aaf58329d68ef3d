// The studio's stories list, story page and history in real Chromium against a real server: an author creates a story
// from nothing, edits its catalogue (the live card follows), has a wrong upload refused with nothing changed and a
// right one taken, publishes it with a note (the note in the versions list), restores revision 0, duplicates it,
// deletes the copy and undoes that, and imports a story file (twice: the second comes in as a copy). Screenshots of
// each screen at 1440x900 and 1024x768 go to /work/shots/studio/ (STUDIO_SHOTS to put them elsewhere).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneFixtureStory } from '../helpers/story-clone.js';
import { axeViolations, describeSerious } from './axe.js';
import { DESKTOP, type Account, type Harness, signUp, startHarness } from './harness.js';

const SHOTS = process.env.STUDIO_SHOTS ?? '/work/shots/studio';
const SMALL_DESKTOP = { width: 1024, height: 768 } as const;
const tag = randomUUID().slice(0, 6);

let h: Harness;
let author: Account;
/** axe-core's serious and critical violations on each screen shot: none expected. */
const axeFound: string[] = [];

async function shoot(page: Page, name: string, at?: Locator): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const size of [DESKTOP, SMALL_DESKTOP]) {
    await page.setViewportSize(size);
    if (at) await at.evaluate((e) => e.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: join(SHOTS, `${name}-${size.width}x${size.height}.png`), fullPage: false });
  }
  await page.setViewportSize(DESKTOP);
  const serious = describeSerious(await axeViolations(page));
  if (serious) axeFound.push(`${name}:\n${serious}`);
}

/** Waits until the draft layer says every edit is on the server. */
async function saved(page: Page): Promise<void> {
  await page.locator('[data-testid="save-status"][data-status="saved"]').waitFor({ timeout: 15_000 });
}

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${h.url}${path}`, {
    method, headers: { authorization: `Bearer ${author.session.access_token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return (await res.json()) as T;
}

beforeAll(async () => {
  h = await startHarness();
  author = await signUp(h.url);
  await h.server.services.authors.setRole(author.session.user.id, 'author');
}, 240_000);
afterAll(async () => h?.close());

describe('the studio: stories, story page and history', { timeout: 240_000 }, () => {
  it('creates a story from nothing, edits and previews its catalogue, uploads, publishes with a note and restores a revision', async () => {
    const page = await h.newPage({ signedInAs: author, viewport: DESKTOP });
    await page.goto(`${h.url}/admin`);
    await page.getByTestId('stories-page').waitFor({ timeout: 30_000 });
    const name = `Tide Study ${tag}`;
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByRole('button', { name: 'Create story' }).click();
    await page.waitForURL(/\/admin\/stories\/[0-9a-f-]{36}$/);
    const storyId = page.url().split('/').pop() ?? '';
    await page.getByTestId('story-page').waitFor();
    await expect.poll(() => page.getByLabel('Name', { exact: true }).inputValue(), { timeout: 15_000 }).toBe(name);

    // The English description, typed: the card preview follows; HTML shows as text.
    const description = 'A quiet <b>harbour</b> mystery at the turn of the tide.';
    await page.getByLabel('Description (English)').fill(description);
    await page.getByLabel('Genres', { exact: true }).fill('Mystery, Seaside');
    await page.getByLabel('Genres', { exact: true }).press('Enter');
    await saved(page);
    const card = page.getByTestId('cat-preview-card');
    await expect(card.textContent()).resolves.toContain(name);
    await card.getByTestId('story-card').click();
    const modal = page.getByTestId('story-modal');
    await modal.waitFor();
    await expect(modal.textContent()).resolves.toContain(description);
    expect(await modal.locator('b').count()).toBe(0);
    await shoot(page, 'story-modal-preview');
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });

    // A wrong file is refused with the reason and changes nothing; a PNG is uploaded and named in the story.
    const background = page.getByTestId('cat-media-background');
    await background.locator('input[type=file]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
    await background.getByRole('alert').filter({ hasText: 'is not a PNG, JPEG or WebP image' }).waitFor();
    await expect(background.textContent()).resolves.toContain('None yet.');
    const png = await sharp({ create: { width: 1920, height: 1080, channels: 3, background: '#24507a' } }).png().toBuffer();
    await background.locator('input[type=file]').setInputFiles({ name: 'harbour.png', mimeType: 'image/png', buffer: png });
    await background.getByText(/^images\/background-[a-z0-9]+\.png$/).waitFor({ timeout: 15_000 });
    await expect(card.locator('img').getAttribute('src')).resolves.toMatch(new RegExp(`/storage/v1/object/public/image/${storyId}/background-`));
    await saved(page);
    await shoot(page, 'story-page');
    await shoot(page, 'story-page-media', background);
    await page.evaluate(() => window.scrollTo(0, 0));

    // History: the edits as revisions; publish with a note; the note in the versions list.
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByTestId('history-page').waitFor();
    const revisions = page.getByTestId('hist-revision');
    await revisions.first().waitFor();
    await expect(page.getByTestId('history-page').textContent()).resolves.toContain('Catalogue: Description');
    await page.getByLabel(/^Note/).fill('First light: the <i>harbour</i> opens');
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByTestId('hist-published').waitFor({ timeout: 15_000 });
    await page.getByTestId('hist-versions').getByText('First light: the <i>harbour</i> opens').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('hist-versions').locator('i').count()).toBe(0);
    await shoot(page, 'history');

    // Restore revision 0: a new revision, the description back to the blank story's.
    await page.getByRole('button', { name: 'Restore' }).last().click();
    const confirm = page.getByTestId('hist-confirm-restore');
    await confirm.getByRole('button', { name: 'Restore' }).click();
    await confirm.waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(async () => (await api<{ document: { catalogue: { description: { en: string } } } }>('GET', `/api/authoring/stories/${storyId}/draft`)).document.catalogue.description.en, { timeout: 15_000 }).toBe('A new story.');
    await page.reload();
    await page.getByTestId('history-page').waitFor();
    await page.getByText('Restored revision 0').first().waitFor({ timeout: 15_000 });
    expect(axeFound).toEqual([]);
  });

  it('duplicates a story, deletes the copy and brings it back, and imports a story file (the same file twice: a copy)', async () => {
    const page = await h.newPage({ signedInAs: author, viewport: DESKTOP });
    const made = await api<{ draft: { story_id: string } }>('POST', '/api/authoring/stories/from-template', { template: 'blank', name: `Lighthouse ${tag}` });
    await page.goto(`${h.url}/admin`);
    const row = page.getByTestId('stories-row').filter({ hasText: `Lighthouse ${tag}` });
    await row.waitFor({ timeout: 30_000 });
    await expect(row.textContent()).resolves.toContain('Draft · never published');
    await shoot(page, 'stories');

    await row.getByRole('button', { name: 'Duplicate' }).click();
    await page.waitForURL(/\/admin\/stories\/[0-9a-f-]{36}$/);
    const copyId = page.url().split('/').pop() ?? '';
    expect(copyId).not.toBe(made.draft.story_id);
    await expect.poll(() => page.getByLabel('Name', { exact: true }).inputValue(), { timeout: 15_000 }).toBe(`Lighthouse ${tag} (copy)`);

    await page.goto(`${h.url}/admin`);
    const copyRow = page.locator(`[data-testid="stories-row"][data-story-id="${copyId}"]`);
    await copyRow.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByTestId('stories-confirm-delete');
    await expect(dialog.textContent()).resolves.toContain('undo this from this page for 7 days');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    const deletedRow = page.locator(`[data-testid="stories-deleted-row"][data-story-id="${copyId}"]`);
    await deletedRow.waitFor({ timeout: 15_000 });
    await copyRow.waitFor({ state: 'detached' });
    await shoot(page, 'stories-deleted', page.getByTestId('stories-deleted'));
    await deletedRow.getByRole('button', { name: 'Undo' }).click();
    await copyRow.waitFor({ timeout: 15_000 });
    await deletedRow.waitFor({ state: 'detached' });

    // Import: a story file comes in as a new draft; the same file again comes in as a copy under new ids.
    const file = cloneFixtureStory('clockwork-siege', `Imported ${tag}`);
    const input = page.locator('#stories-import-file');
    await input.setInputFiles({ name: 'siege.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
    await page.getByTestId('stories-imported').filter({ hasText: 'Imported as a draft' }).waitFor({ timeout: 15_000 });
    await page.locator(`[data-testid="stories-row"][data-story-id="${String(file.id)}"]`).waitFor();
    await input.setInputFiles({ name: 'siege.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
    await page.getByTestId('stories-imported').filter({ hasText: 'imported as a copy with new ids' }).waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('stories-row').filter({ hasText: `Imported ${tag}` }).count(), { timeout: 15_000 }).toBe(2);
    // Not a story file: said so, nothing imported.
    await input.setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": 1}') });
    await page.getByRole('alert').filter({ hasText: 'is not a story file' }).waitFor();
    expect(await page.getByTestId('stories-row').filter({ hasText: `Imported ${tag}` }).count()).toBe(2);

    // A story with errors: the history page lists them and does not offer to publish.
    const draft = await api<{ revision: number; document: { first_moment_id: string } }>('GET', `/api/authoring/stories/${made.draft.story_id}/draft`);
    await api('POST', `/api/authoring/stories/${made.draft.story_id}/changes`, { base_revision: draft.revision, changes: [{ op: 'set', path: ['moments', draft.document.first_moment_id, 'transitions'], value: [] }] });
    await page.goto(`${h.url}/admin/stories/${made.draft.story_id}/history`);
    const errors = page.getByTestId('hist-publish-errors');
    await errors.waitFor({ timeout: 30_000 });
    await expect(errors.textContent()).resolves.toContain('has no transition');
    expect(await page.getByRole('button', { name: 'Publish' }).isDisabled()).toBe(true);
    await shoot(page, 'history-errors');
    expect(axeFound).toEqual([]);
  });
});
