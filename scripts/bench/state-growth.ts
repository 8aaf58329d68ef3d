// State growth (speed issue, goal 4): the bytes a turn writes, and the turn's latency, must not grow with the number of
// past runs. Two players of lantern-keeper on one embedded PGlite database (a temp dir), both through the server's own
// step-and-commit path (server/game/commit-step.ts: step, state digest, one commit of state, rows, input and transcript
// line): a player with 2 past runs (the one-off collection a first Rank A brings is there: ticket, permanent card) and
// a player with 200 (both played first through the same path by the optimal bot, from the same seed).
// Then both play runs alternately, side by side, and each commit is weighed (the JSON the commit carries: state, rows,
// input outputs, transcript lines) and timed (step and commit). Ratios history/new are the figures; goals are reported,
// never asserted. `npm run bench -- state-growth` (about 1 to 2 minutes on 2 cores; the history is most of it).
// Knobs: BENCH_GROWTH_HISTORY (200 past runs), BENCH_GROWTH_SHORT (2), BENCH_GROWTH_RUNS (6 measured runs per player).
// The JSON also lists the state's fields whose JSON size differs between the two players at the end.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SeededRandom } from '../../engine/random.js';
import type { GameEvent } from '../../engine/run/events.js';
import { currentMoment, currentRun, initialState, type GameState } from '../../engine/run/state.js';
import { botUtterance } from '../../engine/sim/bots.js';
import { decideScripted } from '../../engine/brain/scripted.js';
import { Story } from '../../engine/story/format.js';
import { migrate } from '../../server/db/migrate.js';
import { openPglite } from '../../server/db/pglite.js';
import { stepAndCommit } from '../../server/game/commit-step.js';
import type { CommitRequest, GameStorePort } from '../../server/game/ports.js';
import { GameRepo } from '../../server/store/game.js';
import { StoryRepo } from '../../server/store/stories.js';
import { round, summarize } from './lib/stats.js';

const SLUG = 'lantern-keeper';

type Weighed = { bytes: number; stateBytes: number; stepMs: number; commitMs: number; kind: string };

/** The store, with every commit weighed: the JSON text of what it carries (as the store serialises it). */
class WeighingStore {
  last: { bytes: number; stateBytes: number } = { bytes: 0, stateBytes: 0 };
  constructor(readonly repo: GameRepo) {}
  port(): GameStorePort {
    return new Proxy(this.repo, {
      get: (target, prop, receiver) => {
        if (prop === 'commit') {
          return async (c: CommitRequest) => {
            const stateBytes = Buffer.byteLength(JSON.stringify(c.state));
            const rows = c.effects.filter((e) => e.type === 'persist');
            this.last = {
              stateBytes,
              bytes: stateBytes + Buffer.byteLength(JSON.stringify(rows)) + Buffer.byteLength(JSON.stringify(c.input ?? null))
                + Buffer.byteLength(JSON.stringify(c.transcript ?? null)),
            };
            return target.commit(c);
          };
        }
        const v: unknown = Reflect.get(target, prop, receiver);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  }
}

class Player {
  state: GameState;
  version: number | null = null;
  now = Date.UTC(2026, 0, 1);
  readonly r: SeededRandom;
  constructor(readonly store: WeighingStore, readonly userId: string, readonly story: Story, seed: number) {
    this.state = initialState(userId, story.id, seed);
    this.r = new SeededRandom(seed ^ 0x5eed);
  }

  async #commit(event: (s: GameState) => GameEvent, kind: string, inputId?: string): Promise<Weighed> {
    const c = await stepAndCommit({
      store: this.store.port(), userId: this.userId, story: this.story, first: { state: this.state, version: this.version }, refresh: false,
      fresh: () => initialState(this.userId, this.story.id, 1), event, now: () => this.now,
      ...(inputId ? { input: { input_id: inputId, player_story_id: currentRun(this.state)?.id ?? '' } } : {}),
      header: kind === 'run.create', line: () => ({}),
    });
    if (c.duplicate) throw new Error('unexpected duplicate');
    this.state = c.result.state;
    this.version = c.version;
    return { ...this.store.last, stepMs: c.stepMs, commitMs: c.commitMs, kind };
  }

  /** One whole run (create, then the optimal bot until it ends): every commit weighed. */
  async playRun(): Promise<Weighed[]> {
    const out: Weighed[] = [];
    this.now += 60_000;
    out.push(await this.#commit(() => ({ type: 'run.create', language: 'english', reset_progress: false }), 'run.create'));
    for (let i = 0; i < 400; i++) {
      const run = currentRun(this.state);
      if (!run || run.loop_status !== 'loopStatusOnGoing') return out;
      const start = !currentMoment(this.state)?.is_started;
      const u = start ? { text: '' } : botUtterance('optimal', this.state, this.story, this.r);
      this.now += 5_000;
      const inputId = this.r.uuid();
      out.push(await this.#commit((s) => ({
        type: 'turn', input_id: inputId, transcription: u.text, is_starting_dialogue: start,
        decision: decideScripted({ story: this.story, state: s, transcription: u.text, is_starting_dialogue: start, input_id: inputId }),
        ...(u.selected_character_ids ? { selected_character_ids: u.selected_character_ids } : {}),
      }), 'turn', inputId));
    }
    throw new Error('the run did not end');
  }
}

/** JSON sizes of the state's fields that differ between two states: what grows. */
function fieldDiff(a: GameState, b: GameState): Record<string, { with_history: number; short_history: number }> {
  const out: Record<string, { with_history: number; short_history: number }> = {};
  for (const k of Object.keys(a) as (keyof GameState)[]) {
    const x = JSON.stringify(a[k]).length;
    const y = JSON.stringify(b[k]).length;
    if (Math.abs(x - y) > 16) out[k] = { with_history: x, short_history: y };
  }
  return out;
}

function figures(w: readonly Weighed[]): Record<string, unknown> {
  const turns = w.filter((x) => x.kind === 'turn');
  const total = turns.map((x) => x.stepMs + x.commitMs);
  return {
    commits: w.length,
    turns: turns.length,
    bytes_per_turn_mean: Math.round(turns.reduce((a, x) => a + x.bytes, 0) / Math.max(1, turns.length)),
    state_bytes_per_turn_mean: Math.round(turns.reduce((a, x) => a + x.stateBytes, 0) / Math.max(1, turns.length)),
    bytes_per_run_create: Math.round(w.filter((x) => x.kind === 'run.create').reduce((a, x) => a + x.bytes, 0) / Math.max(1, w.length - turns.length)),
    turn_ms: summarize(total),
    step_ms_p50: summarize(turns.map((x) => x.stepMs)).p50,
    commit_ms_p50: summarize(turns.map((x) => x.commitMs)).p50,
  };
}

export async function run(): Promise<Record<string, unknown>> {
  const history = Number(process.env.BENCH_GROWTH_HISTORY ?? 200);
  const runs = Number(process.env.BENCH_GROWTH_RUNS ?? 6);
  const short = Number(process.env.BENCH_GROWTH_SHORT ?? 2);
  const raw = JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/stories', SLUG, 'story.json'), 'utf8')) as unknown;
  const story = Story.parse(raw);
  const dir = mkdtempSync(join(tmpdir(), 'looptale-bench-growth-'));
  const load0 = os.loadavg()[0] ?? 0;
  const t0 = performance.now();
  const db = await openPglite(dir);
  try {
    await migrate(db);
    await new StoryRepo(db).importStory(story, raw);
    const store = new WeighingStore(new GameRepo(db));
    const veteran = new Player(store, 'bench-veteran', story, 7);
    const fresh = new Player(store, 'bench-new', story, 7);
    for (let i = 0; i < history; i++) await veteran.playRun();
    for (let i = 0; i < short; i++) await fresh.playRun();
    const historyS = (performance.now() - t0) / 1000;
    // Side by side: one run each, alternately (the same seed: the same story path, so the same turns).
    const a: Weighed[] = [];
    const b: Weighed[] = [];
    for (let i = 0; i < runs; i++) {
      b.push(...(await fresh.playRun()));
      a.push(...(await veteran.playRun()));
    }
    const fa = figures(a);
    const fb = figures(b);
    const ratio = (x: number, y: number): number => round(x / Math.max(1e-9, y), 2);
    const bytesRatio = ratio(fa.bytes_per_turn_mean as number, fb.bytes_per_turn_mean as number);
    const p50Ratio = ratio((fa.turn_ms as { p50: number }).p50, (fb.turn_ms as { p50: number }).p50);
    return {
      database: 'pglite (temp dir)', story: SLUG, bot: 'optimal', history_runs: history, measured_runs_each: runs,
      path: 'server/game/commit-step.ts stepAndCommit (step + digest + one commit: state, rows, input, transcript line)',
      with_history: { past_runs: history, ...fa },
      short_history: { past_runs: short, ...fb },
      state_fields_bytes_differing: fieldDiff(veteran.state, fresh.state),
      ratios: { bytes_per_turn: bytesRatio, turn_p50: p50Ratio, turn_p99: ratio((fa.turn_ms as { p99: number }).p99, (fb.turn_ms as { p99: number }).p99) },
      goal: {
        goal: `bytes written per turn and turn latency do not grow with past runs (${history} runs of history against ${short})`,
        bytes_met: bytesRatio <= 1.05,
        latency_met_p50: p50Ratio <= 1.25,
        note: 'latency is noisy on a shared machine: compare p50 side by side; bytes are exact',
      },
      history_s: round(historyS, 1),
      machine_load_avg_1m: { before: round(load0, 2), after: round(os.loadavg()[0] ?? 0, 2) },
    };
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
