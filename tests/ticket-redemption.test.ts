// A golden ticket earned by playing The Lantern Keeper to Rank S over the socket, then redeemed through the shared
// redemption runner (engine/client/redemption-runner.ts): the machine's timings on a simulated clock, the picker's
// cards and the redeem call against the real server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCards, RedemptionRunner, type RedemptionView } from '../engine/client/redemption-runner.js';
import { SimulatedClock } from '../engine/client/timers.js';
import { redeemButton } from '../engine/client/redemption-flow.js';
import { parsePlan } from '../engine/story/testplan.js';
import { runPlanRemote } from '../cli/lib/remote-plan.js';
import { Api, GameSocket } from '../cli/lib/game-client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const ROOT = join(import.meta.dirname, '../fixtures/stories');
const LANTERN = '8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a';

let srv: TestServer;
let api: Api;
let ticketId: string;

beforeAll(async () => {
  srv = await startTestServer({ SEED_STORIES: 'true', STORIES_DIR: ROOT });
  api = new Api(srv.url);
  await api.signUp(`tickets-${Date.now()}@example.com`, 'correct horse battery staple');
  const run = await api.createRun(LANTERN, 'english');
  const plan = parsePlan(readFileSync(join(ROOT, 'lantern-keeper', 'win.en.testplan'), 'utf8'));
  if (!plan.ok) throw new Error(plan.error);
  const socket = await GameSocket.connect(srv.url, api.token ?? '');
  const played = await runPlanRemote(api, socket, run.id, plan.steps);
  await socket.close();
  if (played.failure) throw new Error(`the winning plan failed: ${JSON.stringify(played.failure)}`);
  const ticket = (await api.tickets()).find((t) => t.blueprint_story_id === LANTERN && !t.is_redeemed);
  if (!ticket) throw new Error('the won run earned no ticket');
  ticketId = ticket.id;
}, 240_000);
afterAll(async () => srv?.close());

/** Lets the clock run while real requests settle in between. */
async function settle(clock: SimulatedClock, ms: number): Promise<void> {
  clock.advance(ms);
  for (let i = 0; i < 50; i++) await new Promise((r) => setTimeout(r, 5));
}

describe('golden ticket redemption, end to end on a ticket earned by playing', () => {
  it('burns 2000 ms, retrieves at 1500 ms, selects 2500 ms later, redeems the chosen character, banner 3000 ms', async () => {
    const clock = new SimulatedClock();
    let refetched = 0;
    let view: RedemptionView | null = null;
    const runner = new RedemptionRunner(ticketId, { api, clock, refetchTickets: () => refetched++, onChange: (v) => (view = v) });
    runner.redeem();
    expect(redeemButton(runner.view.flow)).toEqual({ label: 'Redeeming...', disabled: true });
    await settle(clock, 1999);
    expect(runner.view.flow.step).toBe('burning');
    await settle(clock, 1);
    expect(runner.view.cards.status === 'loaded' || runner.view.cards.status === 'loading').toBe(true);
    await settle(clock, 1500);
    expect(runner.view.flow.state).toBe('retrieving');
    await settle(clock, 2500);
    expect(runner.view.flow.state).toBe('selecting');
    const cards = runner.view.cards;
    if (cards.status !== 'loaded') throw new Error(`cards not loaded: ${JSON.stringify(cards)}`);
    expect(hasCards(cards.cards)).toBe(true);
    const nell = cards.cards.characters.find((c) => c.character_name === 'Nell Cardew');
    expect(nell).toBeDefined();
    runner.choose({ kind: 'character', id: nell?.character_id ?? '' });
    expect(runner.view.flow.state).toBe('confirming');
    runner.confirm();
    expect(runner.view.flow.state).toBe('creating');
    await settle(clock, 0);
    expect(runner.view.flow).toMatchObject({ state: 'normal', redeemed: true, bannerVisible: true });
    expect(refetched).toBe(1);
    await settle(clock, 3000);
    expect(runner.view.flow.bannerVisible).toBe(false);
    expect(view).toBe(runner.view);
    const permanent = await api.permanentCharacters();
    expect(permanent.map((p) => p.name)).toContain('Nell Cardew');
    expect((await api.tickets()).find((t) => t.id === ticketId)?.is_redeemed).toBe(true);
    // A redeemed ticket has no cards to offer any more.
    await expect(api.ticketCards(ticketId)).rejects.toMatchObject({ status: 404, message: 'Invalid ticket or ticket already redeemed' });
    runner.dispose();
  });
});
