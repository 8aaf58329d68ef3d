// GET /metrics: per-stage turn timings and the process's figures, in the Prometheus text format.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PlayerStory } from '../engine/schema/player.js';
import { Api, GameSocket } from '../cli/lib/game-client.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ SEED_STORIES: 'true', STORIES_DIR: join(import.meta.dirname, '../fixtures/stories') });
});
afterAll(async () => srv?.close());

it('reports stage percentiles after turns, with counters, sockets, memory and event-loop delay', async () => {
  const api = new Api(srv.url);
  await api.signUp(`metrics-${randomUUID()}@example.com`, 'a long enough password');
  const stories = await api.request<{ id: string; name: string }[]>('GET', '/api/stories');
  const run = await api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: stories.find((s) => s.name === 'The Lantern Keeper')?.id, language: 'english' });
  const socket = await GameSocket.connect(srv.url, api.token ?? '');
  await socket.send({ player_story_id: run.id, is_starting_dialogue: true });
  await socket.send({ player_story_id: run.id, is_starting_dialogue: true });
  const turn = await socket.send({ player_story_id: run.id, is_starting_dialogue: false, transcription: 'hello' });
  expect(turn.error).toBeNull();
  const res = await fetch(`${srv.url}/metrics`);
  expect(res.headers.get('content-type')).toContain('text/plain');
  const text = await res.text();
  expect(text).toMatch(/looptale_turn_stage_seconds\{stage="brain",quantile="0.99"\} \d+(\.\d+)?(e-?\d+)?\n/);
  expect(text).toMatch(/looptale_turn_stage_seconds\{stage="to_game_output",quantile="0.5"\}/);
  expect(text).toMatch(/looptale_turn_stage_seconds_count\{stage="decode"\} 3/);
  expect(text).toMatch(/looptale_turns_total 3/);
  expect(text).toMatch(/looptale_websocket_clients 1/);
  expect(text).toMatch(/process_resident_memory_bytes \d+/);
  expect(text).toMatch(/nodejs_eventloop_delay_seconds\{quantile="0.99"\}/);
  await socket.close();
});
