// A game state at each moment of a story where the player speaks, found by playing runs with the bots: what tools
// that check a moment's speech (lint-speech) evaluate the brain against. Pure and deterministic for a seed.
import { momentStage } from '../moments/stage.js';
import type { PlayLanguage } from '../schema/enums.js';
import { currentMoment, type GameState } from '../run/state.js';
import type { BlueprintMoment, Story } from '../story/format.js';
import { decideScripted } from '../brain/scripted.js';
import { step } from '../run/step.js';
import { BOT_NAMES } from './bots.js';
import { Simulation } from './simulate.js';
import { upgradeOf } from '../moments/fields.js';

/**
 * blueprint moment id -> states met just before a player line there, in the order met: the first line of the moment,
 * then later lines (a moment with stages, such as an upgrade's bet then its riddle), at most `perMoment` (default 6),
 * one per number of lines already said. Moments no bot reached are absent.
 */
export function statesByMoment(story: Story, opts: { language?: PlayLanguage; runs?: number; seed?: number; perMoment?: number } = {}): Map<string, GameState[]> {
  const found = new Map<string, GameState[]>();
  const seen = new Set<string>();
  const runs = opts.runs ?? 20;
  for (const bot of BOT_NAMES) {
    const sim = new Simulation(story, {
      runs, seed: opts.seed ?? 1, bot, language: opts.language ?? 'english', maxTurnsPerRun: 200,
      onTurn: (state) => {
        const pm = currentMoment(state);
        if (!pm) return;
        const list = found.get(pm.blueprint_moment_id) ?? [];
        const key = `${pm.blueprint_moment_id}:${pm.dialogue_history.length}`;
        if (seen.has(key) || list.length >= (opts.perMoment ?? 6)) return;
        seen.add(key);
        list.push(state);
        found.set(pm.blueprint_moment_id, list);
      },
    });
    for (let i = 0; i < runs; i++) sim.playRun();
  }
  return found;
}

export type StageState = { moment: BlueprintMoment; stage: string; state: GameState };

const stageKey = (story: Story, s: GameState): string => momentStage(story, s).key;

const STAGE_INPUT_ID = '00000000-0000-4000-8000-00000000000b';

/**
 * One state per stage of every moment where the player speaks, in story order: every stage the bots met, plus a
 * defence for every fighter of the team (the struck character swapped), and for every other living fighter (in the
 * last one's place), and a riddle for every level (a bet typed at
 * the bet stage), which runs meet only by chance.
 */
export function statesByStage(story: Story, opts: { language?: PlayLanguage; runs?: number; seed?: number } = {}): StageState[] {
  const byMoment = statesByMoment(story, { ...opts, perMoment: 12 });
  const out: StageState[] = [];
  for (const m of story.moments) {
    const states = byMoment.get(m.id) ?? [];
    const stages = new Map<string, GameState>();
    for (const s of states) {
      const k = stageKey(story, s);
      if (!stages.has(k)) stages.set(k, s);
    }
    for (const defence of states.filter((s) => stageKey(story, s).startsWith('defend:'))) {
      const pmD = currentMoment(defence);
      if (!pmD?.pending_strike) continue;
      for (const c of defence.characters.filter((x) => x.is_selected_in_assemble && x.current_health > 0)) {
        const k = `defend:${c.name}`;
        if (stages.has(k)) continue;
        const strike = { opponent_id: pmD.pending_strike.opponent_id, target_id: c.id };
        stages.set(k, { ...defence, moments: defence.moments.map((x) => (x.id === pmD.id ? { ...x, pending_strike: strike } : x)) });
      }
      // A fighter the bots never took into the team (they pick the first ones) is struck in a team where it takes the
      // last one's place: a team the player could have assembled.
      const team = defence.characters.filter((x) => x.is_selected_in_assemble && x.current_health > 0);
      const last = team[team.length - 1];
      for (const c of defence.characters.filter((x) => !x.is_selected_in_assemble && x.current_health > 0)) {
        const k = `defend:${c.name}`;
        if (stages.has(k) || !last) continue;
        const strike = { opponent_id: pmD.pending_strike.opponent_id, target_id: c.id };
        const characters = defence.characters.map((x) => (x.id === c.id ? { ...x, is_selected_in_assemble: true } : x.id === last.id ? { ...x, is_selected_in_assemble: false } : x));
        stages.set(k, { ...defence, characters, moments: defence.moments.map((x) => (x.id === pmD.id ? { ...x, pending_strike: strike } : x)) });
      }
    }
    const bet = stages.get('bet');
    for (const d of upgradeOf(m)?.difficulties ?? []) {
      const k = `riddle:${d.level}`;
      if (stages.has(k) || !bet) continue;
      for (const c of bet.characters.filter((x) => x.is_selected_in_assemble && x.current_health > 0)) {
        const text = `${c.name}, ${d.match.en[0] ?? d.level}, ${upgradeOf(m)?.min_bet ?? 1}`;
        const decision = decideScripted({ story, state: bet, transcription: text, is_starting_dialogue: false, input_id: STAGE_INPUT_ID });
        const r = step(bet, { type: 'turn', input_id: STAGE_INPUT_ID, is_starting_dialogue: false, transcription: text, decision }, { now: Date.UTC(2026, 0, 2), story });
        if (r.ok && stageKey(story, r.state) === k) {
          stages.set(k, r.state);
          break;
        }
      }
    }
    for (const [stage, state] of [...stages.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out.push({ moment: m, stage, state });
  }
  return out;
}
