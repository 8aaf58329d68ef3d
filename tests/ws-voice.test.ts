// Voice over the real socket, offline: recorded WAV and MP3 clips sent with no transcription are recognised by
// pocketsphinx with the moment's grammar and move the game; the character's replies come back as AUDIO_ANSWER MP3
// frames of plausible length; French without a recogniser gets a clear error while its typed lines play.
import { randomUUID } from 'node:crypto';

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayerStory } from '../engine/schema/player.js';
import { Api, GameSocket } from '../cli/lib/game-client.js';
import { decodeSpeech } from '../server/voice/audio.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnServer, type ServerProcess } from './helpers/server-process.js';

const ROOT = join(import.meta.dirname, '../fixtures/stories');
const AUDIO = join(import.meta.dirname, '../fixtures/audio/lantern-keeper/en');
// The server runs in its own process, as in production (eSpeak runs in a worker thread of that process).
let srv: ServerProcess;
let storyId = '';
const dataDir = mkdtempSync(join(tmpdir(), 'looptale-voice-'));

beforeAll(async () => {
  srv = await spawnServer({ SEED_STORIES: 'true', STORIES_DIR: ROOT, DATA_DIR: dataDir, VOICE: 'on' });
  const stories = await new Api(srv.url).request<{ id: string; name: string }[]>('GET', '/api/stories');
  storyId = stories.find((s) => s.name === 'The Lantern Keeper')?.id ?? '';
});
afterAll(async () => {
  await srv?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function player(language: 'english' | 'french'): Promise<{ api: Api; run: PlayerStory; socket: GameSocket }> {
  const api = new Api(srv.url);
  await api.signUp(`voice-${randomUUID()}@example.com`, 'a long enough password');
  const run = await api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: storyId, language });
  return { api, run, socket: await GameSocket.connect(srv.url, api.token ?? '') };
}

describe('voice over /ws', () => {
  it('recognises WAV and MP3 answers offline, speaks the replies as MP3, and records every stage of the turn', async () => {
    const { api, run, socket } = await player('english');
    await socket.send({ player_story_id: run.id, is_starting_dialogue: true });
    const opening = await socket.send({ player_story_id: run.id, is_starting_dialogue: true });
    expect(opening.error).toBeNull();
    // Speech follows the GAME_OUTPUT (the first call also warms the synthesizer up): wait for it.
    for (let i = 0; i < 100 && !socket.audio.some((c) => c.header.input_id === opening.input_id); i++) await new Promise((r) => setTimeout(r, 100));
    const spoken = socket.audio.filter((c) => c.header.input_id === opening.input_id);
    expect(spoken.length).toBeGreaterThan(0);
    const pcm = await decodeSpeech({ bytes: spoken[0]?.audio ?? new Uint8Array(), format: 'mp3' });
    expect(pcm.ok).toBe(true);
    if (pcm.ok) expect(pcm.samples.length / 16000).toBeGreaterThan(0.5);

    const clips = [
      ['dead-end.en.l3.m3-175-50.wav', 'wav'], ['dead-end.en.l4.m3-175-50.mp3', 'mp3'], ['dead-end.en.l6.m3-175-50.mp3', 'mp3'],
      ['dead-end.en.l6.m7-200-35.mp3', 'mp3'], ['dead-end.en.l6.m3-175-50.wav', 'wav'], ['dead-end.en.l3.m7-200-35.mp3', 'mp3'],
    ] as const;
    const heard: string[] = [];
    let facts = 0;
    for (const [file, format] of clips) {
      const r = await socket.send({ player_story_id: run.id, is_starting_dialogue: false, audio_format: format }, new Uint8Array(readFileSync(join(AUDIO, file))));
      heard.push(r.error ?? r.outputs.at(-1)?.transcribed_player_answer ?? '');
      facts = Math.max(facts, r.outputs.at(-1)?.player_facts.length ?? 0);
      if (r.outputs.at(-1)?.complete_the_moment) break;
    }
    // At least one WAV and one MP3 clip were understood and taught the keeper's facts.
    expect(facts, heard.join(' | ')).toBeGreaterThanOrEqual(2);
    // Every spoken turn's transcript line carries its stage timings, up to the first audio byte (added once spoken).
    type Line = { kind: string; event?: { type: string }; stages?: Record<string, number> };
    let spokenTurns: Line[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${srv.url}/api/player-stories/${run.id}/transcript`, { headers: { authorization: `Bearer ${api.token ?? ''}` } });
      const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l) as Line);
      spokenTurns = lines.filter((l) => l.kind === 'event' && l.event?.type === 'turn' && l.stages?.stt !== undefined);
      if (spokenTurns.length > 0 && spokenTurns.every((l) => l.stages?.total !== undefined)) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(spokenTurns.length).toBeGreaterThan(0);
    for (const l of spokenTurns) {
      expect(Object.keys(l.stages ?? {})).toEqual(expect.arrayContaining(['decode', 'stt', 'brain', 'total_server', 'to_game_output', 'tts_first_byte', 'total']));
      expect(l.stages?.total).toBeGreaterThanOrEqual(l.stages?.stt ?? 0);
    }
    await socket.close();
  });

  it('French audio without a recogniser gets a clear error; French typed lines play', async () => {
    const { run, socket } = await player('french');
    await socket.send({ player_story_id: run.id, is_starting_dialogue: true });
    await socket.send({ player_story_id: run.id, is_starting_dialogue: true });
    const audio = await socket.send({ player_story_id: run.id, is_starting_dialogue: false, audio_format: 'wav' }, new Uint8Array(readFileSync(join(AUDIO, 'dead-end.en.l3.m3-175-50.wav'))));
    expect(audio.error).toMatch(/French speech recognition needs a speech-to-text provider/);
    const typed = await socket.send({ player_story_id: run.id, is_starting_dialogue: false, transcription: "Quand est-ce que la lumière s'éteint ?" });
    expect(typed.error).toBeNull();
    expect(typed.outputs.at(-1)?.player_facts.length).toBe(1);
    await socket.close();
  });
});
