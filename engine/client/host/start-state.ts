// The state a checked start (local-start.ts) opens on. The run itself is made by the engine's own run creation
// (step `run.create`, story-maker mode), so a start that sets nothing is exactly a player's first run, draw for draw:
// - the run number comes from a finished run numbered N-1 standing in for the earlier runs (it ranks nothing);
// - the author's cards are that earlier run's cards, persisted into the new run by the persist flags, then given their
//   health and team place; default enrolments the author left out are taken out again.
// The first moment is entered by run creation, auto-skip rules included; they see the cards at full health.
import { DEFAULT_MAX_INTERACTIONS } from '../../catalogue/display.js';
import { LOOP_STATUS } from '../../schema/enums.js';
import type { PlayerStory } from '../../schema/player.js';
import type { Story } from '../../story/format.js';
import { indexStory } from '../../story/story-index.js';
import { Draft, isoTime } from '../../run/draft.js';
import { addBlueprintCharacter, addBlueprintItem, equip } from '../../run/roster.js';
import { initialState, type GameState } from '../../run/state.js';
import { step, type StepSuccess } from '../../run/step.js';
import type { LocalStart } from './local-start.js';

export type Started = { state: GameState; run: PlayerStory; created: StepSuccess };

/** The state before the run: earlier runs summed up, completion counts, and the author's cards on the earlier run. */
function before(story: Story, start: LocalStart, now: number): GameState {
  const s = initialState(start.user_id, story.id, start.seed);
  s.completion_counts = { ...start.completion_counts };
  const cards = start.characters !== undefined || start.items !== undefined;
  if (start.run_number === 1 && !cards) return s;
  const d = new Draft(s, { now, story });
  const idx = indexStory(story);
  const earlier = d.put<PlayerStory>('player_stories', {
    id: d.uuid(), user_id: start.user_id, blueprint_story_id: story.id, language: start.language,
    loop_number: start.run_number - 1, loop_rank: null, loop_status: LOOP_STATUS.lost,
    loop_current_number_of_interactions: 0, loop_max_number_of_interactions: start.max_interactions ?? story.loop_max_number_of_interactions ?? DEFAULT_MAX_INTERACTIONS,
    is_successful_run: false, reset_progress: false, is_story_maker: true, current_player_moment_id: null,
    perfect_answers: 0, battles_won: 0, clean_battles_won: 0, burn_outs: 0, created_at: d.iso, ended_at: d.iso,
  });
  const items = new Map<string, string>();
  for (const id of start.items ?? []) {
    const bi = idx.items.get(id);
    if (bi) items.set(id, addBlueprintItem(d, earlier.id, bi, 'free', null).id);
  }
  for (const c of start.characters ?? []) {
    const bc = idx.characters.get(c.id);
    if (!bc) continue;
    const row = addBlueprintCharacter(d, earlier.id, bc, null);
    if (c.max_health !== undefined) d.update('player_characters', row, { max_health: c.max_health });
    for (const itemId of c.equipment) {
      const item = items.get(itemId);
      if (item) equip(d, row.id, item, null);
    }
  }
  return d.finish().state;
}

/** Health, team places and burn-outs as the author set them; the story's default cards they left out removed. */
function applyCards(state: GameState, start: LocalStart, now: number): GameState {
  const s = { ...state };
  if (start.characters !== undefined) {
    const wanted = new Map(start.characters.map((c) => [c.id, c]));
    const kept = s.characters.filter((c) => c.blueprint_character_id !== null && wanted.has(c.blueprint_character_id));
    const keptIds = new Set(kept.map((c) => c.id));
    s.characters = kept.map((c) => {
      const w = wanted.get(c.blueprint_character_id ?? '');
      if (!w) return c;
      const health = w.health ?? c.max_health;
      return { ...c, current_health: health, is_selected_in_assemble: w.selected, burned_out_at: health === 0 ? isoTime(now) : null };
    });
    s.character_media = s.character_media.filter((m) => m.player_character_id === null || keptIds.has(m.player_character_id));
    s.character_items = s.character_items.filter((l) => keptIds.has(l.player_character_id));
  }
  if (start.items !== undefined) {
    const wanted = new Set(start.items);
    const kept = s.items.filter((i) => i.blueprint_item_id !== null && wanted.has(i.blueprint_item_id));
    const keptIds = new Set(kept.map((i) => i.id));
    s.items = kept;
    s.item_media = s.item_media.filter((m) => m.player_item_id === null || keptIds.has(m.player_item_id));
    s.character_items = s.character_items.filter((l) => keptIds.has(l.player_item_id));
  }
  return s;
}

/** Opens the run a checked start describes; a refusal of run creation is a bug of the check, so it throws. */
export function startState(story: Story, start: LocalStart, now: number): Started {
  const pre = before(story, start, now);
  const cards = start.characters !== undefined || start.items !== undefined;
  const created = step(pre, {
    type: 'run.create', language: start.language, reset_progress: false,
    ...(start.moment_id !== undefined ? { first_moment_id: start.moment_id } : {}),
    story_maker: { persist_items: cards || start.persist.items, persist_characters: cards || start.persist.characters },
    ...(start.max_interactions !== undefined ? { max_interactions: start.max_interactions } : {}),
  }, { now, story });
  if (!created.ok) throw new Error(`local host: run creation refused a checked start: ${created.error.message}`);
  const state = applyCards(created.state, start, now);
  // The stand-in run is not one of the player's runs: the earlier ones are the author's N-1, unranked.
  state.history = { runs: start.run_number - 1, best_rank: null, successful: 0 };
  const run = state.run;
  if (!run) throw new Error('local host: run creation made no run');
  return { state, run, created };
}
