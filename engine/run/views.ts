// Read models computed from the state: the game engine view and the moment view (game spec §3). The server's SQL
// views return the same shapes; these are what the CLI, the simulator and tests read.
import type { EnrolledCharacter, GameView, ImageDetails, MomentView, StoryGraph, StoryGraphNode, TicketCards } from '../schema/views.js';
import type { PlayLanguage } from '../schema/enums.js';
import type { BlueprintMoment, Story } from '../story/format.js';
import { indexStory } from '../story/story-index.js';
import { traitsOf } from '../moments/registry.js';
import { localize } from '../story/text.js';
import { outputCharacters } from './output.js';
import { availableItems, bestRankOf, currentMoment, currentRun, type GameState } from './state.js';
import { teamSizeOf } from '../moments/fields.js';

const image = (url: string, kind: 'image' | 'video' = 'image'): ImageDetails => ({ media_url: url, media_kind: kind });

function enrolled(s: GameState): EnrolledCharacter[] {
  return outputCharacters(s).map(({ is_burned_out: _b, ...c }) => c);
}

export function bestRank(s: GameState): number | null {
  return bestRankOf(s);
}

function currentBlueprint(s: GameState, story: Story): BlueprintMoment | undefined {
  const pm = currentMoment(s);
  return pm ? indexStory(story).moments.get(pm.blueprint_moment_id) : undefined;
}

export function gameView(s: GameState, story: Story): GameView | null {
  const run = currentRun(s);
  const pm = currentMoment(s);
  const m = currentBlueprint(s, story);
  if (!run || !pm || !m) return null;
  const lang: PlayLanguage = run.language === 'french' ? 'french' : 'english';
  const idx = indexStory(story);
  const place = m.place_id ? idx.places.get(m.place_id) : undefined;
  const speaker = m.character_id ? idx.characters.get(m.character_id) : undefined;
  return {
    player_story_id: run.id,
    blueprint_story_id: story.id,
    blueprint_moment_id: m.id,
    blueprint_place_id: m.place_id ?? null,
    moment_type: m.type,
    moment_name: localize(m.name, lang),
    moment_date: m.date,
    language: run.language,
    loop_rank: run.loop_rank,
    loop_number: run.loop_number,
    loop_current_number_of_interactions: run.loop_current_number_of_interactions,
    loop_max_number_of_interactions: run.loop_max_number_of_interactions,
    loop_status: run.loop_status,
    best_rank: bestRank(s),
    background_rgba_color: story.catalogue.background_rgba_color,
    text_rgba_color: story.catalogue.text_rgba_color,
    control_rgba_color: story.catalogue.control_rgba_color,
    place_image_details: (place?.media ?? []).map((x) => image(x.url, x.kind)),
    moment_image_details: m.media.map((x) => image(x.url, x.kind)),
    character_image_details: (speaker?.media ?? []).map((x) => image(x.url, x.kind)),
    do_not_display_character: m.do_not_display_character,
    battle_opponent_characters: s.opponents.filter((o) => o.player_moment_id === pm.id).map((o) => ({
      opponent_id: o.id, opponent_name: o.name, opponent_current_health: o.current_health, opponent_base_health: o.base_health,
    })),
    enrolled_characters: enrolled(s),
    player_items: availableItems(s).map((i) => ({
      available_item_id: i.id, available_item_name: i.name, available_item_properties: i.properties,
      available_item_attack_bonus: i.attack_bonus, available_item_defense_bonus: i.defense_bonus,
    })),
    is_moment_complete: pm.completed_at !== null,
    battle_phase: pm.battle_phase,
    max_number_of_characters: traitsOf(m.type).picksTeam ? (teamSizeOf(m) ?? null) : null,
    card_images: cardImages(s, story, pm.id),
  };
}

/**
 * The first picture of each card on the game screen, by card id: the run's character and item media rows, and for
 * opponents their blueprint character's media. Paths stay as the story names them (the server resolves them to URLs).
 */
function cardImages(s: GameState, story: Story, playerMomentId: string): Record<string, string> {
  const out: Record<string, string> = {};
  const first = (id: string, url: string | undefined) => {
    if (url && !(id in out)) out[id] = url;
  };
  for (const r of s.character_media) if (r.player_character_id && r.media_kind === 'image') first(r.player_character_id, r.media_url);
  for (const r of s.item_media) if (r.player_item_id && r.media_kind === 'image') first(r.player_item_id, r.media_url);
  const idx = indexStory(story);
  for (const o of s.opponents) {
    if (o.player_moment_id !== playerMomentId) continue;
    const c = idx.characters.get(o.blueprint_character_id);
    first(o.id, [...(c?.media ?? []), ...(c?.team_media ?? [])].find((x) => x.kind === 'image')?.url);
  }
  return out;
}

/**
 * The run so far as moment nodes (the game screen's story graph): every moment of the current run in the order it was
 * played, skipped ones marked, the current one last; a Battle node lists its opponents, any other node the characters
 * and items the player gained there.
 */
export function storyGraph(s: GameState, story: Story): StoryGraph | null {
  const run = currentRun(s);
  if (!run) return null;
  const lang: PlayLanguage = run.language === 'french' ? 'french' : 'english';
  const idx = indexStory(story);
  const nodes: StoryGraphNode[] = [];
  for (const pm of s.moments) {
    if (pm.player_story_id !== run.id) continue;
    const m = idx.moments.get(pm.blueprint_moment_id);
    if (!m) continue;
    const cards: StoryGraphNode['cards'] = traitsOf(m.type).fights
      ? s.opponents.filter((o) => o.player_moment_id === pm.id).map((o) => ({ id: o.id, name: o.name, kind: 'opponent' as const }))
      : [
          ...s.characters.filter((c) => c.player_story_id === run.id && c.enrolled_in_blueprint_moment_id === m.id).map((c) => ({ id: c.id, name: c.name, kind: 'character' as const })),
          ...s.items.filter((i) => i.player_story_id === run.id && i.acquired_in_blueprint_moment_id === m.id).map((i) => ({ id: i.id, name: i.name, kind: 'item' as const })),
        ];
    nodes.push({
      player_moment_id: pm.id, blueprint_moment_id: m.id, moment_type: m.type, moment_name: localize(m.name, lang),
      status: pm.id === run.current_player_moment_id ? 'current' : pm.skipped_reason !== null ? 'skipped' : 'complete', cards,
    });
  }
  return { player_story_id: run.id, nodes };
}

export function momentView(s: GameState, story: Story): MomentView | null {
  const run = currentRun(s);
  const pm = currentMoment(s);
  const m = currentBlueprint(s, story);
  const g = gameView(s, story);
  if (!run || !pm || !m || !g) return null;
  const lang: PlayLanguage = run.language === 'french' ? 'french' : 'english';
  return {
    player_moment_id: pm.id,
    player_story_id: run.id,
    user_id: s.user_id,
    blueprint_moment_id: m.id,
    blueprint_story_id: story.id,
    moment_type: m.type,
    moment_name: localize(m.name, lang),
    sound: m.sound?.url ?? null,
    sound_volume: m.sound?.volume ?? null,
    transitions: m.transitions.map((t) => ({ next_moment_id: t.next_moment_id, label: t.label ? localize(t.label, lang) : null })),
    skip_to_moment_id: m.skip_to_moment_id ?? null,
    skip_after_run_number: m.skip_after_run_number ?? null,
    show_after_run_number: m.show_after_run_number ?? null,
    skip_after_completion_count: m.skip_after_completion_count ?? null,
    user_moment_completion_count: s.completion_counts[m.id] ?? 0,
    display_randomly_probability: m.display_randomly_probability ?? null,
    max_number_of_characters: teamSizeOf(m) ?? null,
    enrolled_characters: g.enrolled_characters,
    player_items: g.player_items,
    battle_opponent_characters: g.battle_opponent_characters,
    score_threshold_for_award: m.score_threshold_for_award ?? null,
    speech_patterns: m.speech_patterns,
    default_emotion: m.default_emotion,
    default_emotion_intensity: m.default_emotion_intensity,
    hint_translation: m.hint ? localize(m.hint, lang) : null,
    hint_tts: m.hint ? m.hint.en : null,
    do_not_display_character: m.do_not_display_character,
  };
}

/**
 * The cards a golden ticket can make permanent (accounts spec §2 "Golden Ticket modal", the redeem card picker): the
 * characters and items of the latest run of the ticket's story, those already permanent left out. No run: no cards
 * ('No game data found').
 */
export function ticketCards(s: GameState): TicketCards {
  const run = currentRun(s);
  if (!run) return { player_story_id: null, characters: [], items: [] };
  const permanentChars = new Set(s.characters.filter((c) => c.card_type === 'permanent' || c.permanent_character_id).map((c) => c.id));
  return {
    player_story_id: run.id,
    characters: enrolled(s).filter((c) => !permanentChars.has(c.character_id)),
    items: s.items.filter((i) => !i.permanent_item_id).map((i) => ({
      available_item_id: i.id, available_item_name: i.name, available_item_properties: i.properties,
      available_item_attack_bonus: i.attack_bonus, available_item_defense_bonus: i.defense_bonus,
    })),
  };
}
