-- Schemas by audience:
--   public            what clients may read through PostgREST: the catalogue, each player's own rows, the spec's
--                     views; Row Level Security and explicit grants in 0004_rls.sql.
--   looptale_private  the game server's alone: settings and secrets (the generated JWT secret), processed inputs
--                     (idempotency), GameState snapshots, run transcripts. Client roles get no USAGE on it.
--   looptale_auth     local sign-in (AUTH_PROVIDER=local), 0002_auth.sql. Never `auth`, which Supabase Auth owns.
--   (the migration ledger is supabase_migrations.schema_migrations, shared with `supabase db push`: server/db/migrate.ts)
--
-- A database made by the previous version has its local auth tables in `auth` and its server tables in public: they
-- move here, rows, indexes, sequences and constraints with them (ALTER TABLE ... SET SCHEMA keeps everything).
-- One DO block, i.e. one statement (see 0001_core.sql).
DO $migration$
DECLARE
  t text;
BEGIN

CREATE SCHEMA IF NOT EXISTS looptale_private;
FOREACH t IN ARRAY ARRAY['server_settings', 'processed_inputs', 'player_story_states', 'player_story_transcripts'] LOOP
  IF to_regclass(format('public.%I', t)) IS NOT NULL THEN
    EXECUTE format('ALTER TABLE public.%I SET SCHEMA looptale_private', t);
  END IF;
END LOOP;

-- The previous version's local auth tables, in `auth`. Moved only when that schema is ours: Supabase Auth's `auth`
-- keeps its own ledger (auth.schema_migrations) and is never touched.
CREATE SCHEMA IF NOT EXISTS looptale_auth;
IF to_regclass('auth.schema_migrations') IS NULL AND to_regclass('auth.oauth_states') IS NOT NULL
   AND to_regclass('looptale_auth.users') IS NULL THEN
  FOREACH t IN ARRAY ARRAY['users', 'identities', 'sessions', 'refresh_tokens', 'one_time_tokens', 'flow_state', 'oauth_states'] LOOP
    EXECUTE format('ALTER TABLE auth.%I SET SCHEMA looptale_auth', t);
  END LOOP;
  -- `auth` was made by the previous version for these tables alone: drop it when nothing else was put there.
  IF NOT EXISTS (SELECT 1 FROM pg_class WHERE relnamespace = 'auth'::regnamespace)
     AND NOT EXISTS (SELECT 1 FROM pg_proc WHERE pronamespace = 'auth'::regnamespace)
     AND NOT EXISTS (SELECT 1 FROM pg_type WHERE typnamespace = 'auth'::regnamespace) THEN
    DROP SCHEMA auth;
  END IF;
END IF;

IF to_regclass('looptale_auth.users') IS NULL THEN
  -- 0002_auth.sql is recorded as applied but its tables are nowhere: the previous version ran next to Supabase Auth as
  -- a superuser and mixed its tables into Supabase's `auth`. Nothing there can be told apart safely.
  RAISE EXCEPTION 'Looptale''s local auth tables are missing: this database was set up by an earlier Looptale next to Supabase Auth (docs/deploy-supabase.md, "Upgrading")'
    USING ERRCODE = 'object_not_in_prerequisite_state';
END IF;

END
$migration$;
