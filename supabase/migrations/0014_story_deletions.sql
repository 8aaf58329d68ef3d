-- Deleting a story in the studio is a soft delete the author can undo during a grace period; the server purges it
-- after (server/store/workshop.ts).
--   story_deletions:          the stories deleted and not yet purged: when, by whom (the studio's list shows them
--                             with Undo). A story that was never published exists only as a draft: this table, not a
--                             column of blueprint_stories, is where every deleted story is.
--   blueprint_stories.deleted_at: the same instant on the published story, so the catalogue views (which client roles
--                             read, and which cannot see looptale_private) leave it out; the server starts no new run
--                             of it. Runs under way keep their rows until the purge.
--   story_versions.note:      what the author said of a version when publishing it (optional).
DO $migration$
BEGIN
CREATE TABLE IF NOT EXISTS looptale_private.story_deletions (
  story_id uuid PRIMARY KEY,
  deleted_at timestamptz NOT NULL DEFAULT now(),
  deleted_by uuid
);
ALTER TABLE looptale_private.story_deletions ENABLE ROW LEVEL SECURITY;

ALTER TABLE public.blueprint_stories ADD COLUMN IF NOT EXISTS deleted_at timestamptz;
ALTER TABLE looptale_private.story_versions ADD COLUMN IF NOT EXISTS note text CHECK (char_length(note) <= 500);

CREATE OR REPLACE VIEW public.blueprint_stories_with_ratings_view WITH (security_invoker = true) AS
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
FROM public.blueprint_stories s
WHERE s.deleted_at IS NULL;

CREATE OR REPLACE VIEW public.first_moment_view WITH (security_invoker = true) AS
SELECT
  s.id AS blueprint_story_id,
  m.id AS blueprint_moment_id,
  m.name AS moment_name,
  m.moment_type,
  m.moment_date,
  m.blueprint_place_id,
  m.blueprint_character_id
FROM public.blueprint_stories s
JOIN public.blueprint_moments m ON m.id = s.first_moment_id
WHERE s.deleted_at IS NULL;
END
$migration$;
