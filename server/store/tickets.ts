// Golden tickets and permanent cards for the ticket modal and the redemption picker. Redemption itself is an engine
// step (ticket.redeem) committed through GameRepo; these are the reads around it.
import {
  PermanentCharacter, PermanentCharacterItem, PermanentCharacterMedia, TicketWithStory,
} from '../../engine/schema/player.js';
import type { Queryable } from '../db/db.js';
import { parseRows, plain } from './rows.js';

export type PermanentCard = PermanentCharacter & { items: PermanentCharacterItem[]; media: PermanentCharacterMedia[] };

export class TicketRepo {
  readonly #db: Queryable;

  constructor(db: Queryable) {
    this.#db = db;
  }

  /** The user's tickets, newest first, each with its story's id, name and logo. */
  async ticketsWithStory(userId: string): Promise<TicketWithStory[]> {
    const r = await this.#db.query(
      `SELECT t.*, s.id::text AS story_id, s.name AS story_name, s.story_logo_image AS story_logo
         FROM player_permanent_character_tickets t JOIN blueprint_stories s ON s.id = t.blueprint_story_id
        WHERE t.user_id = $1 ORDER BY t.created_at DESC, t.id`,
      [userId],
    );
    const rows = r.rows.map((row) => {
      const { story_id, story_name, story_logo, ...ticket } = plain(row);
      return { ...ticket, story: { id: story_id, name: story_name, story_logo_image: story_logo } };
    });
    return parseRows(TicketWithStory, rows, 'ticket');
  }

  /** The user's permanent characters (from every story), oldest first, with their items and media. */
  async permanentCharacters(userId: string): Promise<PermanentCard[]> {
    const [chars, items, media] = await Promise.all([
      this.#db.query('SELECT * FROM player_permanent_characters WHERE user_id = $1 ORDER BY created_at, id', [userId]),
      this.#db.query(
        'SELECT * FROM player_permanent_character_items WHERE user_id = $1 AND player_permanent_character_id IS NOT NULL ORDER BY created_at, id',
        [userId],
      ),
      this.#db.query(
        `SELECT m.* FROM player_permanent_character_medias m
           JOIN player_permanent_characters c ON c.id = m.player_permanent_character_id
          WHERE c.user_id = $1 ORDER BY m.created_at DESC, m.id`,
        [userId],
      ),
    ]);
    const allItems = parseRows(PermanentCharacterItem, items.rows, 'permanent item');
    const allMedia = parseRows(PermanentCharacterMedia, media.rows, 'permanent media');
    return parseRows(PermanentCharacter, chars.rows, 'permanent character').map((c) => ({
      ...c,
      items: allItems.filter((i) => i.player_permanent_character_id === c.id),
      media: allMedia.filter((m) => m.player_permanent_character_id === c.id),
    }));
  }

  /** Permanent items of their own (tickets redeemed for an item), oldest first. */
  async permanentItems(userId: string): Promise<PermanentCharacterItem[]> {
    const r = await this.#db.query(
      'SELECT * FROM player_permanent_character_items WHERE user_id = $1 AND player_permanent_character_id IS NULL ORDER BY created_at, id',
      [userId],
    );
    return parseRows(PermanentCharacterItem, r.rows, 'permanent item');
  }
}
