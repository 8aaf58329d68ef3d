// The real server, a real `ws` client: each fixture story is played from start to its end by text, following its
// English winning test plan, over the binary protocol. Then the stored transcript replays through the engine.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { step } from '../engine/run/step.js';
import { parseTranscript, stateDigest } from '../engine/sim/transcript.js';
import { Story } from '../engine/story/format.js';
import { parsePlan } from '../engine/story/testplan.js';
import type { PlayerStory } from '../engine/schema/player.js';
import { Api, GameSocket } from '../cli/lib/game-client.js';
import { runPlanRemote } from '../cli/lib/remote-plan.js';
import { createDatabase } from '../scripts/pg-throwaway.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const ROOT = join(import.meta.dirname, '../fixtures/stories');

describe.each(['pglite', 'postgres'])('on %s', (backend) => {
let srv: TestServer;
let api: Api;

beforeAll(async () => {
  const env: Record<string, string> = { SEED_STORIES: 'true', STORIES_DIR: ROOT };
  if (backend === 'postgres') {
    if (!inject('pgUrl')) throw new Error(`PostgreSQL is required: ${inject('pgError')}`);
    env.DATABASE_URL = await createDatabase(inject('pgUrl'), 'wsplay');
  }
  srv = await startTestServer(env);
  api = new Api(srv.url);
  await api.signUp(`player-${Date.now()}@example.com`, 'correct horse battery staple');
});
afterAll(async () => srv?.close());

describe.each([
  ['lantern-keeper', 'win.en.testplan', 'won'],
  ['clockwork-siege', 'win.en.testplan', 'won'],
  ['lantern-keeper', 'dead-end.en.testplan', 'lost'],
])('%s, %s over /ws', (slug, plan, outcome) => {
  it(`plays to the end (${outcome}) and the transcript replays exactly`, async () => {
    const story = Story.parse(JSON.parse(readFileSync(join(ROOT, slug, 'story.json'), 'utf8')));
    const run = await api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: story.id, language: 'english' });
    expect(run).toMatchObject({ loop_status: 'loopStatusOnGoing', loop_current_number_of_interactions: 0 });
    const socket = await GameSocket.connect(srv.url, api.token ?? '');
    const parsed = parsePlan(readFileSync(join(ROOT, slug, plan), 'utf8'));
    if (!parsed.ok) throw new Error(parsed.error);
    const r = await runPlanRemote(api, socket, run.id, parsed.steps);
    await socket.close();
    expect(r.failure).toBeNull();
    const after = await api.request<PlayerStory>('GET', `/api/player-stories/${run.id}`);
    expect(after.loop_status).toBe(outcome === 'won' ? 'loopStatusWon' : 'loopStatusLost');
    for (const t of r.turns) expect(t.outputs.every((o) => o.input_id === t.input_id)).toBe(true);

    const res = await fetch(`${srv.url}/api/player-stories/${run.id}/transcript`, { headers: { authorization: `Bearer ${api.token ?? ''}` } });
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    const t = parseTranscript(await res.text());
    if (!t.ok) throw new Error(t.error);
    let s = t.transcript.header.initial_state;
    for (const e of t.transcript.events) {
      const out = step(s, e.event, { now: e.now, story });
      if (!out.ok) throw new Error(out.error.message);
      expect(out.outputs).toEqual(e.outputs);
      s = out.state;
      expect(stateDigest(s)).toBe(e.state_digest);
    }
    expect(t.transcript.events.length).toBe(r.turns.length + 1);
  });
});
});
