// The LLM response cache (LLM_CACHE=true): identical situations get the decision already made, for free. In memory,
// bounded, least recently used first out. The key holds everything the decision depends on: the prompt (id and
// version) and model, the moment, the language, the player's words (normalised) and a hash of the state the rules
// read at that moment. Moments whose decisions name run-specific ids (battle, equip, team, upgrade) hash those ids
// too, so their hits stay within one run; talk moments hash only the facts known and rewards owned, so they are shared.
import { MOMENTS } from '../../engine/moments/registry.js';
import { createHash } from 'node:crypto';
import type { Decision } from '../../engine/brain/decision.js';
import type { TurnContext } from './context.js';

export class LruCache<V> {
  readonly #map = new Map<string, V>();

  constructor(readonly capacity: number) {}

  get(key: string): V | undefined {
    const v = this.#map.get(key);
    if (v === undefined) return undefined;
    this.#map.delete(key);
    this.#map.set(key, v);
    return v;
  }

  set(key: string, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    while (this.#map.size > this.capacity) {
      const oldest = this.#map.keys().next();
      if (oldest.done) break;
      this.#map.delete(oldest.value);
    }
  }

  delete(key: string): void {
    this.#map.delete(key);
  }

  get size(): number {
    return this.#map.size;
  }
}

/** Lower case, no accents, no punctuation, single spaces. */
export function normaliseLine(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** The state a decision at this moment depends on. */
function relevantState(ctx: TurnContext): unknown {
  const base = {
    facts: [...ctx.pm.player_facts].sort(),
    // The rendered reward list marks what the player already owns.
    rewards: ctx.vars.rewards ?? '',
  };
  if (!MOMENTS[ctx.moment.type].traits.runSpecific) return base;
  return {
    ...base,
    phase: ctx.pm.battle_phase,
    strike: ctx.pm.pending_strike,
    bet: ctx.pm.upgrade_bet,
    team: ctx.characters.map((c) => [c.id, c.current_health, c.is_selected_in_assemble]),
    items: ctx.items.map((i) => i.id),
    opponents: ctx.opponents.map((o) => [o.id, o.current_health]),
  };
}

export function cacheKey(ctx: TurnContext, transcription: string, prompt: { id: string | null; version: number; model: string }): string {
  const state = createHash('sha256').update(JSON.stringify(relevantState(ctx))).digest('base64url');
  return JSON.stringify([prompt.id ?? 'builtin', prompt.version, prompt.model, ctx.moment.id, ctx.language, normaliseLine(transcription), state]);
}

export type DecisionCache = LruCache<Decision>;
