// One controller, two game hosts: each fixture story's winning lines are typed from the first moment through the real
// server (HTTP API + a real WebSocket, PGlite) and through the local host (engine + scripted brain in memory), with the
// same seed and the same input ids. What the screen shows must be the same: every caption, award and notification,
// the end of the run and its rank.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Link } from '../engine/client/api/link.js';
import { GameController } from '../engine/client/game-screen/controller.js';
import type { GameHost } from '../engine/client/host/game-host.js';
import { LocalHost } from '../engine/client/host/local-host.js';
import { describeStartErrors } from '../engine/client/host/local-start.js';
import { ServerHost } from '../engine/client/host/server-host.js';
import { playSteps, type Played } from '../engine/client/host/test-driver.js';
import { hashSeed, SeededRandom } from '../engine/random.js';
import type { PlayerStory } from '../engine/schema/player.js';
import { Story } from '../engine/story/format.js';
import { parsePlan, type PlanStep } from '../engine/story/testplan.js';
import { Api, GameSocket, nodeClock } from '../cli/lib/game-client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const ROOT = join(import.meta.dirname, '../fixtures/stories');
const SEED = 4242;

let srv: TestServer;
let api: Api;

beforeAll(async () => {
  srv = await startTestServer({ SEED_STORIES: 'true', STORIES_DIR: ROOT, ALLOW_RUN_SEED: 'true' });
  api = new Api(srv.url);
  await api.signUp(`two-hosts-${Date.now()}@example.com`, 'correct horse battery staple');
});
afterAll(async () => srv?.close());

async function play(host: GameHost, run: PlayerStory, story: Story, steps: readonly PlanStep[]): Promise<Played> {
  // The same input ids on both hosts: a host may read them (the brain's choices), so the turns are the same turns.
  // Each story its own: the server refuses an input id its player already used in another run.
  const ids = new SeededRandom(hashSeed(story.id));
  const ctrl = new GameController(host, run, story.name, { language: 'english', time: { mode: 'instant' }, newId: () => ids.uuid() });
  try {
    return await playSteps(ctrl, steps);
  } finally {
    ctrl.dispose();
  }
}

describe.each([
  ['lantern-keeper', 'S'],
  ['clockwork-siege', 'B'],
])('%s, its winning lines typed on both hosts', (slug, rank) => {
  it(`shows the same captions, awards, notifications and end (won, rank ${rank})`, async () => {
    const story = Story.parse(JSON.parse(readFileSync(join(ROOT, slug, 'story.json'), 'utf8')));
    const plan = parsePlan(readFileSync(join(ROOT, slug, 'win.en.testplan'), 'utf8'));
    if (!plan.ok) throw new Error(plan.error);

    const serverRun = await api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: story.id, language: 'english', seed: SEED });
    const link = await Link.open(() => GameSocket.connect(srv.url, api.token ?? ''), nodeClock);
    let onServer: Played;
    try {
      onServer = await play(new ServerHost(api, link), serverRun, story, plan.steps);
    } finally {
      await link.close();
    }

    const opened = LocalHost.start(story, { seed: SEED, language: 'english' }, { now: () => Date.now() });
    if (!opened.ok) throw new Error(describeStartErrors(opened.errors));
    const inPage = await play(opened.host, opened.run, story, plan.steps);

    expect(onServer.failure).toBeNull();
    expect(onServer).toMatchObject({ status: 'loopStatusWon', rank });
    expect(onServer.turns.length).toBeGreaterThan(10);
    expect(onServer.turns.flatMap((t) => t.captions).length).toBeGreaterThan(10);
    expect(onServer.turns.flatMap((t) => t.awards)).toContainEqual(expect.stringMatching(/^Award: New character: /));
    expect(inPage).toEqual(onServer);
    // The server's stored row agrees with what both screens showed.
    expect(await api.playerStory(serverRun.id)).toMatchObject({ loop_status: 'loopStatusWon' });
    expect(opened.host.state.run).toMatchObject({ loop_status: 'loopStatusWon', loop_rank: (await api.playerStory(serverRun.id)).loop_rank });
  });
});
