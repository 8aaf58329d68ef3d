// Stories: a story file imported into the blueprint tables (replacing the story's rows as a whole) as its newest
// published version, exported back exactly as imported, read as a parsed Story (the newest: cached until the story
// changes; an older version a run still plays: cached for good, a version never changes), and listed as the catalogue.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { Emotion, GoalType, Intensity, MomentType } from '../../engine/schema/enums.js';
import { CatalogueStory, type StaticCatalogue } from '../../engine/schema/views.js';
import { Story, type Media } from '../../engine/story/format.js';
import type { Db, Queryable } from '../db/db.js';
import { byKeySet, writeRecords } from './records.js';
import { isUuid, iso, json, parseRows } from './rows.js';
import { getSetting, setSetting } from './settings.js';
import { Lru } from '../game/lru.js';
import { rewardsOf, teamSizeOf } from '../../engine/moments/fields.js';

/** A blueprint_moments row (the story modal and carousel read these). Names are the English text. */
export const BlueprintMomentRow = z.object({
  id: z.string(),
  blueprint_story_id: z.string(),
  name: z.string(),
  moment_type: MomentType,
  moment_date: z.string(),
  blueprint_place_id: z.string().nullable(),
  blueprint_character_id: z.string().nullable(),
  goal_type: GoalType.nullable(),
  goal: z.string().nullable(),
  transitions: z.array(z.object({ next_moment_id: z.string(), label: z.string().nullable() })),
  skip_to_moment_id: z.string().nullable(),
  skip_after_run_number: z.number().int().nullable(),
  show_after_run_number: z.number().int().nullable(),
  skip_after_completion_count: z.number().int().nullable(),
  display_randomly_probability: z.number().nullable(),
  max_number_of_characters: z.number().int().nullable(),
  score_threshold_for_award: z.number().int().nullable(),
  default_emotion: Emotion,
  default_emotion_intensity: Intensity,
  do_not_display_character: z.boolean(),
  sound: z.string().nullable(),
  sound_volume: z.number().nullable(),
  speech_patterns: z.array(z.string()),
  hint_translation: z.string().nullable(),
  hint_tts: z.string().nullable(),
  media: z.array(z.object({ media_url: z.string(), media_kind: z.enum(['image', 'video']) })),
  position: z.number().int(),
  created_at: z.string(),
});
export type BlueprintMomentRow = z.infer<typeof BlueprintMomentRow>;

export class StoryImportError extends Error {}

/** A story as one of its published versions. */
export type Published = { story: Story; version: number };

/** Versions kept parsed in memory (runs still playing an older version of a story). */
const VERSIONS_KEPT = 64;

type Rec = Record<string, unknown>;
type Blueprint = Record<string, Rec[]>;

/** Child tables in insert order (a moment points at its place and speaker; rewards and media at their owners). */
const CHILD_TABLES = [
  'blueprint_places', 'blueprint_characters', 'blueprint_items', 'blueprint_moments', 'blueprint_rewards',
  'blueprint_place_medias', 'blueprint_character_medias', 'blueprint_character_team_medias', 'blueprint_item_medias',
] as const;

function storyRecord(s: Story, raw: unknown): Rec {
  const c = s.catalogue;
  return {
    id: s.id,
    name: s.name,
    background_image: c.background_image,
    story_logo_image: c.story_logo_image,
    sample_images: c.sample_images,
    text_rgba_color: c.text_rgba_color,
    background_rgba_color: c.background_rgba_color,
    control_rgba_color: c.control_rgba_color,
    catalogue_description: c.description.en,
    esbr_rating: c.esbr_rating,
    esbr_tags: c.esbr_tags.map((value) => ({ value })),
    genre_tags: c.genre_tags.map((value) => ({ value })),
    interactivity_level: c.interactivity_level,
    branching_level: c.branching_level,
    estimated_minute_duration: c.estimated_minute_duration,
    is_coming_soon: c.is_coming_soon,
    sound_intro: c.sound_intro ?? null,
    positive_count: c.positive_count,
    negative_count: c.negative_count,
    created_at: c.created_at,
    loop_max_number_of_interactions: s.loop_max_number_of_interactions ?? null,
    first_moment_id: s.first_moment_id,
    story_json: raw,
  };
}

function mediaRecords(storyId: string, owner: string, ownerId: string, media: readonly Media[]): Rec[] {
  return media.map((m, position) => ({
    id: randomUUID(), blueprint_story_id: storyId, [owner]: ownerId, media_url: m.url, media_kind: m.kind, position,
  }));
}

/** Every blueprint child row of a story, by table. */
function blueprintRecords(s: Story): Blueprint {
  const story = s.id;
  const out: Blueprint = Object.fromEntries(CHILD_TABLES.map((t) => [t, []]));
  const add = (table: (typeof CHILD_TABLES)[number], rows: Rec[]): void => void out[table]?.push(...rows);
  s.places.forEach((p, position) => {
    add('blueprint_places', [{ id: p.id, blueprint_story_id: story, name: p.name.en, position }]);
    add('blueprint_place_medias', mediaRecords(story, 'blueprint_place_id', p.id, p.media));
  });
  s.characters.forEach((c, position) => {
    add('blueprint_characters', [{
      id: c.id, blueprint_story_id: story, name: c.name, description: c.description?.en ?? null, base_attack: c.base_attack,
      base_health: c.base_health, properties: c.properties, style_tags: c.style_tags, is_enrolled_by_default: c.is_enrolled_by_default,
      card_type: c.card_type, position,
    }]);
    add('blueprint_character_medias', mediaRecords(story, 'blueprint_character_id', c.id, c.media));
    add('blueprint_character_team_medias', mediaRecords(story, 'blueprint_character_id', c.id, c.team_media));
  });
  s.items.forEach((it, position) => {
    add('blueprint_items', [{
      id: it.id, blueprint_story_id: story, name: it.name.en, description: it.description?.en ?? '', attack_bonus: it.attack_bonus,
      defense_bonus: it.defense_bonus, properties: it.properties, rarity: it.rarity, is_acquired_by_default: it.is_acquired_by_default,
      position,
    }]);
    add('blueprint_item_medias', mediaRecords(story, 'blueprint_item_id', it.id, it.media));
  });
  s.moments.forEach((m, position) => {
    add('blueprint_moments', [{
      id: m.id, blueprint_story_id: story, name: m.name.en, moment_type: m.type, moment_date: m.date,
      blueprint_place_id: m.place_id ?? null, blueprint_character_id: m.character_id ?? null, goal_type: m.goal_type ?? null,
      goal: m.goal?.en ?? null, transitions: m.transitions.map((t) => ({ next_moment_id: t.next_moment_id, label: t.label?.en ?? null })),
      skip_to_moment_id: m.skip_to_moment_id ?? null, skip_after_run_number: m.skip_after_run_number ?? null,
      show_after_run_number: m.show_after_run_number ?? null, skip_after_completion_count: m.skip_after_completion_count ?? null,
      display_randomly_probability: m.display_randomly_probability ?? null, max_number_of_characters: teamSizeOf(m) ?? null,
      score_threshold_for_award: m.score_threshold_for_award ?? null, default_emotion: m.default_emotion,
      default_emotion_intensity: m.default_emotion_intensity, do_not_display_character: m.do_not_display_character,
      sound: m.sound?.url ?? null, sound_volume: m.sound?.volume ?? null, speech_patterns: m.speech_patterns,
      hint_translation: m.hint?.fr ?? null, hint_tts: m.hint?.en ?? null,
      media: m.media.map((x) => ({ media_url: x.url, media_kind: x.kind })), position,
    }]);
    add('blueprint_rewards', rewardsOf(m).map((r, i) => ({
      id: r.id, blueprint_story_id: story, blueprint_moment_id: m.id, reward_type: r.reward_type, item_ids: r.item_ids,
      character_ids: r.character_ids, dynamic_rewards: r.dynamic_rewards, source: r.source ?? null, position: i,
    })));
  });
  return out;
}

export class StoryRepo {
  readonly #db: Db;
  readonly #cache = new Map<string, { stamp: string; story: Story; version: number }>();
  readonly #checked = new Map<string, number>();
  readonly #versions = new Lru<string, Story>(VERSIONS_KEPT);

  constructor(db: Db) {
    this.#db = db;
  }

  /**
   * Imports (or re-imports) a story in one transaction as its newest published version: the story row is upserted,
   * its moments, characters, items, places, rewards and media replaced, and the file kept as a new version (the same
   * file as the newest version makes none). `raw` is the file as read; `story` is `raw` parsed. Returns the version.
   */
  async importStory(story: Story, raw: unknown, opts: { by?: string | null } = {}): Promise<number> {
    if (!Story.safeParse(raw).success) throw new StoryImportError(`Story ${story.id}: the raw JSON is not a valid story file.`);
    this.#checked.delete(story.id);
    try {
      return await this.#db.tx((q) => this.publishIn(q, story, raw, opts.by ?? null));
    } catch (e) {
      if (e instanceof StoryImportError) throw e;
      throw new StoryImportError(`Cannot import story "${story.name}" (${story.id}): ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  }

  /** importStory's writes inside the caller's transaction (publishing a draft shares it with the draft's update). */
  async publishIn(q: Queryable, story: Story, raw: unknown, by: string | null): Promise<number> {
    const children = blueprintRecords(story);
    this.#checked.delete(story.id);
    await this.#checkIdsFree(q, story.id, children);
    await q.query('DELETE FROM blueprint_moments WHERE blueprint_story_id = $1', [story.id]);
    await q.query('DELETE FROM blueprint_characters WHERE blueprint_story_id = $1', [story.id]);
    await q.query('DELETE FROM blueprint_items WHERE blueprint_story_id = $1', [story.id]);
    await q.query('DELETE FROM blueprint_places WHERE blueprint_story_id = $1', [story.id]);
    await writeRecords(q, 'blueprint_stories', [storyRecord(story, raw)], 'upsert');
    await q.query('UPDATE blueprint_stories SET updated_at = clock_timestamp() WHERE id = $1', [story.id]);
    for (const table of CHILD_TABLES) for (const group of byKeySet(children[table] ?? [])) await writeRecords(q, table, group, 'insert');
    // The story row is locked by the upsert above: versions are numbered one at a time.
    const text = json(raw);
    const latest = await q.query<{ version: number; same: boolean }>(
      `SELECT version, document::text = $2 AS same FROM looptale_private.story_versions WHERE story_id = $1 ORDER BY version DESC LIMIT 1`,
      [story.id, text],
    );
    const head = latest.rows[0];
    if (head?.same) return head.version;
    const version = (head?.version ?? 0) + 1;
    await q.query(
      'INSERT INTO looptale_private.story_versions (story_id, version, document, published_by) VALUES ($1, $2, $3::text::json, $4)',
      [story.id, version, text, by],
    );
    return version;
  }

  /** Ids are primary keys across stories: a moment, character, item, place or reward id of another story is refused. */
  async #checkIdsFree(q: Queryable, storyId: string, children: Blueprint): Promise<void> {
    for (const table of ['blueprint_places', 'blueprint_characters', 'blueprint_items', 'blueprint_moments', 'blueprint_rewards']) {
      const ids = (children[table] ?? []).map((r) => r.id);
      if (ids.length === 0) continue;
      const taken = await q.query<{ id: string; blueprint_story_id: string }>(
        `SELECT id::text, blueprint_story_id::text FROM ${table}
          WHERE id IN (SELECT value::uuid FROM jsonb_array_elements_text($1::text::jsonb)) AND blueprint_story_id <> $2`,
        [json(ids), storyId],
      );
      const first = taken.rows[0];
      if (first) {
        throw new StoryImportError(`Id ${first.id} (${table.replace('blueprint_', '').replace(/s$/, '')}) is already used by story ${first.blueprint_story_id}; ids must be unique across stories.`);
      }
    }
  }

  /** The story file exactly as imported (same values, same key order); null when unknown. */
  async exportStory(id: string): Promise<unknown> {
    if (!isUuid(id)) return null;
    const r = await this.#db.query<{ story_json: unknown }>('SELECT story_json FROM blueprint_stories WHERE id = $1', [id]);
    return r.rows[0]?.story_json ?? null;
  }

  /** The newest published version of the story, parsed. */
  async getStory(id: string): Promise<Story | null> {
    return (await this.published(id))?.story ?? null;
  }

  /** The newest published version and its number, cached until the story is published again. */
  async published(id: string): Promise<Published | null> {
    if (!isUuid(id)) return null;
    // A story changes only on import or publish: re-check its stamp at most every 2 s (other processes may publish).
    const fresh = this.#cache.get(id);
    if (fresh && Date.now() - (this.#checked.get(id) ?? 0) < 2000) return { story: fresh.story, version: fresh.version };
    this.#checked.set(id, Date.now());
    // A deleted story (the studio's soft delete) is published no more: no catalogue lists it and no new run starts it.
    const head = await this.#db.query<{ stamp: string }>('SELECT updated_at::text AS stamp FROM blueprint_stories WHERE id = $1 AND deleted_at IS NULL', [id]);
    const stamp = head.rows[0]?.stamp;
    if (stamp === undefined) {
      this.#cache.delete(id);
      return null;
    }
    const hit = this.#cache.get(id);
    if (hit?.stamp === stamp) return { story: hit.story, version: hit.version };
    const r = await this.#db.query<{ story_json: unknown; stamp: string; version: number | null }>(
      `SELECT b.story_json, b.updated_at::text AS stamp,
              (SELECT max(version) FROM looptale_private.story_versions v WHERE v.story_id = b.id) AS version
         FROM blueprint_stories b WHERE b.id = $1`, [id],
    );
    const row = r.rows[0];
    if (!row) return null;
    const parsed = Story.safeParse(row.story_json);
    if (!parsed.success) throw new Error(`store: stored story ${id} no longer parses: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    const version = Number(row.version ?? 1);
    this.#cache.set(id, { stamp: row.stamp, story: parsed.data, version });
    return { story: parsed.data, version };
  }

  /** Reads the story again on its next use (it was deleted or brought back here). */
  forget(id: string): void {
    this.#checked.delete(id);
  }

  /** One published version of the story (a run plays the version it started on), or null when there is none. */
  async getStoryAt(id: string, version: number): Promise<Story | null> {
    if (!isUuid(id)) return null;
    const key = `${id}@${version}`;
    const kept = this.#versions.get(key);
    if (kept) return kept;
    const newest = this.#cache.get(id);
    if (newest?.version === version) return newest.story;
    const r = await this.#db.query<{ document: unknown }>('SELECT document FROM looptale_private.story_versions WHERE story_id = $1 AND version = $2', [id, version]);
    const row = r.rows[0];
    if (!row) return null;
    const parsed = Story.safeParse(row.document);
    if (!parsed.success) throw new Error(`store: version ${version} of story ${id} no longer parses: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    this.#versions.set(key, parsed.data);
    return parsed.data;
  }

  /** The story's published versions, newest first: number, who published it and when. */
  async versions(id: string): Promise<{ version: number; published_by: string | null; published_at: string; note: string | null }[]> {
    if (!isUuid(id)) return [];
    const r = await this.#db.query<{ version: number; published_by: string | null; published_at: Date; note: string | null }>(
      'SELECT version, published_by::text, published_at, note FROM looptale_private.story_versions WHERE story_id = $1 ORDER BY version DESC', [id],
    );
    return r.rows.map((x) => ({ version: Number(x.version), published_by: x.published_by, published_at: String(iso(x.published_at)), note: x.note }));
  }

  /** The catalogue, newest first; user_started is true for stories the caller has a run of. */
  async listCatalogue(userId: string | null): Promise<CatalogueStory[]> {
    const r = await this.#db.query(
      `SELECT v.*, EXISTS (SELECT 1 FROM player_stories p WHERE p.user_id = $1::text AND p.blueprint_story_id = v.id) AS user_started
         FROM blueprint_stories_with_ratings_view v
        ORDER BY v.created_at DESC, v.name, v.id`,
      [userId],
    );
    return parseRows(CatalogueStory, r.rows, 'catalogue');
  }

  /** The public catalogue file (/data/catalogue.json): every story, none started, and when it last changed. */
  async staticCatalogue(): Promise<StaticCatalogue> {
    const stories = await this.listCatalogue(null);
    const r = await this.#db.query<{ last: Date }>('SELECT COALESCE(max(updated_at), now()) AS last FROM blueprint_stories');
    return { stories, lastUpdated: String(iso(r.rows[0]?.last ?? new Date())) };
  }

  /** The story's moments in file order ("oldest first"). */
  async storyMoments(id: string): Promise<BlueprintMomentRow[]> {
    if (!isUuid(id)) return [];
    const r = await this.#db.query('SELECT * FROM blueprint_moments WHERE blueprint_story_id = $1 ORDER BY position, created_at', [id]);
    return parseRows(BlueprintMomentRow, r.rows, 'blueprint_moments');
  }

  async exists(id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    return (await this.#db.query('SELECT 1 FROM blueprint_stories WHERE id = $1', [id])).rows.length > 0;
  }

  /** A server setting (seeding keeps its marker there), or null. */
  setting(key: string): Promise<string | null> {
    return getSetting(this.#db, key);
  }

  setSetting(key: string, value: string): Promise<void> {
    return setSetting(this.#db, key, value);
  }

  async count(): Promise<number> {
    const r = await this.#db.query<{ n: number }>('SELECT count(*)::int AS n FROM blueprint_stories');
    return r.rows[0]?.n ?? 0;
  }
}
