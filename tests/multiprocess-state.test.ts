// A player's turns may reach any server process (a load balancer, a reconnect). Each process keeps its last committed
// copy of a player's state for speed; another process may have moved that state on since (a new run, a moment started).
// A stale copy must never make a process refuse a turn: found by tests/multi-machine.test.ts, where the players'
// HTTP requests and sockets landed on different processes behind HAProxy ("This run is over" hundreds of times).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Api, GameSocket } from '../cli/lib/game-client.js';
import type { PlayerStory } from '../engine/schema/player.js';
import { postgresDatabase } from './helpers/databases.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let a: TestServer;
let b: TestServer;
let storyId = '';

beforeAll(async () => {
  const url = await postgresDatabase('stale');
  const env = { DATABASE_URL: url, SEED_STORIES: 'true', STORIES_DIR: join(import.meta.dirname, '../fixtures/stories'), AUTH_RATE_LIMIT_SCALE: '100' };
  a = await startTestServer(env);
  b = await startTestServer(env);
  const stories = await new Api(a.url).request<{ id: string; name: string }[]>('GET', '/api/stories');
  storyId = stories.find((s) => s.name === 'The Lantern Keeper')?.id ?? '';
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

async function player(): Promise<{ onA: Api; onB: Api }> {
  const onA = new Api(a.url);
  await onA.signUp(`stale-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`, 'a long enough password');
  return { onA, onB: new Api(b.url, onA.token) };
}

describe('turns on one process after another moved the state on', () => {
  it('a run created through A plays on B, whose copy still had the previous run', async () => {
    const { onA } = await player();
    const r1 = await onA.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: storyId, language: 'english' });
    const sb = await GameSocket.connect(b.url, onA.token ?? '');
    try {
      expect((await sb.send({ player_story_id: r1.id, is_starting_dialogue: true })).error).toBeNull();
      await onA.request('POST', `/api/player-stories/${r1.id}/end`);
      const r2 = await onA.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: storyId, language: 'english' });
      const t = await sb.send({ player_story_id: r2.id, is_starting_dialogue: true });
      expect(t.error).toBeNull();
      expect(t.outputs.at(-1)?.player_story_id).toBe(r2.id);
      // and the run that ended stays ended, on both
      expect((await sb.send({ player_story_id: r1.id, is_starting_dialogue: true })).error).toBe('This run is over. Start a new run to play again.');
    } finally {
      await sb.close();
    }
  });

  it('a moment started through A takes turns on B, whose copy still had it not started', async () => {
    const { onA } = await player();
    const run = await onA.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: storyId, language: 'english' });
    const [sa, sb] = [await GameSocket.connect(a.url, onA.token ?? ''), await GameSocket.connect(b.url, onA.token ?? '')];
    try {
      const say = async (s: GameSocket, transcription: string | null) => {
        const r = await s.send({ player_story_id: run.id, is_starting_dialogue: transcription === null, ...(transcription === null ? {} : { transcription }) });
        expect(r.error).toBeNull();
        return r.outputs.at(-1)!;
      };
      /** Starting dialogues until a moment waits for the player (a monologue plays out from its opening). */
      const start = async (s: GameSocket) => {
        for (let i = 0; i < 10; i++) {
          const out = await say(s, null);
          if (!out.complete_the_moment) return out;
        }
        throw new Error('no moment started');
      };
      // On B: the first moment, played to its end (B's copy: complete, the next not started).
      await start(sb);
      await say(sb, 'When does the light go dark?');
      await say(sb, 'Is anything missing?');
      expect((await say(sb, 'What did you find on the stairs?')).complete_the_moment).toBe(true);
      // On A: the next moment starts.
      const started = await say(sa, null);

      expect(started.complete_the_moment).toBe(false);
      // On B: an answer in that moment is played, not refused as "not started yet".
      const answered = await say(sb, 'Yes, come with us!');
      expect(answered.loop_current_number_of_interactions).toBeGreaterThan(started.loop_current_number_of_interactions);
    } finally {
      await sa.close();
      await sb.close();
    }
  });
});
