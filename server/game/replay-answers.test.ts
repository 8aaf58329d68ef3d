// #14, stalls in test:load: an input sent again after a dropped socket (the player's client replays it with the same
// input_id, sometimes several times while the first is still being heard) waited for the first in the run's lock and
// was then answered from the database (findProcessed), one resend after another. Under load each of those reads
// waited seconds in the database's queue: one player waited 18 s for a turn the server had committed in 5 s. The
// process now answers an input it committed itself from memory; another process still reads the database.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decideScripted, type BrainInput } from '../../engine/brain/scripted.js';
import type { ServerFrame } from '../../engine/protocol/frames.js';
import type { UserInput } from '../../engine/protocol/user-input.js';
import { createLogger } from '../log.js';
import { GameRepo } from '../store/game.js';
import { StoryRepo } from '../store/stories.js';
import { VoiceMissRepo } from '../store/voice-misses.js';
import type { HearingRequest, Heard, Hearing } from '../voice/hearing.js';
import type { TranscribeRequest, Transcriber } from '../voice/transcriber.js';
import type { Brain } from './brain.js';
import { GameService } from './service.js';
import { TurnPipeline } from './turn-pipeline.js';
import { LANTERN_STORY, useLanternDb } from './lantern-db.test-kit.js';

const STORY = LANTERN_STORY;
const log = createLogger('silent');
const lantern = useLanternDb('looptale-replay-answers-');

/** Hears the player only once `open()` is called: the first send of an input is still in flight until then. */
class HeldTranscriber implements Transcriber {
  readonly name = 'held';
  #open!: () => void;
  readonly opened = new Promise<void>((r) => (this.#open = r));
  calls = 0;
  open(): void {
    this.#open();
  }
  async transcribe(_req: TranscribeRequest) {
    this.calls++;
    await this.opened;
    return { ok: true as const, text: 'When does the light go out?', recogniser: this.name };
  }
}

class Scripted implements Brain {
  readonly name = 'scripted';
  decide(input: BrainInput) {
    return Promise.resolve({ decision: decideScripted(input), brain: this.name });
  }
}

/** The store, counting the database reads of answers already given. */
class CountingStore extends GameRepo {
  lookups = 0;
  override findProcessed(userId: string, inputId: string) {
    this.lookups++;
    return super.findProcessed(userId, inputId);
  }
}

function pipelineOn(store: CountingStore, transcriber: Transcriber, hearing?: Hearing): { game: GameService; pipeline: TurnPipeline } {
  const game = new GameService({ store, stories: new StoryRepo(lantern.db()), log });
  const misses = new VoiceMissRepo(lantern.db());
  return { game, pipeline: new TurnPipeline({ game, store, brain: new Scripted(), transcriber, ...(hearing ? { hearing } : {}), misses, synthesizer: null, log }) };
}

/** Hears nothing it can use: every answer is a miss ("Sorry, I didn't catch that."). */
class DeafListener implements Hearing {
  readonly name = 'deaf';
  calls = 0;
  hear(_req: HearingRequest): Promise<Heard> {
    this.calls++;
    return Promise.resolve({ ok: false, miss: true, reason: 'not_heard', heard: null, recogniser: 'deaf' });
  }
}

function send(p: TurnPipeline, userId: string, input: UserInput, audio: boolean): { frames: ServerFrame[]; done: Promise<unknown> } {
  const frames: ServerFrame[] = [];
  const done = p.run({ userId, input, audio: audio ? { bytes: new Uint8Array(10), format: 'wav' } : null, receivedAt: performance.now(), decodeMs: 0.1 }, (f) => (frames.push(f), true));
  return { frames, done };
}

const outputs = (frames: ServerFrame[]): unknown[] => frames.filter((f) => f.type === 'GAME_OUTPUT');

describe('an input sent again is answered from memory by the process that committed it', () => {
  it('answers resends that waited for the first send without reading the database, and hears the audio once', async () => {
    const store = new CountingStore(lantern.db());
    const heard = new HeldTranscriber();
    const { game, pipeline } = pipelineOn(store, heard);
    const userId = randomUUID();
    const run = await game.createRun(userId, STORY.id, { language: 'english' });
    for (let i = 0; i < 2; i++) await send(pipeline, userId, { input_id: randomUUID(), player_story_id: run.id, is_starting_dialogue: true }, false).done;
    const input: UserInput = { input_id: randomUUID(), player_story_id: run.id, is_starting_dialogue: false, audio_format: 'wav' };
    // The first send is being heard; the player's socket drops and its client sends the same input again, twice.
    const first = send(pipeline, userId, input, true);
    const again = [send(pipeline, userId, input, true), send(pipeline, userId, input, true)];
    heard.open();
    await Promise.all([first.done, ...again.map((a) => a.done)]);
    expect(outputs(first.frames).length).toBeGreaterThan(0);
    for (const a of again) expect(outputs(a.frames)).toEqual(outputs(first.frames));
    expect(heard.calls).toBe(1);
    // One read: the first send, looked up before it is heard (a miss already answered is not in the state).
    expect(store.lookups).toBe(1);
    // Later (a reconnect after the answer was lost): still from memory.
    const later = send(pipeline, userId, input, true);
    await later.done;
    expect(outputs(later.frames)).toEqual(outputs(first.frames));
    expect(store.lookups).toBe(1);

    // Another process (no memory of it) reads the database, and answers the same.
    const otherStore = new CountingStore(lantern.db());
    const other = pipelineOn(otherStore, heard).pipeline;
    const elsewhere = send(other, userId, input, true);
    await elsewhere.done;
    expect(outputs(elsewhere.frames)).toEqual(outputs(first.frames));
    expect(otherStore.lookups).toBe(1);
    expect(heard.calls).toBe(1); // never heard again: a restarted server answers replays from the database
  });
});

// #14, kill -9 load run: a turn the server answered just before it was killed is sent again to the restarted server.
// A committed turn is in the run's state and is answered from it; an answer the game did not catch (a miss) is kept
// only beside it (processed_inputs), and the new process heard the audio again, the costliest step of a turn, while
// every other player's replay was being heard on the same cold server.
describe('audio answered as a miss is not heard again when it is sent again', () => {
  it('answers the resend from memory, and another process from the database, without recognising it again', async () => {
    const deaf = new DeafListener();
    const never = new HeldTranscriber();
    const { game, pipeline } = pipelineOn(new CountingStore(lantern.db()), never, deaf);
    const userId = randomUUID();
    const run = await game.createRun(userId, STORY.id, { language: 'english' });
    for (let i = 0; i < 2; i++) await send(pipeline, userId, { input_id: randomUUID(), player_story_id: run.id, is_starting_dialogue: true }, false).done;
    const input: UserInput = { input_id: randomUUID(), player_story_id: run.id, is_starting_dialogue: false, audio_format: 'wav' };
    const first = send(pipeline, userId, input, true);
    await first.done;
    expect(outputs(first.frames)).toHaveLength(1);
    expect(deaf.calls).toBe(1);

    const again = send(pipeline, userId, input, true);
    await again.done;
    expect(outputs(again.frames)).toEqual(outputs(first.frames));

    const restarted = pipelineOn(new CountingStore(lantern.db()), never, deaf).pipeline;
    const elsewhere = send(restarted, userId, input, true);
    await elsewhere.done;
    expect(outputs(elsewhere.frames)).toEqual(outputs(first.frames));
    expect(deaf.calls).toBe(1);
  });
});
