-- What players said that the game did not catch (issue 13): one row per miss, kept per moment for authors (the
-- studio will show them), never the audio. `heard` is the recogniser's best words, kept for VOICE_MISS_RETENTION_DAYS
-- (null when that setting is 0); rows themselves go after the retention (at least a day: the miss count of a moment
-- in play reads them). Also answers a replayed input_id (its GAME_OUTPUT is in looptale_private.processed_inputs).
-- Server-side only: in looptale_private, with Row Level Security on and no policy, like the other tables there.
-- One DO block, i.e. one statement (see 0001_core.sql).
DO $migration$
BEGIN

CREATE TABLE looptale_private.voice_misses (
  user_id text NOT NULL,
  input_id text NOT NULL,
  player_story_id uuid NOT NULL REFERENCES player_stories (id) ON DELETE CASCADE,
  player_moment_id uuid NOT NULL,
  blueprint_story_id uuid NOT NULL,
  blueprint_moment_id uuid NOT NULL,
  -- The moment's stage: '' for most, 'attack' / 'defend' in a battle, 'bet' / 'riddle' in an upgrade.
  stage text NOT NULL DEFAULT '',
  -- Entries in the moment's dialogue when it happened: misses in a row share it.
  turn_index integer NOT NULL,
  miss_number integer NOT NULL,
  -- silence, not_heard, unsure, no_decision (see engine/schema/game-output.ts NotCaught.reason).
  reason text NOT NULL,
  heard text,
  recogniser text NOT NULL,
  language text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, input_id)
);
CREATE INDEX voice_misses_moment_idx ON looptale_private.voice_misses (blueprint_story_id, blueprint_moment_id, created_at);
CREATE INDEX voice_misses_player_moment_idx ON looptale_private.voice_misses (player_moment_id, turn_index);
CREATE INDEX voice_misses_created_idx ON looptale_private.voice_misses (created_at);
ALTER TABLE looptale_private.voice_misses ENABLE ROW LEVEL SECURITY;

END
$migration$;
