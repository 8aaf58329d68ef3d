// Voice over the real socket, offline: recorded WAV and MP3 clips sent with no transcription are recognised by
// pocketsphinx with the moment's grammar and move the game; the character's replies come back as AUDIO_ANSWER MP3
// frames of plausible length; French without a recogniser gets a clear error while its typed lines play.
import { randomUUID } from 'node:crypto';

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayerStory } from '../engine/schema/player.js';
import type { GameOutput } from '../engine/schema/game-output.js';
import { parsePlan } from '../engine/story/testplan.js';
import { runPlanRemote } from '../cli/lib/remote-plan.js';
import { resample, STT_RATE, toInt16 } from '../server/voice/audio.js';
import { EspeakEngine, ESPEAK_RATE } from '../server/voice/espeak-engine.js';
import { LINT_PROFILES, speakAsPlayer } from '../server/voice/synthetic-speech.js';
import { encodeWav } from '../server/voice/wav.js';
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
  // A generous decode deadline: on a loaded machine a recognition that misses its deadline is a miss, not a failure.
  // And a generous start: at load ~20 a fresh server took 21 s to serve (30 s was missed twice).
  srv = await spawnServer({ SEED_STORIES: 'true', STORIES_DIR: ROOT, DATA_DIR: dataDir, VOICE: 'on', POCKETSPHINX_TIMEOUT_MS: '60000' }, 120_000);
  const stories = await new Api(srv.url).request<{ id: string; name: string }[]>('GET', '/api/stories');
  storyId = stories.find((s) => s.name === 'The Lantern Keeper')?.id ?? '';
}, 180_000);
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
    for (let i = 0; i < 600 && !socket.audio.some((c) => c.header.input_id === opening.input_id); i++) await new Promise((r) => setTimeout(r, 100));
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

  it('plays The Clockwork Siege\'s battle by voice: attacks and defences spoken, each defence counted as the struck fighter\'s, in style', async () => {
    const api = new Api(srv.url);
    await api.signUp(`battle-${randomUUID()}@example.com`, 'a long enough password');
    const stories = await api.request<{ id: string; name: string }[]>('GET', '/api/stories');
    const siege = stories.find((x) => x.name === 'The Clockwork Siege')?.id ?? '';
    const run = await api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: siege, language: 'english' });
    const socket = await GameSocket.connect(srv.url, api.token ?? '');
    // Typed up to the battle (the plan's own lines), then by voice.
    const parsed = parsePlan(readFileSync(join(ROOT, 'clockwork-siege', 'win.en.testplan'), 'utf8'));
    if (!parsed.ok) throw new Error(parsed.error);
    const battleAt = parsed.steps.findIndex((x) => x.verb === 'say' && x.arg === 'Ferrule, crush the Margravine!');
    const typed = await runPlanRemote(api, socket, run.id, parsed.steps.slice(0, battleAt));
    expect(typed.failure).toBeNull();
    // The battle starts (its opening lines): the player attacks first.
    const opened = await socket.send({ player_story_id: run.id, is_starting_dialogue: true });
    expect(opened.error).toBeNull();
    expect(opened.outputs.at(-1)?.battle_state_next_phase).not.toBe('');

    const engine = await EspeakEngine.create();
    const speak = (text: string, voice: number): Uint8Array => {
      const profile = LINT_PROFILES[voice % LINT_PROFILES.length];
      if (!profile) throw new Error('no voice');
      return encodeWav(toInt16(resample(speakAsPlayer(engine, text, 'english', profile, text), ESPEAK_RATE, STT_RATE)), STT_RATE);
    };
    // As a player would: said again (here in the next voice) when the game did not catch it; a miss changes nothing.
    let misses = 0; // how many times the player had to say it again (logged below)
    const say = async (text: string): Promise<GameOutput> => {
      for (let voice = 0; ; voice++) {
        const r = await socket.send({ player_story_id: run.id, is_starting_dialogue: false, audio_format: 'wav' }, speak(text, voice));
        expect(r.error).toBeNull();
        const out = r.outputs.at(-1);
        if (!out) throw new Error('no GAME_OUTPUT');
        if (!out.not_caught) return out;
        expect(out).toMatchObject({ interaction_counted: false, complete_the_moment: false });
        expect(out.dialogue).toMatch(/^Sorry, I didn't catch that\./);
        misses++;
        expect(voice, `"${text}" was not caught in any voice`).toBeLessThan(LINT_PROFILES.length - 1);
      }
    };
    const defences: Record<string, string> = { 'Tam Wick': 'Tam, dodge into the shadows!', 'Orla Vance': 'Orla, parry precisely!', Ferrule: 'Ferrule, brace, mighty as thunder!' };
    let last: GameOutput | undefined;
    let defended = 0;
    // The plan's attacks win in three; a spoken attack heard with another target (a confusion the voice-understanding
    // bench counts) only makes the battle longer, so the attacks go round until it ends.
    const attacks = ['Ferrule, crush the Margravine!', 'Orla, strike the knight precisely!', 'Tam, strike the hound from the shadows!'];
    for (let k = 0; k < 9; k++) {
      last = await say(attacks[k % attacks.length] ?? '');
      if (last.complete_the_moment) break;
      expect(last.battle_state_next_phase).toBe('player_defense_input');
      const struck = last.player_characters.find((c) => c.character_id === last?.battle_pending_strike?.target_id)?.character_name ?? '';
      const before = last.loop_current_number_of_interactions;
      const line = defences[struck];
      if (!line) throw new Error(`no defence line for ${struck}`);
      const after = await say(line);
      // The defence counted as a turn, and the blow was taken by the struck fighter.
      expect(after.interaction_counted).toBe(true);
      expect(after.loop_current_number_of_interactions).toBe(before + 1);
      expect(after.battle_state_action_history.at(-1)?.target_id).toBe(last.battle_pending_strike?.target_id);
      last = after;
      defended++;
    }
    expect(last?.complete_the_moment).toBe(true);
    expect(defended).toBeGreaterThanOrEqual(2);
    console.info(`battle by voice: ${defended} defences, ${misses} said again after a miss`);
    // The transcript shows what the brain made of the spoken defences: the struck fighter's, in their own style.
    const res = await fetch(`${srv.url}/api/player-stories/${run.id}/transcript`, { headers: { authorization: `Bearer ${api.token ?? ''}` } });
    type Line = { kind: string; event?: { type: string; transcription?: string; decision?: { battle?: { kind: string; thematic: boolean } } } };
    const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l) as Line);
    const moves = lines.flatMap((l) => (l.kind === 'event' && l.event?.decision?.battle ? [l.event.decision.battle] : []));
    const spokenDefences = moves.filter((m) => m.kind === 'defend');
    expect(spokenDefences).toHaveLength(defended);
    expect(spokenDefences.every((m) => m.thematic)).toBe(true);
    expect(moves.filter((m) => m.kind === 'attack').every((m) => m.thematic)).toBe(true);
    await socket.close();
  }, 120_000);

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
