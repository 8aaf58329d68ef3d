-- Who may change a story, and what each user uploaded. Server-only tables (the game server checks them on every
-- media write), so they live in looptale_private, where client roles have no access.
--   story_authors: the authors of a story. They (and admins) write its media, and later edit it in the studio.
--   user_roles:    roles granted to a user across stories; 'admin' may write any story's media and manage authors.
--   media_uploads: one row per stored upload (who, where, how many bytes, when): the per-user byte quota reads it,
--                  and it says who last changed a file.
-- user_id columns have no foreign key on purpose: with AUTH_PROVIDER=local they are looptale_auth.users ids, with
-- AUTH_PROVIDER=supabase the `sub` of the project's tokens (accounts this server never stores).
-- Grants are managed with the CLI: `looptale story authors <story> --add <email>`, `looptale admins --add <email>`.
DO $migration$
BEGIN

CREATE SCHEMA IF NOT EXISTS looptale_private;

CREATE TABLE IF NOT EXISTS looptale_private.story_authors (
  blueprint_story_id uuid NOT NULL REFERENCES blueprint_stories (id) ON DELETE CASCADE,
  user_id uuid NOT NULL,
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (blueprint_story_id, user_id)
);
CREATE INDEX IF NOT EXISTS story_authors_user_idx ON looptale_private.story_authors (user_id);

CREATE TABLE IF NOT EXISTS looptale_private.user_roles (
  user_id uuid NOT NULL,
  role text NOT NULL CHECK (role IN ('admin')),
  granted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, role)
);

CREATE TABLE IF NOT EXISTS looptale_private.media_uploads (
  id bigserial PRIMARY KEY,
  user_id uuid NOT NULL,
  bucket text NOT NULL CHECK (bucket IN ('image', 'sound')),
  blueprint_story_id uuid NOT NULL,
  file text NOT NULL,
  bytes bigint NOT NULL CHECK (bytes >= 0),
  uploaded_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS media_uploads_user_time_idx ON looptale_private.media_uploads (user_id, uploaded_at);

-- As every table of ours (0004_rls.sql): RLS on with no policy, so a grant made by mistake still shows no row to a
-- client role (which has no USAGE on looptale_private anyway).
ALTER TABLE looptale_private.story_authors ENABLE ROW LEVEL SECURITY;
ALTER TABLE looptale_private.user_roles ENABLE ROW LEVEL SECURITY;
ALTER TABLE looptale_private.media_uploads ENABLE ROW LEVEL SECURITY;

END
$migration$;
