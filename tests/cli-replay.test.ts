// `looptale replay`: a simulate transcript replays offline with no divergence, a tampered one diverges (exit 1), and
// a server transcript replays offline and online against the live server with no divergence.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePlan } from '../engine/story/testplan.js';
import type { PlayerStory } from '../engine/schema/player.js';
import { Api, GameSocket } from '../cli/lib/game-client.js';
import { runPlanRemote } from '../cli/lib/remote-plan.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '../bin/looptale.js');
const ROOT = join(import.meta.dirname, '../fixtures/stories');
const dir = mkdtempSync(join(tmpdir(), 'looptale-replay-'));

async function looptale(...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const r = await run(process.execPath, [BIN, ...args], { maxBuffer: 20 * 1024 * 1024 });
    return { code: 0, out: r.stdout };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, out: x.stdout + x.stderr };
  }
}

describe('replay offline', () => {
  it('reproduces every output of a simulated run, and reports a tampered transcript turn by turn', async () => {
    const out = join(dir, 'sim');
    expect((await looptale('simulate', join(ROOT, 'clockwork-siege/story.json'), '--runs', '3', '--bot', 'random', '--seed', '5', '--save-transcripts', out)).code).toBe(0);
    const files = readdirSync(out).filter((f) => f.endsWith('.jsonl'));
    expect(files).toHaveLength(3);
    for (const f of files) {
      const r = await looptale('replay', join(out, f), '--json');
      expect(r.code, r.out).toBe(0);
      expect(JSON.parse(r.out)).toMatchObject({ diverged: [], final_digest_matches: true });
    }
    const lines = readFileSync(join(out, files[1] ?? ''), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; event?: { type: string; is_starting_dialogue?: boolean; transcription?: string } });
    const said = lines.findIndex((l) => l.event?.type === 'turn' && !l.event.is_starting_dialogue && l.event.transcription);
    const target = lines[said];
    if (target?.event) target.event.transcription = 'Open the gates';
    const tampered = join(dir, 'tampered.jsonl');
    writeFileSync(tampered, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const r = await looptale('replay', tampered);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(new RegExp(`turn ${said - 1} \\(say 'Open the gates'`));
    expect(r.out).toMatch(/DIVERGED/);
    const until = await looptale('replay', join(out, files[0] ?? ''), '--until', '5', '--json');
    expect(JSON.parse(until.out)).toMatchObject({ replayed: 5, state: { run: { loop_number: 1 } } });
  });

  it('explains a bad transcript with exit 2', async () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"kind":"event"}\n');
    const r = await looptale('replay', bad);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/not a valid transcript/);
  });
});

describe('replay a server transcript', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ SEED_STORIES: 'true', STORIES_DIR: ROOT, ALLOW_RUN_SEED: 'true' });
  });
  afterAll(async () => srv?.close());

  it('replays offline and online (a fresh run with the same seed) with no divergence', async () => {
    const api = new Api(srv.url);
    await api.signUp(`replay-${randomUUID()}@example.com`, 'a long enough password');
    const stories = await api.request<{ id: string; name: string }[]>('GET', '/api/stories');
    const storyId = stories.find((s) => s.name === 'The Clockwork Siege')?.id ?? '';
    const created = await api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: storyId, language: 'english' });
    const socket = await GameSocket.connect(srv.url, api.token ?? '');
    const plan = parsePlan(readFileSync(join(ROOT, 'clockwork-siege/win.en.testplan'), 'utf8'));
    if (!plan.ok) throw new Error(plan.error);
    expect((await runPlanRemote(api, socket, created.id, plan.steps)).failure).toBeNull();
    await socket.close();
    const res = await fetch(`${srv.url}/api/player-stories/${created.id}/transcript`, { headers: { authorization: `Bearer ${api.token ?? ''}` } });
    const file = join(dir, 'server.jsonl');
    writeFileSync(file, await res.text());
    const offline = await looptale('replay', file, '--json');
    expect(offline.code, offline.out).toBe(0);
    const online = await looptale('replay', file, '--url', srv.url, '--email', `again-${randomUUID()}@example.com`, '--password', 'a long enough password', '--json');
    expect(online.code, online.out).toBe(0);
    expect(JSON.parse(online.out)).toMatchObject({ mode: 'online', diverged: [] });
  });
});
