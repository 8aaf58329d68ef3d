// Who may change a story: its authors (story_authors) and admins (user_roles, role 'admin'); and each user's role
// across the product (user_roles: player when no row, author, admin). Looked up on every write (no cache), so a
// removed author or a revoked admin is refused at once, on every server process. See
// supabase/migrations/0005_authors_and_uploads.sql and 0012_user_roles.sql for the model.
import type { Queryable } from '../db/db.js';
import { isUuid } from './rows.js';

export type StoryRole = 'admin' | 'author';

/** A user's role across the product: player (the default), author (makes stories), admin (every story). */
export const USER_ROLES = ['player', 'author', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export class AuthorsRepo {
  readonly #db: Queryable;

  constructor(db: Queryable) {
    this.#db = db;
  }

  /** 'admin', 'author' (of this story), or null: what lets this user change the story. */
  async roleFor(userId: string, storyId: string): Promise<StoryRole | null> {
    if (!isUuid(userId) || !isUuid(storyId)) return null;
    const r = await this.#db.query<{ admin: boolean; author: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM looptale_private.user_roles WHERE user_id = $1 AND role = 'admin') AS admin,
              EXISTS (SELECT 1 FROM looptale_private.story_authors WHERE user_id = $1 AND blueprint_story_id = $2) AS author`,
      [userId, storyId],
    );
    const row = r.rows[0];
    return row?.admin ? 'admin' : row?.author ? 'author' : null;
  }

  async isAdmin(userId: string): Promise<boolean> {
    if (!isUuid(userId)) return false;
    const r = await this.#db.query("SELECT 1 FROM looptale_private.user_roles WHERE user_id = $1 AND role = 'admin'", [userId]);
    return r.rows.length > 0;
  }

  /** Adds an author; true when they were not one already. */
  async addAuthor(storyId: string, userId: string): Promise<boolean> {
    const r = await this.#db.query('INSERT INTO looptale_private.story_authors (blueprint_story_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [storyId, userId]);
    return r.rowCount > 0;
  }

  async removeAuthor(storyId: string, userId: string): Promise<boolean> {
    const r = await this.#db.query('DELETE FROM looptale_private.story_authors WHERE blueprint_story_id = $1 AND user_id = $2', [storyId, userId]);
    return r.rowCount > 0;
  }

  async authors(storyId: string): Promise<{ user_id: string; added_at: Date }[]> {
    if (!isUuid(storyId)) return [];
    return (await this.#db.query<{ user_id: string; added_at: Date }>('SELECT user_id::text, added_at FROM looptale_private.story_authors WHERE blueprint_story_id = $1 ORDER BY added_at, user_id', [storyId])).rows;
  }

  /** The user's role: 'player' unless one was granted. */
  async userRole(userId: string): Promise<UserRole> {
    if (!isUuid(userId)) return 'player';
    const r = await this.#db.query<{ role: UserRole }>('SELECT role FROM looptale_private.user_roles WHERE user_id = $1', [userId]);
    return r.rows[0]?.role ?? 'player';
  }

  /** Sets the user's role (player removes any granted one); returns the role they had. One statement each, so a
   *  concurrent change never leaves two roles (the table holds one row per user). */
  async setRole(userId: string, role: UserRole): Promise<UserRole> {
    const before = await this.userRole(userId);
    if (role === 'player') await this.#db.query('DELETE FROM looptale_private.user_roles WHERE user_id = $1', [userId]);
    else {
      await this.#db.query(
        'INSERT INTO looptale_private.user_roles (user_id, role) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET role = EXCLUDED.role, granted_at = CASE WHEN user_roles.role = EXCLUDED.role THEN user_roles.granted_at ELSE now() END',
        [userId, role],
      );
    }
    return before;
  }

  async grantAdmin(userId: string): Promise<boolean> {
    if ((await this.userRole(userId)) === 'admin') return false;
    await this.setRole(userId, 'admin');
    return true;
  }

  async revokeAdmin(userId: string): Promise<boolean> {
    const r = await this.#db.query("DELETE FROM looptale_private.user_roles WHERE user_id = $1 AND role = 'admin'", [userId]);
    return r.rowCount > 0;
  }

  async admins(): Promise<{ user_id: string; granted_at: Date }[]> {
    return (await this.#db.query<{ user_id: string; granted_at: Date }>("SELECT user_id::text, granted_at FROM looptale_private.user_roles WHERE role = 'admin' ORDER BY granted_at, user_id")).rows;
  }
}
