// A game state at each moment of a story where the player speaks, found by playing runs with the bots: what tools
// that check a moment's speech (lint-speech) evaluate the brain against. Pure and deterministic for a seed.
import type { PlayLanguage } from '../schema/enums.js';
import { currentMoment, type GameState } from '../run/state.js';
import type { Story } from '../story/format.js';
import { BOT_NAMES } from './bots.js';
import { Simulation } from './simulate.js';

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
