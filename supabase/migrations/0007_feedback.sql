-- Feedback players send from /share-feedback, read by admins in the admin area. Server-only (looptale_private, RLS
-- on, no policy, no grant): players write it through the game server's POST /api/feedback, which validates, caps
-- and rate-limits it; admins (looptale_private.user_roles) list it through GET /api/admin/feedback.
-- user_id has no foreign key on purpose (see 0005: local or Supabase accounts).
DO $migration$
BEGIN

CREATE SCHEMA IF NOT EXISTS looptale_private;

CREATE TABLE IF NOT EXISTS looptale_private.feedback (
  id bigserial PRIMARY KEY,
  user_id uuid NOT NULL,
  email text,
  kind text NOT NULL CHECK (kind IN ('idea', 'problem', 'praise', 'other')),
  message text NOT NULL CHECK (char_length(message) BETWEEN 1 AND 4000),
  page text CHECK (page IS NULL OR char_length(page) <= 200),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS feedback_time_idx ON looptale_private.feedback (created_at DESC);
CREATE INDEX IF NOT EXISTS feedback_user_time_idx ON looptale_private.feedback (user_id, created_at);

ALTER TABLE looptale_private.feedback ENABLE ROW LEVEL SECURITY;

END
$migration$;
