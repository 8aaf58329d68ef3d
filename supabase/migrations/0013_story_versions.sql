-- Versioned stories (docs/authoring-design.md): authors edit a draft a change at a time, every change is kept, and
-- publishing makes the draft a new immutable version. A run stays on the version it started with.
--   story_versions:  published versions, numbered from 1 per story. The newest is also what blueprint_stories and
--                    the blueprint_* rows hold (the catalogue and the spec's views read those, as before).
--   story_drafts:    the one draft of a story, its revision counter and the version it was made from (null: never
--                    published: the story is in no catalogue yet).
--   story_revisions: every change applied to a draft, with its inverse, author and time (history and restore).
--   run_versions:    the version each run plays (player_stories holds the spec's columns only), written in the
--                    commit that creates the run.
-- Documents are `json`, not `jsonb`, like story_json: an export gives back the file's own key order.
-- A never-published story has authors too: story_authors no longer points at blueprint_stories (its rows are
-- removed with the story's draft instead, by the server).
DO $migration$
BEGIN
CREATE TABLE IF NOT EXISTS looptale_private.story_versions (
  story_id uuid NOT NULL,
  version integer NOT NULL CHECK (version >= 1),
  document json NOT NULL,
  published_by uuid,
  published_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (story_id, version)
);

CREATE TABLE IF NOT EXISTS looptale_private.story_drafts (
  story_id uuid PRIMARY KEY,
  revision integer NOT NULL DEFAULT 0 CHECK (revision >= 0),
  base_version integer CHECK (base_version >= 1),
  document json NOT NULL,
  report jsonb NOT NULL DEFAULT '[]',
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS looptale_private.story_revisions (
  story_id uuid NOT NULL REFERENCES looptale_private.story_drafts (story_id) ON DELETE CASCADE,
  revision integer NOT NULL CHECK (revision >= 1),
  author_id uuid,
  at timestamptz NOT NULL DEFAULT now(),
  changes jsonb NOT NULL,
  inverse jsonb NOT NULL,
  summary text NOT NULL,
  PRIMARY KEY (story_id, revision)
);

CREATE TABLE IF NOT EXISTS looptale_private.run_versions (
  player_story_id uuid PRIMARY KEY REFERENCES public.player_stories (id) ON DELETE CASCADE,
  story_version integer NOT NULL CHECK (story_version >= 1)
);

ALTER TABLE looptale_private.story_authors DROP CONSTRAINT IF EXISTS story_authors_blueprint_story_id_fkey;

-- Every story already imported is its own version 1, and every run so far played it.
INSERT INTO looptale_private.story_versions (story_id, version, document, published_at)
SELECT id, 1, story_json, created_at FROM public.blueprint_stories
ON CONFLICT DO NOTHING;
INSERT INTO looptale_private.run_versions (player_story_id, story_version)
SELECT id, 1 FROM public.player_stories
ON CONFLICT DO NOTHING;

-- As every table of ours (0004_rls.sql): RLS on with no policy, so a grant made by mistake still shows no row to a
-- client role (which has no USAGE on looptale_private anyway).
ALTER TABLE looptale_private.story_versions ENABLE ROW LEVEL SECURITY;
ALTER TABLE looptale_private.story_drafts ENABLE ROW LEVEL SECURITY;
ALTER TABLE looptale_private.story_revisions ENABLE ROW LEVEL SECURITY;
ALTER TABLE looptale_private.run_versions ENABLE ROW LEVEL SECURITY;
END
$migration$;
