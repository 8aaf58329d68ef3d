// The turn pipeline on a real store (PGlite): speech is recognised once and the brain asked once per state it saw,
// whatever the commit retries; a turn another process committed first is answered as a replay; a spoken turn's
// transcript line is written by its commit and completed once with its speech timings; the transcript replays to the
// stored state.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decideScripted, type BrainInput } from '../../engine/brain/scripted.js';
import type { ServerFrame } from '../../engine/protocol/frames.js';
import type { UserInput } from '../../engine/protocol/user-input.js';
import { step } from '../../engine/run/step.js';
import { stateDigest } from '../../engine/sim/transcript.js';
import { createLogger } from '../log.js';
import { GameRepo } from '../store/game.js';
import { StoryRepo } from '../store/stories.js';
import type { SpeakRequest, Synthesizer } from '../voice/synthesizer.js';
import type { TranscribeRequest, Transcriber } from '../voice/transcriber.js';
import type { Heard, Hearing } from '../voice/hearing.js';
import { VoiceMissRepo } from '../store/voice-misses.js';
import type { Brain } from './brain.js';
import type { CommitRequest, GameStorePort } from './ports.js';
import { GameService } from './service.js';
import { TurnPipeline, type FrameSink, type TurnOutcome } from './turn-pipeline.js';
import { LANTERN_STORY, useLanternDb } from './lantern-db.test-kit.js';

const STORY = LANTERN_STORY;
const log = createLogger('silent');
const lantern = useLanternDb('looptale-pipeline-');

/** Test doubles for the paid or slow parts: they count their calls. */
class CountingTranscriber implements Transcriber {
  readonly name = 'counting';
  calls: TranscribeRequest[] = [];
  constructor(readonly text: string) {}
  transcribe(req: TranscribeRequest) {
    this.calls.push(req);
    return Promise.resolve({ ok: true as const, text: this.text, recogniser: this.name });
  }
}
class CountingBrain implements Brain {
  readonly name = 'scripted';
  calls: BrainInput[] = [];
  decide(input: BrainInput) {
    this.calls.push(input);
    return Promise.resolve({ decision: decideScripted(input), brain: this.name });
  }
}
class ChunkSynth implements Synthesizer {
  readonly name = 'chunks';
  requests: SpeakRequest[] = [];
  async *speak(req: SpeakRequest): AsyncIterable<Uint8Array> {
    this.requests.push(req);
    await Promise.resolve();
    yield new Uint8Array([1, 2, 3]);
    yield new Uint8Array([4, 5]);
  }
}

/** Speaks only once opened: a slow synthesizer. */
class GateSynth implements Synthesizer {
  readonly name = 'gate';
  #open!: () => void;
  readonly opened = new Promise<void>((r) => (this.#open = r));
  open(): void {
    this.#open();
  }
  async *speak(): AsyncIterable<Uint8Array> {
    await this.opened;
    yield new Uint8Array([9]);
  }
}

/** The store, with a hook that runs just before a commit (another process moving first) and counters. */
class HookedStore extends GameRepo implements GameStorePort {
  beforeCommit: ((c: CommitRequest) => Promise<void>) | null = null;
  commits: CommitRequest[] = [];
  appended = 0;
  override async commit(c: CommitRequest) {
    const hook = this.beforeCommit;
    this.beforeCommit = null;
    if (hook) await hook(c);
    this.commits.push(c);
    return super.commit(c);
  }
  override async appendTranscript(id: string, lines: Parameters<GameRepo['appendTranscript']>[1]) {
    this.appended++;
    return super.appendTranscript(id, lines);
  }
  completed = 0;
  override async completeTranscriptLine(id: string, line: Parameters<GameRepo['completeTranscriptLine']>[1]) {
    this.completed++;
    return super.completeTranscriptLine(id, line);
  }
}

function setup(opts: { synth?: Synthesizer; heard?: string } = {}) {
  const store = new HookedStore(lantern.db());
  const stories = new StoryRepo(lantern.db());
  const game = new GameService({ store, stories, log });
  const transcriber = new CountingTranscriber(opts.heard ?? 'When does the light go out?');
  const brain = new CountingBrain();
  const pipeline = new TurnPipeline({ game, store, brain, transcriber, synthesizer: opts.synth ?? null, log });
  // "Another process": its own service, lock and pipeline on the same database.
  const otherGame = new GameService({ store: new GameRepo(lantern.db()), stories, log });
  const other = new TurnPipeline({ game: otherGame, store: otherGame.deps.store, brain: new CountingBrain(), transcriber, synthesizer: null, log });
  return { store, game, transcriber, brain, pipeline, other };
}

function collect(): { frames: ServerFrame[]; send: FrameSink } {
  const frames: ServerFrame[] = [];
  return { frames, send: (f) => (frames.push(f), true) };
}

async function play(p: TurnPipeline, userId: string, input: Omit<UserInput, 'input_id'> & { input_id?: string }, audio = false): Promise<{ outcome: TurnOutcome; frames: ServerFrame[] }> {
  const { frames, send } = collect();
  const outcome = await p.run({
    userId, input: { input_id: randomUUID(), ...input }, audio: audio ? { bytes: new Uint8Array(10), format: 'wav' } : null,
    receivedAt: performance.now(), decodeMs: 0.1,
  }, send);
  return { outcome, frames };
}

async function newRun(game: GameService): Promise<{ userId: string; runId: string }> {
  const userId = randomUUID();
  const run = await game.createRun(userId, STORY.id, { language: 'english' });
  return { userId, runId: run.id };
}

/** The opening monologue, then the start of the keeper's moment (which waits for the player's words). */
async function opening(p: TurnPipeline, userId: string, runId: string): Promise<void> {
  for (let i = 0; i < 2; i++) expect((await play(p, userId, { player_story_id: runId, is_starting_dialogue: true })).outcome.kind).toBe('played');
}

/** Folds the stored transcript through the engine: it must end in the stored state. */
async function expectReplays(store: GameRepo, userId: string, runId: string): Promise<number> {
  const [header, ...events] = await store.transcript(runId);
  if (header?.kind !== 'header') throw new Error('no header');
  let s = header.initial_state;
  for (const e of events) {
    if (e.kind !== 'event') continue;
    const r = step(s, e.event, { now: e.now, story: STORY });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.outputs).toEqual(e.outputs);
    expect(stateDigest(r.state)).toBe(e.state_digest);
    s = r.state;
  }
  expect(stateDigest(s)).toBe(stateDigest((await store.loadState(userId, STORY.id, { refresh: false }))?.state ?? s));
  return events.length;
}

describe('turn pipeline', () => {
  it('recognises speech once when another process commits first, and asks the brain again only because the state moved', async () => {
    const { store, game, transcriber, brain, pipeline, other } = setup();
    const { userId, runId } = await newRun(game);
    await opening(pipeline, userId, runId);
    brain.calls = [];
    transcriber.calls = [];
    // Just before our commit, another process plays a typed turn of the same run.
    store.beforeCommit = async () => {
      const r = await play(other, userId, { player_story_id: runId, is_starting_dialogue: false, transcription: 'Who are you?' });
      expect(r.outcome.kind).toBe('played');
    };
    const { outcome, frames } = await play(pipeline, userId, { player_story_id: runId, is_starting_dialogue: false }, true);
    expect(frames.filter((f) => f.type === 'ERROR_MESSAGE')).toEqual([]);
    expect(outcome.kind).toBe('played');
    if (outcome.kind !== 'played') return;
    expect(outcome.stages.attempts).toBe(2);
    expect(transcriber.calls).toHaveLength(1);
    expect(brain.calls).toHaveLength(2);
    expect(frames.filter((f) => f.type === 'GAME_OUTPUT').length).toBeGreaterThan(0);
    expect(frames.every((f) => f.type !== 'ERROR_MESSAGE')).toBe(true);
    // Both turns are in the transcript, which replays to the stored state.
    expect(await expectReplays(store, userId, runId)).toBe(5);
  });

  it('answers a turn another process committed first as a replay, without hearing it or deciding again', async () => {
    const { store, game, transcriber, brain, pipeline, other } = setup();
    const { userId, runId } = await newRun(game);
    await opening(pipeline, userId, runId);
    const input = { input_id: randomUUID(), player_story_id: runId, is_starting_dialogue: false, transcription: 'When does the light go out?' };
    let first: ServerFrame[] = [];
    store.beforeCommit = async () => {
      first = (await play(other, userId, input)).frames;
    };
    brain.calls = [];
    const { outcome, frames } = await play(pipeline, userId, input);
    expect(outcome.kind).toBe('replayed');
    expect(frames).toEqual(first);
    expect(brain.calls).toHaveLength(1);
    expect(transcriber.calls).toHaveLength(0);
    // Replayed again on this process: found before anything runs.
    brain.calls = [];
    expect((await play(pipeline, userId, input)).frames).toEqual(first);
    expect(brain.calls).toHaveLength(0);
    expect(await expectReplays(store, userId, runId)).toBe(4);
  });

  it('writes a spoken turn\'s transcript line once, with its speech timings, and voices lines from their speak effect', async () => {
    const synth = new ChunkSynth();
    const { store, game, pipeline } = setup({ synth });
    const { userId, runId } = await newRun(game);
    const before = store.commits.length;
    const { outcome, frames } = await play(pipeline, userId, { player_story_id: runId, is_starting_dialogue: true });
    expect(outcome.kind).toBe('played');
    // GAME_OUTPUT first, then the audio chunks.
    expect(frames.map((f) => f.type)).toEqual(['GAME_OUTPUT', 'AUDIO_ANSWER', 'AUDIO_ANSWER']);
    expect(synth.requests[0]).toMatchObject({ language: 'english', text: (frames[0] as Extract<ServerFrame, { type: 'GAME_OUTPUT' }>).output.dialogue });
    // The commit carried the transcript line (a kill -9 during the speech must not lose it, #14); its speech timings
    // were filled in once, afterwards, and nothing was appended.
    expect(store.commits.slice(before).map((c) => c.transcript?.lines.length ?? 0)).toEqual([1]);
    const committed = store.commits.at(-1)?.transcript?.lines[0];
    expect(committed?.kind === 'event' ? Object.keys(committed.stages ?? {}) : ['?']).not.toContain('tts_first_byte');
    expect(store.completed).toBe(1);
    expect(store.appended).toBe(0);
    const lines = await store.transcript(runId);
    const turn = lines.at(-1);
    expect(lines.filter((l) => l.kind === 'event')).toHaveLength(2);
    expect(turn?.kind === 'event' ? Object.keys(turn.stages ?? {}) : []).toEqual(expect.arrayContaining(
      ['decode', 'brain', 'step', 'commit', 'total_server', 'to_game_output', 'tts_first_chunk', 'to_first_audio', 'tts_first_byte', 'total']));
    await expectReplays(store, userId, runId);
  });

  it('keeps an acknowledged spoken turn in the transcript while its speech is still going: a kill -9 then loses no turn (#14, test:load kill -9 mode)', async () => {
    const synth = new GateSynth();
    const { store, game, pipeline } = setup({ synth });
    const { userId, runId } = await newRun(game);
    const input_id = randomUUID();
    let acknowledged!: () => void;
    const output = new Promise<void>((r) => (acknowledged = r));
    const played = pipeline.run({ userId, input: { input_id, player_story_id: runId, is_starting_dialogue: true }, audio: null, receivedAt: performance.now(), decodeMs: 0 }, (f) => {
      if (f.type === 'GAME_OUTPUT') acknowledged();
      return true;
    });
    await output;
    // The player has its GAME_OUTPUT; the voice is still being made. Were the process killed now, this is what stays.
    const now = await store.transcript(runId);
    expect(now.flatMap((l) => (l.kind === 'event' && l.event.type === 'turn' ? [l.event.input_id] : []))).toEqual([input_id]);
    synth.open();
    expect((await played).kind).toBe('played');
    await game.lines.settled(runId);
    const lines = await store.transcript(runId);
    expect(lines.filter((l) => l.kind === 'event' && l.event.type === 'turn')).toHaveLength(1);
    const turn = lines.at(-1);
    expect(turn?.kind === 'event' ? Object.keys(turn.stages ?? {}) : []).toEqual(expect.arrayContaining(['commit', 'tts_first_byte', 'total']));
    await expectReplays(store, userId, runId);
  });

  it('does not make the next turn wait for the previous reply\'s voice, and keeps the run\'s lines in order', async () => {
    const synth = new GateSynth();
    const { store, game, pipeline } = setup({ synth });
    const { userId, runId } = await newRun(game);
    const first = play(pipeline, userId, { player_story_id: runId, is_starting_dialogue: true });
    // The opening's voice is held back; the next turn is played meanwhile (its line waits behind the opening's).
    let gotOutput!: () => void;
    const output = new Promise<void>((r) => (gotOutput = r));
    const frames: ServerFrame[] = [];
    const second = pipeline.run({
      userId, input: { input_id: randomUUID(), player_story_id: runId, is_starting_dialogue: true }, audio: null, receivedAt: performance.now(), decodeMs: 0,
    }, (f) => {
      frames.push(f);
      if (f.type === 'GAME_OUTPUT') gotOutput();
      return true;
    });
    await output;
    const ending = game.endRun(userId, runId);
    // Both turns' lines are there already (their commits wrote them); the run's end waits for their speech timings.
    expect((await store.transcript(runId)).filter((l) => l.kind === 'event')).toHaveLength(3);
    synth.open();
    expect((await first).outcome.kind).toBe('played');
    expect((await second).kind).toBe('played');
    await ending;
    const events = (await store.transcript(runId)).flatMap((l) => (l.kind === 'event' ? [l.event.type] : []));
    expect(events).toEqual(['run.create', 'turn', 'turn', 'run.end']);
    await expectReplays(store, userId, runId);
  });

  it('refuses what the state cannot take with the spec\'s messages, and sends nothing else', async () => {
    const { game, pipeline } = setup();
    const { userId, runId } = await newRun(game);
    const stranger = await play(pipeline, randomUUID(), { player_story_id: runId, is_starting_dialogue: true });
    expect(stranger.outcome).toEqual({ kind: 'failed', code: 'run/not_found' });
    expect(stranger.frames).toEqual([{ type: 'ERROR_MESSAGE', message: 'Unknown player story: it does not exist or is not yours.' }]);
    await opening(pipeline, userId, runId);
    const silent = await play(pipeline, userId, { player_story_id: runId, is_starting_dialogue: false });
    expect(silent.frames).toEqual([{ type: 'ERROR_MESSAGE', message: 'Say something: send a transcription or audio.' }]);
    await game.endRun(userId, runId);
    const over = await play(pipeline, userId, { player_story_id: runId, is_starting_dialogue: false, transcription: 'hello' });
    expect(over.frames).toEqual([{ type: 'ERROR_MESSAGE', message: 'This run is over. Start a new run to play again.' }]);
  });
});

/** A recogniser that misses or hears, in turn: each call takes the next answer. */
class ScriptedHearing implements Hearing {
  readonly name = 'scripted-hearing';
  constructor(readonly answers: ({ miss: string; heard?: string } | { text: string })[]) {}
  hear(): Promise<Heard> {
    const a = this.answers.shift();
    if (!a) throw new Error('no more answers');
    return Promise.resolve('text' in a ? { ok: true, words: a.text, confidence: null, alternatives: [], recogniser: this.name } : { ok: false, miss: true, reason: a.miss, heard: a.heard ?? null, recogniser: this.name });
  }
}

describe('misses (audio the game did not catch)', () => {
  it('answers "Sorry, I didn\'t catch that." with a hint, then the choices, counts nothing, replays the same answer, and keeps what was heard', async () => {
    const store = new HookedStore(lantern.db());
    const game = new GameService({ store, stories: new StoryRepo(lantern.db()), log });
    const misses = new VoiceMissRepo(lantern.db());
    const hearing = new ScriptedHearing([{ miss: 'unsure', heard: 'the market please today' }, { miss: 'no_decision', heard: 'can you repeat that' }, { text: 'When does the light go dark?' }, { miss: 'silence' }]);
    const synth = new ChunkSynth();
    const pipeline = new TurnPipeline({ game, store, brain: new CountingBrain(), transcriber: new CountingTranscriber(''), hearing, misses, synthesizer: synth, log });
    const { userId, runId } = await newRun(game);
    await opening(pipeline, userId, runId);
    const before = (await store.loadState(userId, STORY.id))?.state;
    const commits = store.commits.length;

    const first = await play(pipeline, userId, { input_id: randomUUID(), player_story_id: runId, is_starting_dialogue: false }, true);
    const out1 = first.frames.find((f) => f.type === 'GAME_OUTPUT');
    if (out1?.type !== 'GAME_OUTPUT') throw new Error('no GAME_OUTPUT');
    expect(out1.output.not_caught).toMatchObject({ miss_number: 1, reason: 'unsure', choices: [] });
    expect(out1.output.dialogue).toMatch(/^Sorry, I didn't catch that\. You can say, for example: "/);
    expect(out1.output).toMatchObject({ interaction_counted: false, complete_the_moment: false });
    // Spoken like any reply.
    expect(first.frames.filter((f) => f.type === 'AUDIO_ANSWER').length).toBe(2);
    expect(synth.requests.at(-1)?.text).toBe(out1.output.dialogue);
    // Nothing committed, nothing counted.
    expect(store.commits.length).toBe(commits);
    expect((await store.loadState(userId, STORY.id))?.state).toEqual(before);

    const second = await play(pipeline, userId, { player_story_id: runId, is_starting_dialogue: false }, true);
    const out2 = second.frames.find((f) => f.type === 'GAME_OUTPUT');
    if (out2?.type !== 'GAME_OUTPUT') throw new Error('no GAME_OUTPUT');
    expect(out2.output.not_caught?.miss_number).toBe(2);
    expect(out2.output.not_caught?.choices.map((c) => c.text)).toEqual(expect.arrayContaining(['When does the light go dark?', 'Is anything missing?']));

    // The same input again: the same answer, not a third miss, and not heard again (the miss's kept answer is found
    // before the audio is heard: #14, replays on a restarted server).
    const left = hearing.answers.length;
    const again = await play(pipeline, userId, { input_id: out1.output.input_id, player_story_id: runId, is_starting_dialogue: false }, true);
    expect(again.outcome.kind).toBe('replayed');
    expect(again.frames).toEqual([out1]);
    expect(hearing.answers.length).toBe(left);
    expect((await store.loadState(userId, STORY.id))?.state).toEqual(before);

    // A caught turn plays and counts; the next miss starts again from 1.
    const caught = await play(pipeline, userId, { player_story_id: runId, is_starting_dialogue: false }, true);
    const out3 = caught.frames.find((f) => f.type === 'GAME_OUTPUT');
    expect(out3?.type === 'GAME_OUTPUT' && out3.output.interaction_counted).toBe(true);
    const third = await play(pipeline, userId, { player_story_id: runId, is_starting_dialogue: false }, true);
    const out4 = third.frames.find((f) => f.type === 'GAME_OUTPUT');
    expect(out4?.type === 'GAME_OUTPUT' && out4.output.not_caught?.miss_number).toBe(1);

    // Kept per moment for authors: what was heard, never the audio.
    const rows = await misses.forMoment(STORY.id, out1.output.blueprint_moment_id);
    expect(rows.map((r) => [r.miss_number, r.reason, r.heard])).toEqual(expect.arrayContaining([[1, 'unsure', 'the market please today'], [2, 'no_decision', 'can you repeat that'], [1, 'silence', null]]));
    expect(rows).toHaveLength(3);
  });

  it('keeps no words with a retention of 0 days, and purges what is past the retention', async () => {
    const store = new HookedStore(lantern.db());
    const game = new GameService({ store, stories: new StoryRepo(lantern.db()), log });
    const misses = new VoiceMissRepo(lantern.db());
    const pipeline = new TurnPipeline({ game, store, brain: new CountingBrain(), transcriber: new CountingTranscriber(''), hearing: new ScriptedHearing([{ miss: 'unsure', heard: 'secret words' }]), misses, missRetentionDays: 0, synthesizer: null, log });
    const { userId, runId } = await newRun(game);
    await opening(pipeline, userId, runId);
    const r = await play(pipeline, userId, { player_story_id: runId, is_starting_dialogue: false }, true);
    const out = r.frames.find((f) => f.type === 'GAME_OUTPUT');
    if (out?.type !== 'GAME_OUTPUT') throw new Error('no GAME_OUTPUT');
    const rows = await misses.forMoment(STORY.id, out.output.blueprint_moment_id);
    const mine = rows.find((x) => x.input_id === out.output.input_id);
    expect(mine?.heard).toBeNull();
    // A day and a half later, with a retention of one day: gone.
    expect(await misses.purge(1, Date.now() + 36 * 3_600_000)).toBeGreaterThan(0);
    expect((await misses.forMoment(STORY.id, out.output.blueprint_moment_id)).find((x) => x.input_id === out.output.input_id)).toBeUndefined();
  });
});
