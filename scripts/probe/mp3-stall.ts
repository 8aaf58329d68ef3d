// One account stalls every player: frames of a 2,000 s MP3 at 8 kbps (about 2 MB, under the frame limit), 5 a second
// from each of 2 sockets, while another user reads the catalogue. The attack holds when that user's p99 under
// attack is more than 50 ms over the p99 measured just before.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PlayerStory } from '../../engine/schema/player.js';
import { Api, GameSocket } from '../../cli/lib/game-client.js';
import { encodeMp3, loadMp3Encoder } from '../../server/voice/mp3.js';
import { uniqueEmail } from './auth-client.js';
import { tally, type Probe } from './types.js';

/** 2,000 s of noise at 8 kHz, 8 kbps: about 2 MB, under the 2 MiB frame limit. */
export async function longRecording(): Promise<Uint8Array> {
  await loadMp3Encoder();
  const rate = 8000;
  const samples = new Int16Array(rate * 2000);
  let x = 1;
  for (let i = 0; i < samples.length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) & 0x7fffffff;
    samples[i] = ((x >> 16) - 16384) >> 2;
  }
  return encodeMp3(samples, rate, 8);
}

export const p99 = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)] ?? Infinity;
};

/** GET /api/stories one after another until `until` settles; each request's milliseconds. */
export async function readCatalogue(api: Api, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const times: number[] = [];
  while (!done) {
    const t = performance.now();
    await api.request('GET', '/api/stories');
    times.push(performance.now() - t);
  }
  return times;
}

function attack(url: string, token: string, runId: string, file: string, frames: number): Promise<string[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'mp3-attacker.ts'), url, token, runId, file, String(frames)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.once('exit', () => resolve(JSON.parse(out || '[]') as string[])));
}

export const mp3StallProbe: Probe = {
  group: 'mp3-stall',
  items: [2],
  async run({ target, tries }) {
    const frames = Math.min(tries, 50);
    const dir = mkdtempSync(join(tmpdir(), 'looptale-probe-mp3-'));
    try {
      const file = join(dir, 'long.mp3');
      writeFileSync(file, await longRecording());
      const attacker = new Api(target.url);
      await attacker.signUp(uniqueEmail('attacker'), 'a long enough password 2');
      const stories = await attacker.request<{ id: string; name: string }[]>('GET', '/api/stories');
      const story = stories.find((s) => s.name === 'The Lantern Keeper')?.id ?? stories[0]?.id ?? '';
      const run = await attacker.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: story, language: 'english' });
      const socket = await GameSocket.connect(target.url, attacker.token ?? '');
      await socket.send({ player_story_id: run.id, is_starting_dialogue: true });
      await socket.close();
      const reader = new Api(target.url);
      await reader.signUp(uniqueEmail('reader'), 'a long enough password 3');
      for (let i = 0; i < 20; i++) await reader.request('GET', '/api/stories');

      const baseline = await readCatalogue(reader, new Promise((r) => setTimeout(r, 5000)));
      const attacking = attack(target.url, attacker.token ?? '', run.id, file, frames);
      const during = await readCatalogue(reader, attacking);
      const errors = await attacking;
      const before = p99(baseline);
      const after = p99(during);
      return [
        tally(2, `another user's p99 more than 50 ms over its baseline while ${frames * 2} frames of a 2,000 s MP3 arrive`, [after > before + 50], {
          baseline_p99_ms: before.toFixed(1), attack_p99_ms: after.toFixed(1), attack_max_ms: Math.max(...during).toFixed(0), requests: during.length,
          too_long_answers: errors.filter((e) => e === 'The audio is longer than 30 seconds.').length,
        }),
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
