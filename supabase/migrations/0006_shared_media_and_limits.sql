-- What several server processes on one database share beyond the game tables (server-only, in looptale_private):
--   media_objects: story media (MEDIA_STORE=database, the default with DATABASE_URL): every process serves every file,
--                  whichever process stored it. Rendered variants stay a per-process disk cache keyed by the etag.
--   auth_limits:   the auth rate limits' counters (per address, per email, sign-in failures per account and address),
--                  so N processes allow the attempts of one. A row is a small JSON state, dropped once expired.
DO $migration$
BEGIN

CREATE SCHEMA IF NOT EXISTS looptale_private;

CREATE TABLE IF NOT EXISTS looptale_private.media_objects (
  bucket text NOT NULL CHECK (bucket IN ('image', 'sound')),
  blueprint_story_id uuid NOT NULL,
  file text NOT NULL CHECK (file ~ '^[A-Za-z0-9][A-Za-z0-9._-]*$' AND length(file) <= 100),
  content_type text NOT NULL,
  size bigint NOT NULL CHECK (size >= 0),
  etag text NOT NULL,
  body bytea NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (bucket, blueprint_story_id, file)
);
-- Stored as they come: images and sounds are compressed already.
ALTER TABLE looptale_private.media_objects ALTER COLUMN body SET STORAGE EXTERNAL;

CREATE TABLE IF NOT EXISTS looptale_private.auth_limits (
  key text PRIMARY KEY,
  state jsonb NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS auth_limits_expires_idx ON looptale_private.auth_limits (expires_at);

ALTER TABLE looptale_private.media_objects ENABLE ROW LEVEL SECURITY;
ALTER TABLE looptale_private.auth_limits ENABLE ROW LEVEL SECURITY;

END
$migration$;
