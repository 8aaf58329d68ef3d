// The engine's state for one user and one story: every row the rules read or write, the seeded random source,
// and the small memories the rules need (auto-skip log, line variety, processed inputs). It saves to JSON and
// loads back (GameState.parse) to play on identically.
import { z } from 'zod';
import {
  MediaRow, PermanentCharacter, PermanentCharacterItem, PermanentCharacterMedia, PlayerCharacter, PlayerCharacterItem,
  PlayerItem, PlayerMoment, PlayerOpponent, PlayerStory, Ticket,
} from '../schema/player.js';

export const GameState = z.object({
  version: z.literal(1),
  user_id: z.string().min(1),
  story_id: z.string().min(1),
  /** State of the seeded random source (engine/random.ts). */
  rng: z.number().int().min(0).max(0xffffffff),
  /** The latest run (the only one play changes), or null before the first. */
  run: PlayerStory.nullable(),
  /** Earlier runs of this user in this story, oldest first (kept apart so that a turn never copies the history). */
  past_runs: z.array(PlayerStory),
  /** Rows of the latest run. */
  moments: z.array(PlayerMoment),
  characters: z.array(PlayerCharacter),
  items: z.array(PlayerItem),
  character_items: z.array(PlayerCharacterItem),
  opponents: z.array(PlayerOpponent),
  character_media: z.array(MediaRow),
  item_media: z.array(MediaRow),
  /** Times each blueprint moment was completed (not skipped) in any run since the last progress reset. */
  completion_counts: z.record(z.string(), z.number().int().min(0)),
  /** The user's golden tickets for this story. */
  tickets: z.array(Ticket),
  /** The user's permanent cards, from every story (loaded by the server; usable in any story). */
  permanent_characters: z.array(PermanentCharacter),
  permanent_items: z.array(PermanentCharacterItem),
  permanent_media: z.array(PermanentCharacterMedia),
  /** Input ids already processed in the latest run (a replayed message never counts twice). */
  processed_inputs: z.array(z.string()),
  skip_log: z.array(z.object({ blueprint_moment_id: z.string(), at: z.number() })),
  /** Last line variant used per key, so a character never repeats its last line to this player. */
  line_memory: z.record(z.string(), z.number().int().min(0)),
});
export type GameState = z.infer<typeof GameState>;

export function initialState(userId: string, storyId: string, seed: number): GameState {
  return {
    version: 1,
    user_id: userId,
    story_id: storyId,
    rng: seed >>> 0,
    run: null,
    past_runs: [],
    moments: [],
    characters: [],
    items: [],
    character_items: [],
    opponents: [],
    character_media: [],
    item_media: [],
    completion_counts: {},
    tickets: [],
    permanent_characters: [],
    permanent_items: [],
    permanent_media: [],
    processed_inputs: [],
    skip_log: [],
    line_memory: {},
  };
}

/** The latest run, if any. */
export function currentRun(s: GameState): PlayerStory | undefined {
  return s.run ?? undefined;
}

/** Every run, oldest first. */
export function allRuns(s: GameState): PlayerStory[] {
  return s.run ? [...s.past_runs, s.run] : s.past_runs;
}

export function currentMoment(s: GameState): PlayerMoment | undefined {
  const run = currentRun(s);
  if (!run?.current_player_moment_id) return undefined;
  return s.moments.find((m) => m.id === run.current_player_moment_id);
}

/** Characters that act in battle, reward, equip and team moments: selected in assemble. */
export function selectedCharacters(s: GameState): PlayerCharacter[] {
  return s.characters.filter((c) => c.is_selected_in_assemble);
}

export function equippedItemsOf(s: GameState, characterId: string): PlayerItem[] {
  const ids = new Set(s.character_items.filter((l) => l.player_character_id === characterId && l.is_equipped).map((l) => l.player_item_id));
  return s.items.filter((i) => ids.has(i.id));
}

/** Items not equipped on any character (available_item_* in the game view). */
export function availableItems(s: GameState): PlayerItem[] {
  const equipped = new Set(s.character_items.filter((l) => l.is_equipped).map((l) => l.player_item_id));
  return s.items.filter((i) => !equipped.has(i.id));
}
