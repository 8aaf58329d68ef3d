// The studio's flow graph in Chromium against a real server: an author opens a story's flow, adds moments from the type
// picker, connects one to another by dragging between their handles, moves one, finds it with the search, deletes
// another after reading what breaks; every edit reaches the server's draft, and a reload shows it all kept.
import { randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneFixtureStory } from '../helpers/story-clone.js';
import { type Account, DESKTOP, type Harness, signUp, startHarness } from './harness.js';

type Json = Record<string, unknown>;

let h: Harness;
let author: Account;
let storyId = '';
let file: Json;

async function draftDoc(): Promise<Json> {
  const res = await fetch(`${h.url}/api/authoring/stories/${storyId}/draft`, { headers: { authorization: `Bearer ${author.session.access_token}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { document: Json }).document;
}

const momentsOf = (doc: Json): Json[] => doc.moments as Json[];

/** Waits until the server's draft satisfies `check` (edits are sent within a second of the last one). */
async function serverShows(what: string, check: (doc: Json) => boolean): Promise<Json> {
  let doc: Json = {};
  await expect.poll(async () => check((doc = await draftDoc())), { timeout: 20_000, message: what }).toBe(true);
  return doc;
}

/** Drags with the mouse from the centre of one element to the centre of another (or by an offset), in steps. */
async function drag(page: Page, from: Locator, to: Locator | { dx: number; dy: number }): Promise<void> {
  const a = await from.boundingBox();
  if (!a) throw new Error('nothing to drag');
  const start = { x: a.x + a.width / 2, y: a.y + a.height / 2 };
  const b = 'dx' in to ? null : await to.boundingBox();
  if (!('dx' in to) && !b) throw new Error('nowhere to drop');
  const end = 'dx' in to ? { x: start.x + to.dx, y: start.y + to.dy } : { x: b!.x + b!.width / 2, y: b!.y + b!.height / 2 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + 5, start.y + 5, { steps: 2 });
  await page.mouse.move(end.x, end.y, { steps: 12 });
  await page.mouse.up();
}

const node = (page: Page, name: string): Locator => page.getByTestId('flow-node').filter({ hasText: name });

async function addMoment(page: Page, type: string): Promise<string> {
  await page.getByRole('button', { name: 'Add moment' }).click();
  const picker = page.getByTestId('flow-type-picker');
  await picker.waitFor();
  await picker.locator(`button[data-type="${type}"]`).click();
  await page.waitForURL(/\/flow\/moment\/[0-9a-f-]{36}$/);
  return new URL(page.url()).pathname.split('/').pop() ?? '';
}

beforeAll(async () => {
  h = await startHarness();
  author = await signUp(h.url);
  await h.server.services.authors.setRole(author.session.user.id, 'author');
  file = cloneFixtureStory('lantern-keeper', `Flow ${randomUUID().slice(0, 6)}`);
  const res = await fetch(`${h.url}/api/authoring/stories`, {
    method: 'POST',
    headers: { authorization: `Bearer ${author.session.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ story: file }),
  });
  expect(res.status).toBe(201);
  storyId = String(file.id);
}, 180_000);
afterAll(async () => h?.close());

describe('the studio flow graph', { timeout: 240_000 }, () => {
  it('adds, connects, moves, finds and deletes moments, and a reload shows it all kept', async () => {
    const page = await h.newPage({ signedInAs: author, viewport: DESKTOP });
    await page.goto(`${h.url}/admin/stories/${storyId}/flow`);
    const moments = momentsOf(file).length;
    await expect.poll(() => page.getByTestId('flow-node').count(), { timeout: 30_000 }).toBe(moments);
    const firstName = String((momentsOf(file).find((m) => m.id === file.first_moment_id)?.name as Json).en);
    await node(page, firstName).getByTestId('flow-node-first').waitFor();
    // The story has no positions yet: the automatic layout places the moments (and the view follows) first.
    await page.locator('.flow-toolbar__count', { hasText: 'laying out' }).waitFor({ state: 'hidden', timeout: 60_000 });

    // Add a Test moment: it opens beside the graph, and the server has it.
    const a = await addMoment(page, 'Test');
    await page.getByTestId('flow-side').getByRole('heading', { name: 'New Test' }).waitFor();
    const added = await serverShows('the new Test moment', (d) => momentsOf(d).some((m) => m.id === a && m.type === 'Test'));
    const placed = momentsOf(added).find((m) => m.id === a)?.position as { x: number; y: number };
    // Move it away from the centre, where the next one will appear: the server has the new position.
    const before = (await node(page, 'New Test').boundingBox())!;
    await drag(page, node(page, 'New Test'), { dx: 260, dy: 0 });
    const after = (await node(page, 'New Test').boundingBox())!;
    expect(after.x - before.x).toBeGreaterThan(150);
    const moved = await serverShows('the moved position', (d) => ((momentsOf(d).find((m) => m.id === a)?.position as { x: number } | undefined)?.x ?? placed.x) > placed.x + 100);
    const position = momentsOf(moved).find((m) => m.id === a)?.position;

    // Add a Dead End and connect the Test moment to it by dragging from one handle to the other.
    const b = await addMoment(page, 'Dead End');
    await node(page, 'New Dead End').waitFor();
    await drag(page, node(page, 'New Test').locator('.react-flow__handle-bottom'), node(page, 'New Dead End').locator('.react-flow__handle-top'));
    await serverShows('the transition from the Test moment to the Dead End', (d) => {
      const t = momentsOf(d).find((m) => m.id === a)?.transitions as Json[] | undefined;
      return (t ?? []).some((x) => x.next_moment_id === b);
    });

    // Search: the hit is highlighted and counted.
    await page.getByTestId('flow-search').fill('new test');
    await expect.poll(() => page.getByTestId('flow-search-count').textContent()).toBe('1 of 1');
    await expect.poll(() => page.locator('.react-flow__node.flow-hit--current').getByText('New Test').count()).toBe(1);
    await page.getByTestId('flow-search').fill('opening line');
    await expect.poll(() => page.getByTestId('flow-search-count').textContent()).toBe('1 of 2');
    await page.getByTestId('flow-search').press('Enter');
    await expect.poll(() => page.getByTestId('flow-search-count').textContent()).toBe('2 of 2');
    await page.getByTestId('flow-search').fill('');

    // Delete the Dead End: the dialog says the Test moment's transition goes too; both leave the server's draft.
    await node(page, 'New Dead End').click();
    await page.waitForURL(new RegExp(`/flow/moment/${b}$`));
    await page.getByRole('button', { name: 'Delete moment' }).click();
    const dialog = page.getByTestId('flow-delete-dialog');
    await dialog.getByText('The transition from "New Test" to it will be removed.').waitFor();
    await dialog.getByRole('button', { name: 'Delete moment' }).click();
    await serverShows('the Dead End and the transition to it gone', (d) => !JSON.stringify(d).includes(b));

    // A reload shows everything as the server kept it: the Test moment where it was moved, no Dead End.
    await page.goto(`${h.url}/admin/stories/${storyId}/flow`);
    await expect.poll(() => page.getByTestId('flow-node').count(), { timeout: 30_000 }).toBe(moments + 1);
    await node(page, 'New Test').waitFor();
    expect(await node(page, 'New Dead End').count()).toBe(0);
    const kept = await draftDoc();
    expect(momentsOf(kept).find((m) => m.id === a)?.position).toEqual(position);
    expect(momentsOf(kept).find((m) => m.id === a)?.transitions ?? []).toEqual([]);
  });
});
