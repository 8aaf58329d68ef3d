// Moving the run to a moment: auto-skip (game spec §4) and the new player moment.
import { MOMENTS } from '../moments/registry.js';
import { isUuidV4 } from '../schema/ids.js';
import type { PlayerMoment, PlayerStory } from '../schema/player.js';
import { AUTO_SKIP_MAX_CHAIN, recentlySkipped, rememberSkip, skipReason, skipTarget } from '../rules/auto-skip.js';
import { indexStory } from '../story/story-index.js';
import type { Draft } from './draft.js';

export type EnterResult =
  | { kind: 'entered'; moment: PlayerMoment; skipped: { blueprint_moment_id: string; reason: string }[] }
  /** The next id is empty, not a v4 UUID, or unknown: the end of the game. */
  | { kind: 'end_of_game'; skipped: { blueprint_moment_id: string; reason: string }[] };

function newPlayerMoment(d: Draft, run: PlayerStory, blueprintMomentId: string): PlayerMoment {
  return {
    id: d.uuid(),
    player_story_id: run.id,
    blueprint_moment_id: blueprintMomentId,
    user_id: d.state.user_id,
    dialogue_history: [],
    battle_action_history: [],
    battle_phase: 'initial',
    pending_strike: null,
    burn_outs: 0,
    player_facts: [],
    upgrade_bet: null,
    is_started: false,
    skipped_reason: null,
    completed_at: null,
    succeeded_at: null,
    created_at: d.iso,
  };
}

/** Ids already checked to be v4 UUIDs (a story names the same next moments again and again). */
const validIds = new Set<string>();

function isMomentId(id: string): boolean {
  if (validIds.has(id)) return true;
  if (!isUuidV4(id)) return false;
  if (validIds.size >= 10_000) validIds.clear();
  validIds.add(id);
  return true;
}

export function enterMoment(d: Draft, runId: string, nextId: string | null | undefined): EnterResult {
  const idx = indexStory(d.story);
  const skipped: { blueprint_moment_id: string; reason: string }[] = [];
  let id = nextId;
  for (;;) {
    const blueprint = id && isMomentId(id) ? idx.moments.get(id) : undefined;
    const run = d.state.run?.id === runId ? d.state.run : undefined;
    if (!run) throw new Error(`enterMoment: no run ${runId}`);
    if (!blueprint) {
      d.edit('player_stories', run).current_player_moment_id = null;
      return { kind: 'end_of_game', skipped };
    }
    let reason: string | null = null;
    if (skipped.length < AUTO_SKIP_MAX_CHAIN && !recentlySkipped(d.state.skip_log, blueprint.id, d.ctx.now)) {
      const draw = blueprint.display_randomly_probability !== undefined ? d.rng.next() * 100 : 0;
      const available = d.state.characters.filter((c) => c.current_health > 0).length;
      reason = skipReason(blueprint, {
        runNumber: run.loop_number,
        completionCount: d.state.completion_counts[blueprint.id] ?? 0,
        draw,
        availableCharacters: available,
      });
    }
    const pm = newPlayerMoment(d, run, blueprint.id);
    if (reason === null) {
      d.put('player_moments', pm);
      d.edit('player_stories', run).current_player_moment_id = pm.id;
      MOMENTS[blueprint.type].play?.enter?.(d, blueprint, pm);
      return { kind: 'entered', moment: pm, skipped };
    }
    // pm is new (not in the state yet): filled in before it is put.
    pm.dialogue_history = [{ role: 'model', text: `[Skipped: ${reason}]`, isPerfectAnswer: false, isCacheHit: false }];
    pm.skipped_reason = reason;
    pm.completed_at = d.iso;
    d.put('player_moments', pm);
    d.state.skip_log = rememberSkip(d.state.skip_log, blueprint.id, d.ctx.now);
    skipped.push({ blueprint_moment_id: blueprint.id, reason });
    id = skipTarget(blueprint);
  }
}
