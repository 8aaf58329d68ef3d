// What a turn asks the database for. On PGlite every call waits in one worker's queue behind every other player's, so
// a turn on the process that created its run makes one call: its commit. The run's owner, its state and the story
// come from the process's memory (the story's freshness check, at most once every 2 s per story, is left out).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ServerFrame } from '../../engine/protocol/frames.js';
import type { UserInput } from '../../engine/protocol/user-input.js';
import type { Db } from '../db/db.js';
import { createLogger } from '../log.js';
import { GameRepo } from '../store/game.js';
import { StoryRepo } from '../store/stories.js';
import { NoTranscriber } from '../voice/transcriber.js';
import { ScriptedBrain } from './brain.js';
import { GameService } from './service.js';
import { TurnPipeline } from './turn-pipeline.js';
import { LANTERN_STORY, useLanternDb } from './lantern-db.test-kit.js';

const log = createLogger('silent');
const lantern = useLanternDb('looptale-round-trips-');

/** The database, noting the start of every statement sent through it. */
function counting(db: Db): { db: Db; calls: string[] } {
  const calls: string[] = [];
  const note = (sql: string): void => {
    calls.push(sql.replace(/\s+/g, ' ').trim().slice(0, 60));
  };
  return {
    calls,
    db: {
      kind: db.kind,
      query: (sql, params, opts) => {
        note(sql);
        return db.query(sql, params, opts);
      },
      tx: (fn) => {
        note('(transaction)');
        return db.tx(fn);
      },
      close: () => db.close(),
    },
  };
}

const STAMP_CHECK = /^SELECT updated_at::text AS stamp FROM blueprint_stories/;

describe('database calls per turn', () => {
  it('makes one call, the commit, for each turn of a run this process created, its first turn included', async () => {
    const { db, calls } = counting(lantern.db());
    const store = new GameRepo(db);
    const game = new GameService({ store, stories: new StoryRepo(db), log });
    const pipeline = new TurnPipeline({ game, store, brain: new ScriptedBrain(), transcriber: new NoTranscriber(), synthesizer: null, log });
    const userId = randomUUID();
    const run = await game.createRun(userId, LANTERN_STORY.id, { language: 'english' });
    const inputs: Omit<UserInput, 'input_id'>[] = [
      { player_story_id: run.id, is_starting_dialogue: true },
      { player_story_id: run.id, is_starting_dialogue: true },
      { player_story_id: run.id, is_starting_dialogue: false, transcription: 'When does the light go dark?' },
      { player_story_id: run.id, is_starting_dialogue: false, transcription: 'Is anything missing?' },
    ];
    for (const input of inputs) {
      calls.length = 0;
      const frames: ServerFrame[] = [];
      const outcome = await pipeline.run({ userId, input: { input_id: randomUUID(), ...input }, audio: null, receivedAt: performance.now(), decodeMs: 0 }, (f) => (frames.push(f), true));
      expect(outcome.kind).toBe('played');
      expect(frames.some((f) => f.type === 'GAME_OUTPUT')).toBe(true);
      const made = calls.filter((c) => !STAMP_CHECK.test(c));
      expect(made).toHaveLength(1);
      expect(made[0]).toMatch(/^WITH ins AS \(INSERT INTO looptale_private.processed_inputs/);
    }
  });
});
