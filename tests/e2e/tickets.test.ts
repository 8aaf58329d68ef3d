// A golden ticket EARNED BY PLAYING, redeemed in the browser (issue #9 §3): a newcomer wins The Lantern Keeper over
// the protocol (the win plan through the CLI's game client), then in Chromium opens the Golden Tickets modal from the
// top bar, presses Redeem ('Redeeming...', the 2000 ms burn), sees 'Loading your cards...', picks a character,
// confirms, sees the success banner and the ticket among 'Redeemed Tickets (1)'. The server then holds the
// permanent card. Also the empty state of a fresh account. ~30-60 s (most of it the winning run).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, GameSocket } from '../../cli/lib/game-client.js';
import { runPlanRemote } from '../../cli/lib/remote-plan.js';
import { parsePlan } from '../../engine/story/testplan.js';
import { expectAccessible } from './axe.js';
import { type Account, type Harness, PHONE, signUp, startHarness, STORIES_DIR } from './harness.js';

const LANTERN = '8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a';

let h: Harness;
let winner: Account;

beforeAll(async () => {
  h = await startHarness();
  winner = await signUp(h.url);
  const api = new Api(h.url, winner.session.access_token);
  const run = await api.createRun(LANTERN, 'english');
  const plan = parsePlan(readFileSync(join(STORIES_DIR, 'lantern-keeper', 'win.en.testplan'), 'utf8'));
  if (!plan.ok) throw new Error(plan.error);
  const socket = await GameSocket.connect(h.url, winner.session.access_token);
  const played = await runPlanRemote(api, socket, run.id, plan.steps);
  await socket.close();
  if (played.failure) throw new Error(`the winning plan failed: ${JSON.stringify(played.failure)}`);
}, 240_000);
afterAll(async () => h?.close());

describe('golden tickets in the browser', { timeout: 120_000 }, () => {
  it('a fresh account sees the empty state with its tips', async () => {
    const page = await h.newPage({ signedInAs: await signUp(h.url), viewport: PHONE });
    await page.goto(`${h.url}/browse`);
    await page.getByTestId('ticket-button').click();
    const dialog = page.getByRole('dialog', { name: 'Golden Tickets' });
    await dialog.getByText('No Golden Tickets Yet — Achieve Rank A in any story to earn your first Golden Ticket!').waitFor();
    for (const tip of ['Complete a story with Rank A', 'One ticket per story (first Rank A only)', 'Use tickets to make characters permanent']) {
      await expect(dialog.getByText(tip).isVisible()).resolves.toBe(true);
    }
  });

  it('redeems the ticket earned by playing: burn, Loading your cards..., a character chosen and confirmed, the banner', async () => {
    const page = await h.newPage({ signedInAs: winner });
    await page.goto(`${h.url}/browse`);
    const badge = page.getByTestId('ticket-button');
    await badge.filter({ hasText: '1' }).waitFor();
    await badge.click();
    const dialog = page.getByRole('dialog', { name: 'Golden Tickets' });
    await dialog.getByText('Earned by achieving Rank A • Redeem to make characters permanent').waitFor();
    await dialog.getByText('Available Tickets (1)').waitFor();
    await expect(dialog.getByText('Redeemed Tickets (0)').isVisible()).resolves.toBe(true);
    const ticket = dialog.getByTestId('ticket');
    await expect(ticket.textContent()).resolves.toContain('The Lantern Keeper');
    // The story's logo shows (the API gives it as a public URL).
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid="ticket"] img');
      return img !== null && img.complete && img.naturalWidth > 0;
    }, undefined, { timeout: 10_000 });
    const tickets = await new Api(h.url, winner.session.access_token).tickets();
    expect(tickets[0]?.story.story_logo_image).toMatch(/^\/storage\/v1\/object\/public\/image\//);
    await ticket.getByRole('button', { name: 'Redeem' }).click();
    const busy = ticket.getByRole('button', { name: 'Redeeming...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    expect(await ticket.getAttribute('data-step')).toBe('burning');
    await ticket.getByText('Loading your cards...').last().waitFor({ timeout: 15_000 });
    const nell = ticket.getByTestId('ticket-choice').filter({ hasText: 'Nell Cardew' });
    await nell.waitFor({ timeout: 15_000 });
    expect(await ticket.getAttribute('data-state')).toBe('selecting');
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 10_000 });
    await expectAccessible(page, 'ticket picker');
    await nell.click();
    await ticket.getByText('Make Nell Cardew a permanent card', { exact: false }).waitFor();
    await ticket.getByRole('button', { name: 'Make permanent' }).click();
    await dialog.getByTestId('redeemed-banner').filter({ hasText: 'Nell Cardew is now a permanent card' }).waitFor({ timeout: 15_000 });
    await dialog.getByText('Redeemed Tickets (1)').waitFor();
    await expect(dialog.getByText('Available Tickets (0)').isVisible()).resolves.toBe(true);
    // The banner goes away by itself (3000 ms, the machine's timer; only its leaving is awaited).
    await dialog.getByTestId('redeemed-banner').waitFor({ state: 'detached', timeout: 15_000 });
    const api = new Api(h.url, winner.session.access_token);
    expect((await api.permanentCharacters()).map((p) => p.name)).toContain('Nell Cardew');
    expect((await api.tickets()).every((t) => t.is_redeemed)).toBe(true);
  });
});
