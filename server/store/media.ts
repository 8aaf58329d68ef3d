// Media rows (URLs and the ids they link), newest first as the spec's clients read them; among rows imported
// together, in the story file's order. Storing the files themselves is the media part's job.
import { MediaRow } from '../../engine/schema/player.js';
import type { Queryable } from '../db/db.js';
import { isUuid, parseRows } from './rows.js';

export type StoryMedia = { characters: MediaRow[]; team: MediaRow[]; items: MediaRow[]; places: MediaRow[] };

const NEWEST = 'ORDER BY created_at DESC, position, id';

export class MediaRepo {
  readonly #db: Queryable;

  constructor(db: Queryable) {
    this.#db = db;
  }

  async #rows(sql: string, id: string, what: string, extra: readonly unknown[] = []): Promise<MediaRow[]> {
    if (!isUuid(id)) return [];
    const r = await this.#db.query(sql, [id, ...extra]);
    return parseRows(MediaRow, r.rows, what);
  }

  /** Every blueprint media row of a story, by kind. */
  async byStory(storyId: string): Promise<StoryMedia> {
    const [characters, team, items, places] = await Promise.all([
      this.#rows(`SELECT * FROM blueprint_character_medias WHERE blueprint_story_id = $1 ${NEWEST}`, storyId, 'blueprint_character_medias'),
      this.#rows(`SELECT * FROM blueprint_character_team_medias WHERE blueprint_story_id = $1 ${NEWEST}`, storyId, 'blueprint_character_team_medias'),
      this.#rows(`SELECT * FROM blueprint_item_medias WHERE blueprint_story_id = $1 ${NEWEST}`, storyId, 'blueprint_item_medias'),
      this.#rows(`SELECT * FROM blueprint_place_medias WHERE blueprint_story_id = $1 ${NEWEST}`, storyId, 'blueprint_place_medias'),
    ]);
    return { characters, team, items, places };
  }

  /** A character's images (blueprint_character_medias), or its team images when `team` is set. */
  character(blueprintCharacterId: string, opts: { team?: boolean; storyId?: string } = {}): Promise<MediaRow[]> {
    const table = opts.team ? 'blueprint_character_team_medias' : 'blueprint_character_medias';
    if (opts.storyId !== undefined) {
      if (!isUuid(opts.storyId)) return Promise.resolve([]);
      return this.#rows(`SELECT * FROM ${table} WHERE blueprint_character_id = $1 AND blueprint_story_id = $2 ${NEWEST}`, blueprintCharacterId, table, [opts.storyId]);
    }
    return this.#rows(`SELECT * FROM ${table} WHERE blueprint_character_id = $1 ${NEWEST}`, blueprintCharacterId, table);
  }

  item(blueprintItemId: string): Promise<MediaRow[]> {
    return this.#rows(`SELECT * FROM blueprint_item_medias WHERE blueprint_item_id = $1 ${NEWEST}`, blueprintItemId, 'blueprint_item_medias');
  }

  place(blueprintPlaceId: string): Promise<MediaRow[]> {
    return this.#rows(`SELECT * FROM blueprint_place_medias WHERE blueprint_place_id = $1 ${NEWEST}`, blueprintPlaceId, 'blueprint_place_medias');
  }

  /** A player character's images (player_character_medias), newest first. */
  playerCharacter(playerCharacterId: string): Promise<MediaRow[]> {
    return this.#rows('SELECT * FROM player_character_medias WHERE player_character_id = $1 ORDER BY created_at DESC, id', playerCharacterId, 'player_character_medias');
  }

  /** A player item's images (player_item_medias), newest first. */
  playerItem(playerItemId: string): Promise<MediaRow[]> {
    return this.#rows('SELECT * FROM player_item_medias WHERE player_item_id = $1 ORDER BY created_at DESC, id', playerItemId, 'player_item_medias');
  }
}
