// Game states at each stage of each moment where the player speaks, for the voice-understanding bench: a talk moment
// has one stage (''), a battle 'attack' and 'defend:<struck character>', an upgrade 'bet' and 'riddle:<level>'.
// States come from the story's English test plans and from the simulation bots (the code under test plays them);
// stages no run met are made from a neighbour (the struck character swapped, a bet placed by a typed turn).
import type { GameState } from '../../../engine/run/state.js';
import type { BlueprintMoment, Story } from '../../../engine/story/format.js';
import { momentStage } from '../../../engine/moments/stage.js';
import type { Code } from './speech-code.js';
import { upgradeOf } from '../../../engine/moments/fields.js';

export type Stage = { key: string; moment: BlueprintMoment; stage: string; state: GameState };

const current = (s: GameState): GameState['moments'][number] | undefined => s.moments.find((m) => m.id === s.run?.current_player_moment_id);

/** Whether a decision does something (an answer, branch, move...), as lint-speech judges it. */
export { decides } from '../../../engine/brain/speakable.js';

export class StageStates {
  readonly #byMoment = new Map<string, GameState[]>();
  readonly #made = new Map<string, Stage | null>();

  constructor(readonly code: Code, readonly story: Story, plans: string[]) {
    const add = (s: GameState): void => {
      const pm = current(s);
      if (!pm) return;
      const list = this.#byMoment.get(pm.blueprint_moment_id) ?? [];
      list.push(s);
      this.#byMoment.set(pm.blueprint_moment_id, list);
    };
    for (const text of plans) {
      const parsed = code.parsePlan(text);
      if (!parsed.ok) throw new Error(parsed.error);
      if (parsed.steps.some((s) => s.verb === 'seed')) continue;
      const result = code.runPlan(story, parsed.steps);
      let state = code.initialState('story-tester', story.id, 1);
      for (const e of result.events) {
        if (e.event.type === 'turn' && !e.event.is_starting_dialogue) add(state);
        const r = code.step(state, e.event, { now: e.now, story });
        if (!r.ok) break;
        state = r.state;
      }
    }
    for (const list of code.statesByMoment(story, { language: 'english', runs: 20, perMoment: 12 }).values()) for (const s of list) add(s);
  }

  momentByName(name: string): BlueprintMoment {
    const m = this.story.moments.find((x) => x.name.en === name);
    if (!m) throw new Error(`${this.story.name}: no moment named '${name}'`);
    return m;
  }

  /** The stages where the player speaks, in story order: every state met, one per stage. */
  all(): Stage[] {
    const out: Stage[] = [];
    for (const m of this.story.moments) {
      const seen = new Set<string>();
      for (const s of this.#byMoment.get(m.id) ?? []) {
        const st = momentStage(this.story, s).key;
        if (seen.has(st)) continue;
        seen.add(st);
        const got = this.get(m.name.en, st);
        if (got) out.push(got);
      }
    }
    return out;
  }

  /** The first state of a moment at a stage, made from a neighbour when no run met it; null when impossible. */
  get(momentName: string, stage: string): Stage | null {
    const m = this.momentByName(momentName);
    const key = `${m.name.en}|${stage}`;
    if (this.#made.has(key)) return this.#made.get(key) ?? null;
    const states = this.#byMoment.get(m.id) ?? [];
    let state = states.find((s) => momentStage(this.story, s).key === stage) ?? null;
    if (!state && stage.startsWith('defend:')) {
      const name = stage.slice(7);
      const base = states.find((s) => momentStage(this.story, s).key.startsWith('defend:'));
      const pm = base && current(base);
      const who = base?.characters.find((c) => c.name === name && c.is_selected_in_assemble && c.current_health > 0);
      if (base && pm?.pending_strike && who) {
        state = { ...base, moments: base.moments.map((x) => (x.id === pm.id ? { ...x, pending_strike: { opponent_id: pm.pending_strike?.opponent_id ?? '', target_id: who.id } } : x)) };
      }
    }
    if (!state && stage.startsWith('riddle:')) {
      const level = stage.slice(7);
      const base = states.find((s) => momentStage(this.story, s).key === 'bet');
      const diff = upgradeOf(m)?.difficulties.find((d) => d.level === level);
      const team = base?.characters.filter((c) => c.is_selected_in_assemble && c.current_health > 0) ?? [];
      for (const who of team) {
        if (!base || !diff) break;
        const text = `${who.name}, ${diff.match.en[0] ?? level}, I bet ${upgradeOf(m)?.min_bet ?? 1}`;
        const decision = this.code.decide(this.story, base, text);
        const r = this.code.step(base, { type: 'turn', input_id: '00000000-0000-4000-8000-00000000000b', is_starting_dialogue: false, transcription: text, decision }, { now: Date.UTC(2026, 0, 2), story: this.story });
        if (r.ok && momentStage(this.story, r.state).key === stage) {
          state = r.state;
          break;
        }
      }
    }
    const made = state ? { key, moment: m, stage, state } : null;
    this.#made.set(key, made);
    return made;
  }
}
