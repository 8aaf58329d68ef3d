// The engine's state for one user and one story: every row the rules read or write, the seeded random source,
// and the small memories the rules need (earlier runs summed up, auto-skip log, line variety, processed inputs). It saves to JSON and
// loads back (GameState.parse) to play on identically.
import { z } from 'zod';
import {
  MediaRow, PermanentCharacter, PermanentCharacterItem, PermanentCharacterMedia, PlayerCharacter, PlayerCharacterItem,
  PlayerItem, PlayerMoment, PlayerOpponent, PlayerStory, Ticket,
} from '../schema/player.js';

/** What the rules need of the runs before the latest one (their rows stay in the store, never in the state). */
export const RunHistory = z.object({
  /** Runs before the latest one. */
  runs: z.number().int().min(0),
  /** Their best (lowest) rank, null when none was ranked. */
  best_rank: z.number().int().nullable(),
  /** How many of them were successful (since the last progress reset). */
  successful: z.number().int().min(0),
});
export type RunHistory = z.infer<typeof RunHistory>;

const GameStateV3 = z.object({
  version: z.literal(3),
  user_id: z.string().min(1),
  story_id: z.string().min(1),
  /** State of the seeded random source (engine/random.ts). */
  rng: z.number().int().min(0).max(0xffffffff),
  /** The latest run (the only one play changes), or null before the first. */
  run: PlayerStory.nullable(),
  /** Earlier runs of this user in this story, summed up: the state, so every turn's write, stays the same size. */
  history: RunHistory,
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
  /** Auto-skips of the last 5000 ms (format 3; format 2 kept the last 100, however old). */
  skip_log: z.array(z.object({ blueprint_moment_id: z.string(), at: z.number() })),
  /** Last line variant used per key, so a character never repeats its last line to this player. */
  line_memory: z.record(z.string(), z.number().int().min(0)),
});

/**
 * Version 1 kept every earlier run's row (past_runs), so the state grew with each run; it loads as version 3 with
 * those rows summed up. Version 2 kept the last 100 auto-skips however old (the state grew until it was full); it loads
 * as version 3 as it is (its old entries go at the next skip). A transcript of an older version replays with its
 * outputs compared, not its digests.
 */
function upgrade(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null) return raw;
  const v = (raw as { version?: unknown }).version;
  if (v === 2) return { ...(raw as Record<string, unknown>), version: 3 };
  const v1 = raw as { version?: unknown; past_runs?: unknown };
  if (v1.version !== 1 || !Array.isArray(v1.past_runs)) return raw;
  const { past_runs: past, ...rest } = v1 as { past_runs: { loop_rank?: unknown; is_successful_run?: unknown }[] } & Record<string, unknown>;
  const ranks = past.map((r) => r.loop_rank).filter((r): r is number => typeof r === 'number');
  return {
    ...rest, version: 3,
    history: { runs: past.length, best_rank: ranks.length ? Math.min(...ranks) : null, successful: past.filter((r) => r.is_successful_run === true).length },
  };
}

export const GameState = z.preprocess(upgrade, GameStateV3);
export type GameState = z.infer<typeof GameStateV3>;

export function initialState(userId: string, storyId: string, seed: number): GameState {
  return {
    version: 3,
    user_id: userId,
    story_id: storyId,
    rng: seed >>> 0,
    run: null,
    history: { runs: 0, best_rank: null, successful: 0 },
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

/** Runs played so far, the latest included. */
export function runCount(s: GameState): number {
  return s.history.runs + (s.run ? 1 : 0);
}

/** The best (lowest) rank of every run so far, null when none was ranked. */
export function bestRankOf(s: GameState): number | null {
  const latest = s.run?.loop_rank ?? null;
  const past = s.history.best_rank;
  if (latest === null) return past;
  return past === null ? latest : Math.min(past, latest);
}

export function currentMoment(s: GameState): PlayerMoment | undefined {
  const run = currentRun(s);
  if (!run?.current_player_moment_id) return undefined;
  return momentById(s, run.current_player_moment_id);
}

/** The player moment with this id (ids are unique in a state); the latest one made is tried first, the usual case. */
export function momentById(s: GameState, id: string): PlayerMoment | undefined {
  const ms = s.moments;
  const last = ms[ms.length - 1];
  if (last?.id === id) return last;
  for (const m of ms) if (m.id === id) return m;
  return undefined;
}

/** Characters that act in battle, reward, equip and team moments: selected in assemble. */
export function selectedCharacters(s: GameState): PlayerCharacter[] {
  return s.characters.filter((c) => c.is_selected_in_assemble);
}

export function equippedItemsOf(s: GameState, characterId: string): PlayerItem[] {
  // Plain loops: a character wears a few items, and bots and battles ask this many times per turn.
  const ids: string[] = [];
  for (const l of s.character_items) if (l.player_character_id === characterId && l.is_equipped) ids.push(l.player_item_id);
  if (ids.length === 0) return [];
  return s.items.filter((i) => ids.includes(i.id));
}

/** Items not equipped on any character (available_item_* in the game view). */
export function availableItems(s: GameState): PlayerItem[] {
  const equipped = new Set(s.character_items.filter((l) => l.is_equipped).map((l) => l.player_item_id));
  return s.items.filter((i) => !equipped.has(i.id));
}
