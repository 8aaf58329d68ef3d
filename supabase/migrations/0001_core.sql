-- Looptale core schema: blueprint (authored stories), player rows (one user's play), engine support, prompts, settings.
-- Table, column and view names are the spec's (shared/spec/); player_* columns are exactly those of
-- engine/schema/player.ts, so an engine row is stored field for field.
--
-- The whole file is one DO block, i.e. one statement: the migration runner sends a file as a single query, and
-- PGlite's query() (extended protocol) refuses several commands in one string. Runs on PostgreSQL 15 and PGlite
-- (PostgreSQL 18): no PG16+ features.
DO $migration$
BEGIN

-- ---------------------------------------------------------------------------------------------------------------
-- Blueprint: what a story file holds. Rows are replaced as a whole when a story is imported again; story_json keeps
-- the file as imported for a lossless export. Player rows never point into blueprint child tables (a re-import may
-- drop a moment an old run went through), only to the story itself.
--
-- Documents kept whole (story_json, the GameState snapshot, transcript lines) are `json`, not `jsonb`: jsonb sorts
-- object keys, which would lose the author's layout on export and reorder the record-valued fields of a GameState
-- (completion_counts, line_memory), and the engine's state digest (engine/sim/transcript.ts) depends on key order,
-- so a stored transcript would no longer replay digest for digest. json keeps the text as written.

CREATE TABLE blueprint_stories (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  background_image text NOT NULL DEFAULT '',
  story_logo_image text NOT NULL DEFAULT '',
  sample_images jsonb NOT NULL DEFAULT '[]',
  text_rgba_color text NOT NULL DEFAULT 'rgba(255,255,255,1)',
  background_rgba_color text NOT NULL DEFAULT 'rgba(0,0,0,1)',
  control_rgba_color text NOT NULL DEFAULT 'rgba(255,255,255,1)',
  -- English text; the full translated text stays in story_json.
  catalogue_description text NOT NULL DEFAULT '',
  esbr_rating text NOT NULL DEFAULT 'ESRB_PENDING'
    CHECK (esbr_rating IN ('ESRB_10', 'ESRB_ADULT', 'ESRB_EVERYONE', 'ESRB_MATURE', 'ESRB_PENDING', 'ESRB_Teen')),
  -- Arrays of { "value": ... } objects, the catalogue's shape.
  esbr_tags jsonb NOT NULL DEFAULT '[]',
  genre_tags jsonb NOT NULL DEFAULT '[]',
  interactivity_level text NOT NULL DEFAULT 'Medium' CHECK (interactivity_level IN ('Low', 'Medium', 'High')),
  branching_level text NOT NULL DEFAULT 'Medium' CHECK (branching_level IN ('Low', 'Medium', 'High')),
  estimated_minute_duration integer NOT NULL DEFAULT 15 CHECK (estimated_minute_duration >= 1),
  is_coming_soon boolean NOT NULL DEFAULT false,
  sound_intro text,
  positive_count integer CHECK (positive_count >= 0),
  negative_count integer CHECK (negative_count >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  -- NULL: the default of 30.
  loop_max_number_of_interactions integer CHECK (loop_max_number_of_interactions >= 1),
  first_moment_id uuid NOT NULL,
  story_json json NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE blueprint_places (
  id uuid PRIMARY KEY,
  blueprint_story_id uuid NOT NULL REFERENCES blueprint_stories (id) ON DELETE CASCADE,
  name text NOT NULL,
  position integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX blueprint_places_story_idx ON blueprint_places (blueprint_story_id);

CREATE TABLE blueprint_characters (
  id uuid PRIMARY KEY,
  blueprint_story_id uuid NOT NULL REFERENCES blueprint_stories (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text,
  base_attack integer NOT NULL CHECK (base_attack >= 0),
  base_health integer NOT NULL CHECK (base_health >= 0),
  properties jsonb NOT NULL DEFAULT '[]',
  style_tags jsonb NOT NULL DEFAULT '[]',
  is_enrolled_by_default boolean NOT NULL DEFAULT false,
  card_type text NOT NULL DEFAULT 'Normal'
    CHECK (card_type IN ('Normal', 'Prismatic', 'Onyx', 'Crystal', 'Marble', 'Steel', 'Golden', 'Holographic')),
  position integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX blueprint_characters_story_idx ON blueprint_characters (blueprint_story_id);

CREATE TABLE blueprint_items (
  id uuid PRIMARY KEY,
  blueprint_story_id uuid NOT NULL REFERENCES blueprint_stories (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  attack_bonus integer NOT NULL DEFAULT 0,
  defense_bonus integer NOT NULL DEFAULT 0,
  properties jsonb NOT NULL DEFAULT '[]',
  rarity text NOT NULL DEFAULT 'common' CHECK (rarity IN ('common', 'normal', 'rare', 'special', 'epic', 'legendary')),
  is_acquired_by_default boolean NOT NULL DEFAULT false,
  position integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX blueprint_items_story_idx ON blueprint_items (blueprint_story_id);

CREATE TABLE blueprint_moments (
  id uuid PRIMARY KEY,
  blueprint_story_id uuid NOT NULL REFERENCES blueprint_stories (id) ON DELETE CASCADE,
  name text NOT NULL,
  moment_type text NOT NULL CHECK (moment_type IN (
    'Monologue', 'Learn', 'Test', 'Crossroad', 'Teamwork', 'Reward', 'Battle', 'Equip', 'Epilogue', 'Upgrade', 'Assemble',
    'Dead End')),
  -- The in-story date as authored (ISO date or date-time).
  moment_date text NOT NULL,
  blueprint_place_id uuid REFERENCES blueprint_places (id) ON DELETE SET NULL,
  -- The character who speaks in this moment.
  blueprint_character_id uuid REFERENCES blueprint_characters (id) ON DELETE SET NULL,
  goal_type text CHECK (goal_type IN ('convince', 'solve', 'reveal', 'teach', 'program')),
  goal text,
  -- [{ "next_moment_id", "label" }], the moment view's shape.
  transitions jsonb NOT NULL DEFAULT '[]',
  skip_to_moment_id uuid,
  skip_after_run_number integer,
  show_after_run_number integer,
  skip_after_completion_count integer,
  display_randomly_probability double precision CHECK (display_randomly_probability BETWEEN 0 AND 100),
  max_number_of_characters integer CHECK (max_number_of_characters >= 0),
  score_threshold_for_award integer CHECK (score_threshold_for_award BETWEEN 0 AND 100),
  default_emotion text NOT NULL DEFAULT 'normal'
    CHECK (default_emotion IN ('normal', 'happiness', 'sadness', 'anger', 'fear', 'disgust', 'surprise')),
  default_emotion_intensity integer NOT NULL DEFAULT 1 CHECK (default_emotion_intensity BETWEEN 1 AND 5),
  do_not_display_character boolean NOT NULL DEFAULT false,
  sound text,
  sound_volume double precision CHECK (sound_volume BETWEEN 0 AND 1),
  speech_patterns jsonb NOT NULL DEFAULT '[]',
  -- The hint in French (shown) and English (spoken).
  hint_translation text,
  hint_tts text,
  -- [{ "media_url", "media_kind" }]: the moment's own images (moment_image_details).
  media jsonb NOT NULL DEFAULT '[]',
  position integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX blueprint_moments_story_idx ON blueprint_moments (blueprint_story_id, position);

ALTER TABLE blueprint_stories ADD CONSTRAINT blueprint_stories_first_moment_fk
  FOREIGN KEY (first_moment_id) REFERENCES blueprint_moments (id) DEFERRABLE INITIALLY DEFERRED;

CREATE TABLE blueprint_rewards (
  id uuid PRIMARY KEY,
  blueprint_story_id uuid NOT NULL REFERENCES blueprint_stories (id) ON DELETE CASCADE,
  blueprint_moment_id uuid NOT NULL REFERENCES blueprint_moments (id) ON DELETE CASCADE,
  reward_type text NOT NULL CHECK (reward_type IN ('item', 'character', 'dynamic_item')),
  item_ids jsonb NOT NULL DEFAULT '[]',
  character_ids jsonb NOT NULL DEFAULT '[]',
  dynamic_rewards jsonb NOT NULL DEFAULT '[]',
  source text CHECK (source IN (
    'character', 'item', 'dynamic_item', 'upgrade', 'perfect_answer', 'free', 'sacrificed_properties', 'rank_achieved')),
  position integer NOT NULL DEFAULT 0
);
CREATE INDEX blueprint_rewards_moment_idx ON blueprint_rewards (blueprint_moment_id);
CREATE INDEX blueprint_rewards_story_idx ON blueprint_rewards (blueprint_story_id);

-- Media tables: media_url, media_kind and the ids they link. position keeps the file's order among rows imported
-- together ("newest first" = created_at DESC, position ASC).
CREATE TABLE blueprint_character_medias (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  blueprint_story_id uuid NOT NULL REFERENCES blueprint_stories (id) ON DELETE CASCADE,
  blueprint_character_id uuid NOT NULL REFERENCES blueprint_characters (id) ON DELETE CASCADE,
  media_url text NOT NULL,
  media_kind text NOT NULL DEFAULT 'image' CHECK (media_kind IN ('image', 'video')),
  position integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX blueprint_character_medias_character_idx ON blueprint_character_medias (blueprint_character_id, created_at DESC);
CREATE INDEX blueprint_character_medias_story_idx ON blueprint_character_medias (blueprint_story_id);

CREATE TABLE blueprint_character_team_medias (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  blueprint_story_id uuid NOT NULL REFERENCES blueprint_stories (id) ON DELETE CASCADE,
  blueprint_character_id uuid NOT NULL REFERENCES blueprint_characters (id) ON DELETE CASCADE,
  media_url text NOT NULL,
  media_kind text NOT NULL DEFAULT 'image' CHECK (media_kind IN ('image', 'video')),
  position integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX blueprint_character_team_medias_character_idx
  ON blueprint_character_team_medias (blueprint_character_id, blueprint_story_id, created_at DESC);
CREATE INDEX blueprint_character_team_medias_story_idx ON blueprint_character_team_medias (blueprint_story_id);

CREATE TABLE blueprint_item_medias (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  blueprint_story_id uuid NOT NULL REFERENCES blueprint_stories (id) ON DELETE CASCADE,
  blueprint_item_id uuid NOT NULL REFERENCES blueprint_items (id) ON DELETE CASCADE,
  media_url text NOT NULL,
  media_kind text NOT NULL DEFAULT 'image' CHECK (media_kind IN ('image', 'video')),
  position integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX blueprint_item_medias_item_idx ON blueprint_item_medias (blueprint_item_id, created_at DESC);
CREATE INDEX blueprint_item_medias_story_idx ON blueprint_item_medias (blueprint_story_id);

CREATE TABLE blueprint_place_medias (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  blueprint_story_id uuid NOT NULL REFERENCES blueprint_stories (id) ON DELETE CASCADE,
  blueprint_place_id uuid NOT NULL REFERENCES blueprint_places (id) ON DELETE CASCADE,
  media_url text NOT NULL,
  media_kind text NOT NULL DEFAULT 'image' CHECK (media_kind IN ('image', 'video')),
  position integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX blueprint_place_medias_place_idx ON blueprint_place_medias (blueprint_place_id, created_at DESC);
CREATE INDEX blueprint_place_medias_story_idx ON blueprint_place_medias (blueprint_story_id);

-- ---------------------------------------------------------------------------------------------------------------
-- Player rows. user_id is text: the auth part owns users. Foreign keys between player tables are deferred to the
-- end of the transaction, so one engine step's rows may be written in any order (a run and its current moment point
-- at each other).

CREATE TABLE player_stories (
  id uuid PRIMARY KEY,
  user_id text NOT NULL CHECK (user_id <> ''),
  blueprint_story_id uuid NOT NULL REFERENCES blueprint_stories (id) ON DELETE CASCADE,
  language text NOT NULL CHECK (language IN ('english', 'french', 'spanish')),
  loop_number integer NOT NULL CHECK (loop_number >= 1),
  loop_rank integer CHECK (loop_rank BETWEEN 1 AND 7),
  loop_status text NOT NULL DEFAULT 'loopStatusOnGoing'
    CHECK (loop_status IN ('loopStatusOnGoing', 'loopStatusWon', 'loopStatusLost')),
  loop_current_number_of_interactions integer NOT NULL DEFAULT 0 CHECK (loop_current_number_of_interactions >= 0),
  loop_max_number_of_interactions integer NOT NULL DEFAULT 30 CHECK (loop_max_number_of_interactions >= 1),
  is_successful_run boolean NOT NULL DEFAULT false,
  reset_progress boolean NOT NULL DEFAULT false,
  is_story_maker boolean NOT NULL DEFAULT false,
  current_player_moment_id uuid,
  perfect_answers integer NOT NULL DEFAULT 0 CHECK (perfect_answers >= 0),
  battles_won integer NOT NULL DEFAULT 0 CHECK (battles_won >= 0),
  clean_battles_won integer NOT NULL DEFAULT 0 CHECK (clean_battles_won >= 0),
  burn_outs integer NOT NULL DEFAULT 0 CHECK (burn_outs >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  ended_at timestamptz,
  CONSTRAINT player_stories_loop_number_key UNIQUE (user_id, blueprint_story_id, loop_number)
);
CREATE INDEX player_stories_user_story_idx ON player_stories (user_id, blueprint_story_id, created_at DESC);
CREATE INDEX player_stories_story_idx ON player_stories (blueprint_story_id);

CREATE TABLE player_moments (
  id uuid PRIMARY KEY,
  player_story_id uuid NOT NULL REFERENCES player_stories (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  blueprint_moment_id uuid NOT NULL,
  user_id text NOT NULL CHECK (user_id <> ''),
  dialogue_history jsonb NOT NULL DEFAULT '[]',
  battle_action_history jsonb NOT NULL DEFAULT '[]',
  battle_phase text NOT NULL DEFAULT 'initial'
    CHECK (battle_phase IN ('initial', 'player_attack_input', 'ai_attack_selection', 'player_defense_input')),
  player_facts jsonb NOT NULL DEFAULT '[]',
  pending_strike jsonb,
  burn_outs integer NOT NULL DEFAULT 0 CHECK (burn_outs >= 0),
  upgrade_bet jsonb,
  is_started boolean NOT NULL DEFAULT false,
  skipped_reason text,
  completed_at timestamptz,
  succeeded_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX player_moments_story_idx ON player_moments (player_story_id);
CREATE INDEX player_moments_user_idx ON player_moments (user_id);

ALTER TABLE player_stories ADD CONSTRAINT player_stories_current_moment_fk
  FOREIGN KEY (current_player_moment_id) REFERENCES player_moments (id) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED;

CREATE TABLE player_permanent_character_tickets (
  id uuid PRIMARY KEY,
  user_id text NOT NULL CHECK (user_id <> ''),
  blueprint_story_id uuid NOT NULL REFERENCES blueprint_stories (id) ON DELETE CASCADE,
  is_redeemed boolean NOT NULL DEFAULT false,
  redeemed_at timestamptz,
  earned_at timestamptz NOT NULL DEFAULT now(),
  earned_in_player_story_id uuid REFERENCES player_stories (id) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- One ticket per user and story (the first Rank A only).
  CONSTRAINT player_permanent_character_tickets_user_story_key UNIQUE (user_id, blueprint_story_id),
  CONSTRAINT player_permanent_character_tickets_redeemed_check CHECK (is_redeemed = (redeemed_at IS NOT NULL))
);
CREATE INDEX player_permanent_character_tickets_run_idx ON player_permanent_character_tickets (earned_in_player_story_id);

CREATE TABLE player_permanent_characters (
  id uuid PRIMARY KEY,
  user_id text NOT NULL CHECK (user_id <> ''),
  blueprint_character_id uuid,
  name text NOT NULL,
  current_attack integer NOT NULL CHECK (current_attack >= 0),
  current_health integer NOT NULL CHECK (current_health >= 0),
  max_health integer NOT NULL CHECK (max_health >= 0),
  properties jsonb NOT NULL DEFAULT '[]',
  card_type text NOT NULL DEFAULT 'permanent' CHECK (card_type = 'permanent'),
  source_player_character_id uuid,
  -- A ticket is redeemed once: for one permanent character (UNIQUE) or one permanent item (trigger below).
  redeemed_ticket_id uuid NOT NULL UNIQUE REFERENCES player_permanent_character_tickets (id) DEFERRABLE INITIALLY DEFERRED,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX player_permanent_characters_user_idx ON player_permanent_characters (user_id);

CREATE TABLE player_characters (
  id uuid PRIMARY KEY,
  user_id text NOT NULL CHECK (user_id <> ''),
  blueprint_character_id uuid,
  player_story_id uuid NOT NULL REFERENCES player_stories (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  name text NOT NULL,
  current_attack integer NOT NULL CHECK (current_attack >= 0),
  current_health integer NOT NULL CHECK (current_health >= 0),
  max_health integer NOT NULL CHECK (max_health >= 0),
  properties jsonb NOT NULL DEFAULT '[]',
  card_type text NOT NULL DEFAULT 'Normal' CHECK (card_type IN (
    'Normal', 'Prismatic', 'Onyx', 'Crystal', 'Marble', 'Steel', 'Golden', 'Holographic', 'permanent')),
  enrolled_in_blueprint_moment_id uuid,
  is_selected_in_assemble boolean NOT NULL DEFAULT true,
  permanent_character_id uuid
    REFERENCES player_permanent_characters (id) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED,
  burned_out_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX player_characters_story_idx ON player_characters (player_story_id);
CREATE INDEX player_characters_user_idx ON player_characters (user_id);
CREATE INDEX player_characters_permanent_idx ON player_characters (permanent_character_id);

ALTER TABLE player_permanent_characters ADD CONSTRAINT player_permanent_characters_source_fk
  FOREIGN KEY (source_player_character_id) REFERENCES player_characters (id) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED;
CREATE INDEX player_permanent_characters_source_idx ON player_permanent_characters (source_player_character_id);

CREATE TABLE player_items (
  id uuid PRIMARY KEY,
  user_id text NOT NULL CHECK (user_id <> ''),
  player_story_id uuid NOT NULL REFERENCES player_stories (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  blueprint_item_id uuid,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  attack_bonus integer NOT NULL DEFAULT 0,
  defense_bonus integer NOT NULL DEFAULT 0,
  properties jsonb NOT NULL DEFAULT '[]',
  rarity text NOT NULL DEFAULT 'common' CHECK (rarity IN ('common', 'normal', 'rare', 'special', 'epic', 'legendary')),
  source text NOT NULL CHECK (source IN (
    'character', 'item', 'dynamic_item', 'upgrade', 'perfect_answer', 'free', 'sacrificed_properties', 'rank_achieved')),
  acquired_in_blueprint_moment_id uuid,
  permanent_item_id uuid,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX player_items_story_idx ON player_items (player_story_id);
CREATE INDEX player_items_user_idx ON player_items (user_id);
CREATE INDEX player_items_permanent_idx ON player_items (permanent_item_id);

CREATE TABLE player_permanent_character_items (
  id uuid PRIMARY KEY,
  user_id text NOT NULL CHECK (user_id <> ''),
  -- NULL: a permanent item of its own (a ticket redeemed for an item).
  player_permanent_character_id uuid
    REFERENCES player_permanent_characters (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  attack_bonus integer NOT NULL DEFAULT 0,
  defense_bonus integer NOT NULL DEFAULT 0,
  properties jsonb NOT NULL DEFAULT '[]',
  rarity text NOT NULL DEFAULT 'common' CHECK (rarity IN ('common', 'normal', 'rare', 'special', 'epic', 'legendary')),
  source_blueprint_item_id uuid,
  source_player_item_id uuid REFERENCES player_items (id) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED,
  redeemed_ticket_id uuid UNIQUE REFERENCES player_permanent_character_tickets (id) DEFERRABLE INITIALLY DEFERRED,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Either a character's item or an item redeemed with its own ticket.
  CONSTRAINT player_permanent_character_items_owner_check CHECK (num_nonnulls(player_permanent_character_id, redeemed_ticket_id) = 1)
);
CREATE INDEX player_permanent_character_items_character_idx ON player_permanent_character_items (player_permanent_character_id);
CREATE INDEX player_permanent_character_items_user_idx ON player_permanent_character_items (user_id);
CREATE INDEX player_permanent_character_items_source_idx ON player_permanent_character_items (source_player_item_id);

ALTER TABLE player_items ADD CONSTRAINT player_items_permanent_item_fk
  FOREIGN KEY (permanent_item_id) REFERENCES player_permanent_character_items (id) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED;

CREATE TABLE player_permanent_character_medias (
  id uuid PRIMARY KEY,
  player_permanent_character_id uuid NOT NULL
    REFERENCES player_permanent_characters (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  media_url text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX player_permanent_character_medias_character_idx ON player_permanent_character_medias (player_permanent_character_id);

CREATE TABLE player_character_items (
  id uuid PRIMARY KEY,
  player_character_id uuid NOT NULL REFERENCES player_characters (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  player_item_id uuid NOT NULL REFERENCES player_items (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  is_equipped boolean NOT NULL DEFAULT true,
  equipped_at timestamptz,
  -- The blueprint moment the item was equipped in.
  equipped_in_moment_id uuid,
  CONSTRAINT player_character_items_pair_key UNIQUE (player_character_id, player_item_id)
);
CREATE INDEX player_character_items_item_idx ON player_character_items (player_item_id);

CREATE TABLE player_opponents (
  id uuid PRIMARY KEY,
  player_moment_id uuid NOT NULL REFERENCES player_moments (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  blueprint_moment_id uuid NOT NULL,
  blueprint_character_id uuid NOT NULL,
  name text NOT NULL,
  current_health integer NOT NULL CHECK (current_health >= 0),
  base_health integer NOT NULL CHECK (base_health >= 0),
  current_attack integer NOT NULL CHECK (current_attack >= 0),
  base_attack integer NOT NULL CHECK (base_attack >= 0),
  properties jsonb NOT NULL DEFAULT '[]'
);
CREATE INDEX player_opponents_moment_idx ON player_opponents (player_moment_id);

CREATE TABLE player_character_medias (
  id uuid PRIMARY KEY,
  media_url text NOT NULL,
  media_kind text NOT NULL DEFAULT 'image' CHECK (media_kind IN ('image', 'video')),
  blueprint_story_id uuid,
  blueprint_character_id uuid,
  blueprint_item_id uuid,
  blueprint_place_id uuid,
  player_character_id uuid REFERENCES player_characters (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  player_item_id uuid REFERENCES player_items (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  player_story_id uuid REFERENCES player_stories (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX player_character_medias_character_idx ON player_character_medias (player_character_id, created_at DESC);
CREATE INDEX player_character_medias_story_idx ON player_character_medias (player_story_id);

CREATE TABLE player_item_medias (
  id uuid PRIMARY KEY,
  media_url text NOT NULL,
  media_kind text NOT NULL DEFAULT 'image' CHECK (media_kind IN ('image', 'video')),
  blueprint_story_id uuid,
  blueprint_character_id uuid,
  blueprint_item_id uuid,
  blueprint_place_id uuid,
  player_character_id uuid REFERENCES player_characters (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  player_item_id uuid REFERENCES player_items (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  player_story_id uuid REFERENCES player_stories (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX player_item_medias_item_idx ON player_item_medias (player_item_id, created_at DESC);
CREATE INDEX player_item_medias_story_idx ON player_item_medias (player_story_id);

-- A golden ticket is redeemed once: never redeemed again with a new time, never un-redeemed, and never used by both
-- a permanent character and a permanent item.
CREATE FUNCTION player_ticket_redeemed_once() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_TABLE_NAME = 'player_permanent_character_tickets' THEN
    IF OLD.is_redeemed AND (NOT NEW.is_redeemed OR NEW.redeemed_at IS DISTINCT FROM OLD.redeemed_at) THEN
      RAISE EXCEPTION 'golden ticket % is already redeemed', OLD.id USING ERRCODE = 'check_violation';
    END IF;
  ELSIF TG_TABLE_NAME = 'player_permanent_characters' THEN
    IF EXISTS (SELECT 1 FROM player_permanent_character_items i WHERE i.redeemed_ticket_id = NEW.redeemed_ticket_id) THEN
      RAISE EXCEPTION 'golden ticket % is already redeemed', NEW.redeemed_ticket_id USING ERRCODE = 'unique_violation';
    END IF;
  ELSIF NEW.redeemed_ticket_id IS NOT NULL THEN
    IF EXISTS (SELECT 1 FROM player_permanent_characters c WHERE c.redeemed_ticket_id = NEW.redeemed_ticket_id) THEN
      RAISE EXCEPTION 'golden ticket % is already redeemed', NEW.redeemed_ticket_id USING ERRCODE = 'unique_violation';
    END IF;
  END IF;
  RETURN NEW;
END
$fn$;
CREATE TRIGGER player_permanent_character_tickets_redeemed_once
  BEFORE UPDATE ON player_permanent_character_tickets FOR EACH ROW EXECUTE FUNCTION player_ticket_redeemed_once();
CREATE TRIGGER player_permanent_characters_redeemed_once
  BEFORE INSERT OR UPDATE OF redeemed_ticket_id ON player_permanent_characters
  FOR EACH ROW EXECUTE FUNCTION player_ticket_redeemed_once();
CREATE TRIGGER player_permanent_character_items_redeemed_once
  BEFORE INSERT OR UPDATE OF redeemed_ticket_id ON player_permanent_character_items
  FOR EACH ROW EXECUTE FUNCTION player_ticket_redeemed_once();

-- ---------------------------------------------------------------------------------------------------------------
-- Engine support: the GameState snapshot per user and story (optimistic concurrency by version), processed inputs
-- (idempotency: a replayed message returns its first outputs), and run transcripts (JSONL lines in order).

CREATE TABLE player_story_states (
  user_id text NOT NULL CHECK (user_id <> ''),
  blueprint_story_id uuid NOT NULL REFERENCES blueprint_stories (id) ON DELETE CASCADE,
  state json NOT NULL,
  version bigint NOT NULL CHECK (version >= 1),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, blueprint_story_id)
);
CREATE INDEX player_story_states_story_idx ON player_story_states (blueprint_story_id);

CREATE TABLE processed_inputs (
  user_id text NOT NULL,
  input_id text NOT NULL,
  player_story_id uuid REFERENCES player_stories (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  outputs jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, input_id)
);
CREATE INDEX processed_inputs_story_idx ON processed_inputs (player_story_id);

CREATE TABLE player_story_transcripts (
  player_story_id uuid NOT NULL REFERENCES player_stories (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  seq integer NOT NULL CHECK (seq >= 0),
  line json NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (player_story_id, seq)
);

-- ---------------------------------------------------------------------------------------------------------------
-- Views.

-- The catalogue row (engine/schema/views.ts CatalogueStory) without user_started, which is per caller.
CREATE VIEW blueprint_stories_with_ratings_view AS
SELECT
  s.id,
  s.name,
  s.background_image,
  s.story_logo_image,
  s.sample_images AS "sampleImages",
  s.text_rgba_color,
  s.catalogue_description,
  s.created_at,
  s.is_coming_soon,
  s.esbr_rating,
  s.esbr_tags,
  s.genre_tags,
  s.interactivity_level,
  s.branching_level,
  s.estimated_minute_duration,
  s.positive_count,
  s.negative_count
FROM blueprint_stories s;

CREATE VIEW first_moment_view AS
SELECT
  s.id AS blueprint_story_id,
  m.id AS blueprint_moment_id,
  m.name AS moment_name,
  m.moment_type,
  m.moment_date,
  m.blueprint_place_id,
  m.blueprint_character_id
FROM blueprint_stories s
JOIN blueprint_moments m ON m.id = s.first_moment_id;

-- The game view by player_story_id, as far as SQL gives it from the rows (names in English; the server returns
-- the engine-computed view, engine/run/views.ts, which localises and keeps the engine's card order).
CREATE VIEW game_engine_view AS
SELECT
  ps.id AS player_story_id,
  ps.user_id,
  ps.blueprint_story_id,
  pm.id AS player_moment_id,
  pm.blueprint_moment_id,
  bm.blueprint_place_id,
  bm.moment_type,
  bm.name AS moment_name,
  bm.moment_date,
  ps.language,
  ps.loop_rank,
  ps.loop_number,
  ps.loop_current_number_of_interactions,
  ps.loop_max_number_of_interactions,
  ps.loop_status,
  (SELECT min(r.loop_rank) FROM player_stories r
    WHERE r.user_id = ps.user_id AND r.blueprint_story_id = ps.blueprint_story_id) AS best_rank,
  bs.background_rgba_color,
  bs.text_rgba_color,
  bs.control_rgba_color,
  COALESCE((SELECT jsonb_agg(jsonb_build_object('media_url', x.media_url, 'media_kind', x.media_kind) ORDER BY x.position)
    FROM blueprint_place_medias x WHERE x.blueprint_place_id = bm.blueprint_place_id), '[]'::jsonb) AS place_image_details,
  COALESCE(bm.media, '[]'::jsonb) AS moment_image_details,
  COALESCE((SELECT jsonb_agg(jsonb_build_object('media_url', x.media_url, 'media_kind', x.media_kind) ORDER BY x.position)
    FROM blueprint_character_medias x WHERE x.blueprint_character_id = bm.blueprint_character_id), '[]'::jsonb)
    AS character_image_details,
  COALESCE(bm.do_not_display_character, false) AS do_not_display_character,
  COALESCE((SELECT jsonb_agg(jsonb_build_object(
      'opponent_id', o.id, 'opponent_name', o.name,
      'opponent_current_health', o.current_health, 'opponent_base_health', o.base_health) ORDER BY o.name, o.id)
    FROM player_opponents o WHERE o.player_moment_id = pm.id), '[]'::jsonb) AS battle_opponent_characters,
  COALESCE((SELECT jsonb_agg(jsonb_build_object(
      'character_id', c.id,
      'blueprint_character_id', c.blueprint_character_id,
      'character_name', c.name,
      'character_properties', c.properties,
      'character_current_attack', c.current_attack,
      'character_base_attack', c.current_attack,
      'character_current_health', c.current_health,
      'character_base_health', c.max_health,
      'character_card_type', c.card_type,
      'is_selected_in_assemble', c.is_selected_in_assemble,
      'equipped_items', COALESCE((SELECT jsonb_agg(jsonb_build_object(
          'id', i.id, 'blueprint_item_id', i.blueprint_item_id, 'name', i.name, 'description', i.description,
          'attack_bonus', i.attack_bonus, 'defense_bonus', i.defense_bonus, 'properties', i.properties,
          'rarity', i.rarity) ORDER BY i.created_at, i.id)
        FROM player_character_items l JOIN player_items i ON i.id = l.player_item_id
        WHERE l.player_character_id = c.id AND l.is_equipped), '[]'::jsonb)
    ) ORDER BY c.created_at, c.id)
    FROM player_characters c WHERE c.player_story_id = ps.id), '[]'::jsonb) AS enrolled_characters,
  COALESCE((SELECT jsonb_agg(jsonb_build_object(
      'available_item_id', i.id, 'available_item_name', i.name, 'available_item_properties', i.properties,
      'available_item_attack_bonus', i.attack_bonus, 'available_item_defense_bonus', i.defense_bonus)
      ORDER BY i.created_at, i.id)
    FROM player_items i
    WHERE i.player_story_id = ps.id
      AND NOT EXISTS (SELECT 1 FROM player_character_items l WHERE l.player_item_id = i.id AND l.is_equipped)),
    '[]'::jsonb) AS player_items,
  (pm.completed_at IS NOT NULL) AS is_moment_complete,
  pm.battle_phase
FROM player_stories ps
JOIN blueprint_stories bs ON bs.id = ps.blueprint_story_id
LEFT JOIN player_moments pm ON pm.id = ps.current_player_moment_id
LEFT JOIN blueprint_moments bm ON bm.id = pm.blueprint_moment_id;

-- ---------------------------------------------------------------------------------------------------------------
-- Prompt data, in its own schema as the spec's second data client uses it.

CREATE SCHEMA IF NOT EXISTS prompt_management;

CREATE TABLE prompt_management.prompts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  moment_type text CHECK (moment_type IN (
    'Monologue', 'Learn', 'Test', 'Crossroad', 'Teamwork', 'Reward', 'Battle', 'Equip', 'Epilogue', 'Upgrade', 'Assemble',
    'Dead End')),
  language text CHECK (language IN ('english', 'french', 'spanish')),
  system_prompt text NOT NULL DEFAULT '',
  user_template text NOT NULL DEFAULT '',
  model text,
  version integer NOT NULL DEFAULT 1 CHECK (version >= 1),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT prompts_name_version_key UNIQUE (name, version)
);

CREATE TABLE prompt_management.prompt_logs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  prompt_id uuid REFERENCES prompt_management.prompts (id) ON DELETE SET NULL,
  player_story_id uuid REFERENCES public.player_stories (id) ON DELETE SET NULL,
  prompt text NOT NULL,
  response text,
  model text,
  latency_ms integer CHECK (latency_ms >= 0),
  prompt_tokens integer CHECK (prompt_tokens >= 0),
  completion_tokens integer CHECK (completion_tokens >= 0),
  outcome text,
  fallback_reason text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX prompt_logs_prompt_idx ON prompt_management.prompt_logs (prompt_id, created_at DESC);
CREATE INDEX prompt_logs_story_idx ON prompt_management.prompt_logs (player_story_id);

CREATE TABLE prompt_management.evaluations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  prompt_id uuid NOT NULL REFERENCES prompt_management.prompts (id) ON DELETE CASCADE,
  name text NOT NULL,
  cases jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX evaluations_prompt_idx ON prompt_management.evaluations (prompt_id);

CREATE TABLE prompt_management.evaluation_runs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  evaluation_id uuid NOT NULL REFERENCES prompt_management.evaluations (id) ON DELETE CASCADE,
  pass_rate double precision CHECK (pass_rate BETWEEN 0 AND 1),
  results jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX evaluation_runs_evaluation_idx ON prompt_management.evaluation_runs (evaluation_id, created_at DESC);

-- ---------------------------------------------------------------------------------------------------------------
-- Server settings: generated secrets shared by every server process on one database.

CREATE TABLE server_settings (
  key text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

END
$migration$;
