// The studio's draft layer in Chromium against a real server: two browsers open on one moment merge edits of
// different fields live and, for one field edited in both, show both values and keep the one the author chooses
// (never a silent overwrite); and an edit the server has not received survives its tab being closed (a new tab of
// the same browser finds it waiting) and is sent once the server answers.
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneFixtureStory } from '../helpers/story-clone.js';
import { DESKTOP, type Account, type Harness, signUp, startHarness } from './harness.js';

type Json = Record<string, unknown>;

let h: Harness;
let author: Account;
let storyId = '';
let momentId = '';

async function draft(): Promise<Json> {
  const res = await fetch(`${h.url}/api/authoring/stories/${storyId}/draft`, { headers: { authorization: `Bearer ${author.session.access_token}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { document: Json }).document;
}

const en = async (field: string): Promise<unknown> => {
  const m = ((await draft()).moments as Json[]).find((x) => x.id === momentId) as Json;
  return (m[field] as Json | undefined)?.en;
};

beforeAll(async () => {
  h = await startHarness();
  author = await signUp(h.url);
  await h.server.services.authors.setRole(author.session.user.id, 'author');
  const file = cloneFixtureStory('lantern-keeper', `Tabs ${randomUUID().slice(0, 6)}`);
  const res = await fetch(`${h.url}/api/authoring/stories`, {
    method: 'POST', headers: { authorization: `Bearer ${author.session.access_token}`, 'content-type': 'application/json' }, body: JSON.stringify({ story: file }),
  });
  expect(res.status).toBe(201);
  storyId = String(file.id);
  momentId = String((file.moments as Json[]).find((m) => (m.name as Json).en === 'Nell at the Quay')?.id);
}, 180_000);
afterAll(async () => h?.close());

async function openMoment(page: Page): Promise<void> {
  await page.goto(`${h.url}/admin/stories/${storyId}/flow/moment/${momentId}`);
  await page.getByTestId('moment-form').waitFor({ timeout: 30_000 });
}

const field = (page: Page, name: string, label: string) => page.getByTestId('moment-form').locator(`.form-row[data-field="${name}"]`).getByLabel(label);
const status = (page: Page, s: string) => page.locator(`[data-testid="save-status"][data-status="${s}"]`);

describe('the studio draft layer in the browser', { timeout: 240_000 }, () => {
  it('merges two browsers editing different fields, and asks which value to keep when both edit one field', async () => {
    const a = await h.newPage({ signedInAs: author, viewport: DESKTOP });
    const b = await h.newPage({ signedInAs: author, viewport: DESKTOP });
    await openMoment(a);
    await openMoment(b);

    await field(a, 'goal', 'Goal (English)').fill('Goal from browser A');
    await field(b, 'hint', 'Hint (English)').fill('Hint from browser B');
    await a.getByRole('heading', { level: 1 }).click();
    await b.getByRole('heading', { level: 1 }).click();
    await expect.poll(() => en('goal'), { timeout: 20_000 }).toBe('Goal from browser A');
    await expect.poll(() => en('hint'), { timeout: 20_000 }).toBe('Hint from browser B');
    // Each browser shows the other's edit (read within the poll), its own kept.
    await expect.poll(() => field(a, 'hint', 'Hint (English)').inputValue(), { timeout: 20_000 }).toBe('Hint from browser B');
    await expect.poll(() => field(b, 'goal', 'Goal (English)').inputValue(), { timeout: 20_000 }).toBe('Goal from browser A');

    // The same field: B edits it offline, A saves another value meanwhile; when B is back, nothing is overwritten.
    await b.context().setOffline(true);
    await field(b, 'goal', 'Goal (English)').fill('B wants this');
    await b.getByRole('heading', { level: 1 }).click();
    await status(b, 'offline').waitFor({ timeout: 20_000 });
    await field(a, 'goal', 'Goal (English)').fill('A again');
    await a.getByRole('heading', { level: 1 }).click();
    await status(a, 'saved').waitFor({ timeout: 20_000 });
    await expect.poll(() => en('goal'), { timeout: 20_000 }).toBe('A again');
    await b.context().setOffline(false);
    const conflict = b.getByTestId('conflict');
    await conflict.waitFor({ timeout: 30_000 });
    await expect(conflict.textContent()).resolves.toContain('A again');
    await expect(conflict.textContent()).resolves.toContain('B wants this');
    expect(await en('goal')).toBe('A again');
    await conflict.getByRole('button', { name: 'Keep mine' }).click();
    await expect.poll(() => en('goal'), { timeout: 20_000 }).toBe('B wants this');
    await expect.poll(() => field(a, 'goal', 'Goal (English)').inputValue(), { timeout: 20_000 }).toBe('B wants this');
    await a.context().close();
    await b.context().close();
  });

  it('keeps an edit the server has not received through a closed tab, and sends it when the server answers', async () => {
    const page = await h.newPage({ signedInAs: author, viewport: DESKTOP });
    const browser = page.context();
    await openMoment(page);
    // The server unreachable for changes only (for every tab of this browser): the pages themselves still load.
    await browser.route('**/api/authoring/stories/*/changes', (r) => r.abort());
    await field(page, 'hint', 'Hint (English)').fill('Kept through a closed tab');
    await page.getByRole('heading', { level: 1 }).click();
    await status(page, 'offline').waitFor({ timeout: 20_000 });
    await page.close();
    // A new tab of the same browser finds the edit kept, waiting, and not on the server.
    const again = await browser.newPage();
    await openMoment(again);
    await expect.poll(() => field(again, 'hint', 'Hint (English)').inputValue(), { timeout: 20_000 }).toBe('Kept through a closed tab');
    await status(again, 'offline').waitFor({ timeout: 20_000 });
    expect(await en('hint')).not.toBe('Kept through a closed tab');
    await browser.unroute('**/api/authoring/stories/*/changes');
    await expect.poll(() => en('hint'), { timeout: 30_000 }).toBe('Kept through a closed tab');
    await status(again, 'saved').waitFor({ timeout: 20_000 });
    await browser.close();
  });
});
