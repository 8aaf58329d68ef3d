// Starting a story: the run creation plan of accounts spec §4 (7 steps), plus permanent cards.
import { DEFAULT_MAX_INTERACTIONS } from '../catalogue/display.js';
import { LOOP_STATUS } from '../schema/enums.js';
import type { PlayerCharacter, PlayerStory } from '../schema/player.js';
import { indexStory } from '../story/story-index.js';
import type { Draft } from './draft.js';
import { enterMoment, type EnterResult } from './enter-moment.js';
import { ERR, fail, type StepFailure } from './errors.js';
import type { CreateRunEvent } from './events.js';
import { finishRun, isFinished } from './end-run.js';
import { addBlueprintCharacter, addBlueprintItem, addItem, addPermanentCharacter, equip } from './roster.js';


export type CreateRunResult = { ok: true; run: PlayerStory; entered: EnterResult } | StepFailure;

export function createRun(d: Draft, ev: CreateRunEvent): CreateRunResult {
  const story = d.story;
  const idx = indexStory(story);
  // 1. Maximum interactions, 30 when the story gives none.
  const max = ev.max_interactions ?? story.loop_max_number_of_interactions ?? DEFAULT_MAX_INTERACTIONS;
  // 2. Highest loop number (+1, from 1); the best non-null rank is read by the views.
  // Loop numbers only grow, so the latest run holds the highest.
  const loopNumber = (d.state.run?.loop_number ?? 0) + 1;
  const firstId = ev.first_moment_id ?? story.first_moment_id;
  if (!idx.moments.has(firstId)) return fail(ERR.firstMomentMissing);

  const previous = d.state.run;
  // Starting a new run abandons an unfinished one: it ends as lost (rank F), so no run stays ongoing forever.
  if (previous && !isFinished(previous)) finishRun(d, previous.id, false);

  // 3. Reset progress: successful runs and moment completions are forgotten.
  if (ev.reset_progress) {
    // Earlier runs' rows are reset by the store (the reset_progress effect); the latest one is in the state.
    if (d.state.run?.is_successful_run) d.put('player_stories', { ...d.state.run, is_successful_run: false });
    d.state.history = { ...d.state.history, successful: 0 };
    d.state.completion_counts = {};
    d.emit({ type: 'reset_progress', user_id: d.state.user_id, blueprint_story_id: story.id });
  }

  const prev = {
    characters: d.state.characters,
    items: d.state.items,
    links: d.state.character_items,
  };
  // The latest run's rows leave the working set (they stay in the store as history).
  d.state.moments = [];
  d.state.characters = [];
  d.state.items = [];
  d.state.character_items = [];
  d.state.opponents = [];
  d.state.character_media = [];
  d.state.item_media = [];
  d.state.processed_inputs = [];

  // 4. The player story (its first moment is created below, once the cards exist, for the Assemble skip rule).
  const run = d.put<PlayerStory>('player_stories', {
    id: d.uuid(),
    user_id: d.state.user_id,
    blueprint_story_id: story.id,
    language: ev.language,
    loop_number: loopNumber,
    loop_rank: null,
    loop_status: LOOP_STATUS.ongoing,
    loop_current_number_of_interactions: 0,
    loop_max_number_of_interactions: max,
    is_successful_run: false,
    reset_progress: ev.reset_progress,
    is_story_maker: ev.story_maker !== undefined,
    current_player_moment_id: null,
    perfect_answers: 0,
    battles_won: 0,
    clean_battles_won: 0,
    burn_outs: 0,
    created_at: d.iso,
    ended_at: null,
  });

  // 5. Copy characters, items and equipment links from the latest run, unless story-maker mode without
  //    persistence or a progress reset. Health is restored: each loop starts fresh, upgrades and items stay.
  const permanentBlueprints = new Set(d.state.permanent_characters.map((p) => p.blueprint_character_id).filter((x) => x !== null));
  const copyCharacters = !ev.reset_progress && (ev.story_maker ? ev.story_maker.persist_characters : true);
  const copyItems = !ev.reset_progress && (ev.story_maker ? ev.story_maker.persist_items : true);
  const charMap = new Map<string, string>();
  const itemMap = new Map<string, string>();
  if (copyCharacters) {
    for (const c of prev.characters) {
      if (c.permanent_character_id || (c.blueprint_character_id && permanentBlueprints.has(c.blueprint_character_id))) continue;
      const copy = d.put<PlayerCharacter>('player_characters', {
        ...c, id: d.uuid(), player_story_id: run.id, current_health: c.max_health, is_selected_in_assemble: true,
        burned_out_at: null, created_at: d.iso,
      });
      charMap.set(c.id, copy.id);
      const bc = c.blueprint_character_id ? idx.characters.get(c.blueprint_character_id) : undefined;
      for (const m of bc ? [...bc.media, ...bc.team_media] : []) {
        d.put('player_character_medias', {
          id: d.uuid(), media_url: m.url, media_kind: m.kind, blueprint_story_id: story.id, blueprint_character_id: bc?.id ?? null,
          blueprint_item_id: null, blueprint_place_id: null, player_character_id: copy.id, player_item_id: null,
          player_story_id: run.id, created_at: d.iso,
        });
      }
    }
  }
  if (copyItems) {
    for (const it of prev.items) {
      if (it.permanent_item_id) continue;
      const bi = it.blueprint_item_id ? idx.items.get(it.blueprint_item_id) : undefined;
      const copy = addItem(d, run.id, it, it.source, it.blueprint_item_id, it.acquired_in_blueprint_moment_id, bi ? bi.media.map((m) => m.url) : []);
      itemMap.set(it.id, copy.id);
    }
  }
  for (const l of prev.links) {
    const c = charMap.get(l.player_character_id);
    const i = itemMap.get(l.player_item_id);
    if (c && i && l.is_equipped) equip(d, c, i, l.equipped_in_moment_id);
  }

  // 6. Default enrolments, with their media; new characters start selected.
  for (const bc of story.characters) {
    if (!bc.is_enrolled_by_default || permanentBlueprints.has(bc.id)) continue;
    if (d.state.characters.some((c) => c.blueprint_character_id === bc.id)) continue;
    addBlueprintCharacter(d, run.id, bc, null);
  }
  for (const bi of story.items) {
    if (!bi.is_acquired_by_default || d.state.items.some((i) => i.blueprint_item_id === bi.id)) continue;
    addBlueprintItem(d, run.id, bi, 'free', null);
  }
  // Permanent cards are usable in any story: each joins every new run with its items.
  for (const pc of d.state.permanent_characters) {
    const items = d.state.permanent_items.filter((i) => i.player_permanent_character_id === pc.id);
    const media = d.state.permanent_media.filter((m) => m.player_permanent_character_id === pc.id).map((m) => m.media_url);
    addPermanentCharacter(d, run.id, pc, items, media);
  }
  for (const pi of d.state.permanent_items) {
    if (pi.player_permanent_character_id !== null) continue;
    addItem(d, run.id, pi, 'rank_achieved', pi.source_blueprint_item_id, null, [], pi.id);
  }

  // 4 (cont.) and 7: the first moment, through auto-skip; the run is now the latest.
  const entered = enterMoment(d, run.id, firstId);
  const latest = d.state.run ?? run;
  return { ok: true, run: latest, entered };
}
