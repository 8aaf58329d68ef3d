// The player_* tables and the engine row schema each one stores: a table's columns are exactly its schema's fields
// (a test compares them with the database), so an engine row is written field for field.
import type { z } from 'zod';
import {
  MediaRow, PermanentCharacter, PermanentCharacterItem, PermanentCharacterMedia, PlayerCharacter, PlayerCharacterItem,
  PlayerItem, PlayerMoment, PlayerOpponent, PlayerStory, Ticket,
} from '../../engine/schema/player.js';
import type { TableName } from '../../engine/run/effects.js';

export const PLAYER_TABLES = {
  player_stories: PlayerStory,
  player_moments: PlayerMoment,
  player_characters: PlayerCharacter,
  player_items: PlayerItem,
  player_character_items: PlayerCharacterItem,
  player_opponents: PlayerOpponent,
  player_character_medias: MediaRow,
  player_item_medias: MediaRow,
  player_permanent_character_tickets: Ticket,
  player_permanent_characters: PermanentCharacter,
  player_permanent_character_items: PermanentCharacterItem,
  player_permanent_character_medias: PermanentCharacterMedia,
} as const satisfies Record<TableName, z.ZodObject>;

const COLUMNS = new Map<string, ReadonlySet<string>>(
  Object.entries(PLAYER_TABLES).map(([table, schema]) => [table, new Set(Object.keys(schema.shape))]),
);

export function isPlayerTable(table: string): table is TableName {
  return COLUMNS.has(table);
}

/** The columns of a player table (the fields of its engine schema). */
export function playerColumns(table: TableName): ReadonlySet<string> {
  const cols = COLUMNS.get(table);
  if (!cols) throw new Error(`store: unknown player table ${table}`);
  return cols;
}

/** Throws when an engine row has a field its table lacks: a bug to fix in the schema, never to drop silently. */
export function checkRowFields(table: string, row: Record<string, unknown>): void {
  if (!isPlayerTable(table)) throw new Error(`store: persist effect for unknown table ${JSON.stringify(table)}`);
  const cols = playerColumns(table);
  for (const key of Object.keys(row)) {
    if (!cols.has(key)) throw new Error(`store: table ${table} has no column ${JSON.stringify(key)} (a field of the engine row)`);
  }
  if (typeof row.id !== 'string') throw new Error(`store: a ${table} row has no id`);
}
