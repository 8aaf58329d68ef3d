// Screens of the golden tickets picker, the account pages, the admin area and the legal pages (issue #9 phase 2).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Api, GameSocket } from '../../../cli/lib/game-client.js';
import { runPlanRemote } from '../../../cli/lib/remote-plan.js';
import { parsePlan } from '../../../engine/story/testplan.js';
import { STORIES_DIR } from '../harness.js';
import type { Shot, ShotContext } from '../screenshots.js';
import { startRun } from './catalogue.js';
import { LANTERN } from './shell.js';

/** Wins The Lantern Keeper over the protocol for the shot's account: a golden ticket to redeem. */
async function earnTicket(ctx: ShotContext): Promise<void> {
  const token = ctx.account?.session.access_token ?? '';
  const api = new Api(ctx.harness.url, token);
  const run = await api.createRun(LANTERN, 'english');
  const plan = parsePlan(readFileSync(join(STORIES_DIR, 'lantern-keeper', 'win.en.testplan'), 'utf8'));
  if (!plan.ok) throw new Error(plan.error);
  const socket = await GameSocket.connect(ctx.harness.url, token);
  await runPlanRemote(api, socket, run.id, plan.steps);
  await socket.close();
}

export const shots: Shot[] = [
  {
    name: 'tickets-picker',
    signedIn: true,
    setup: async (page, ctx) => {
      await earnTicket(ctx);
      await page.goto(`${ctx.harness.url}/browse`);
      await page.getByTestId('ticket-button').filter({ hasText: '1' }).waitFor();
      await page.getByTestId('ticket-button').click();
      await page.getByRole('button', { name: 'Redeem' }).click();
      await page.getByTestId('ticket-choice').first().waitFor({ timeout: 20_000 });
      await page.getByTestId('ticket-choice').first().click();
    },
  },
  {
    name: 'account-profile',
    signedIn: true,
    setup: async (page, ctx) => {
      await startRun(ctx);
      await page.goto(`${ctx.harness.url}/my-profile`);
      await page.getByTestId('profile-runs').waitFor();
    },
  },
  {
    name: 'account-settings',
    signedIn: true,
    setup: async (page, ctx) => {
      await page.goto(`${ctx.harness.url}/settings`);
      await page.getByTestId('volume-value').waitFor();
    },
  },
  {
    name: 'account-feedback',
    signedIn: true,
    setup: async (page, ctx) => {
      await page.goto(`${ctx.harness.url}/share-feedback`);
      await page.getByLabel('Your message').fill('The lighthouse keeper talks a little fast in the second moment.');
    },
  },
  {
    name: 'admin-flow',
    signedIn: true,
    setup: async (page, ctx) => {
      await ctx.harness.server.services.authors.grantAdmin(ctx.account?.session.user.id ?? '');
      await page.goto(`${ctx.harness.url}/admin/stories/${LANTERN}/flow`);
      await page.getByTestId('flow-node').first().waitFor();
    },
  },
  {
    name: 'legal-privacy',
    fullPage: true,
    setup: async (page, ctx) => {
      await page.goto(`${ctx.harness.url}/privacy.html`);
    },
  },
];
