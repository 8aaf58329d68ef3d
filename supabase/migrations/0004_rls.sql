-- Row Level Security and explicit grants, as a Supabase project's PostgREST runs a client's query: `SET LOCAL ROLE
-- anon | authenticated` and the access token's claims in `request.jwt.claims`. The game server is authoritative: it
-- connects as the tables' owner (on Supabase, `postgres`, which also has BYPASSRLS) and is not affected by any of this.
--
--   catalogue (blueprint_*, the ratings and first-moment views)  SELECT for anon and authenticated, every row
--   player rows (player_*, game_engine_view)                     SELECT for authenticated, only the rows whose user_id
--                                                                is the token's `sub` (tables without user_id: through
--                                                                the row they belong to)
--   everything else (looptale_private, looptale_auth,            nothing: no USAGE on the schema, no grant, RLS on with
--   prompt_management, marketing, the ledger)                    no policy
--   writes                                                       none for any client role: INSERT, UPDATE, DELETE,
--                                                                TRUNCATE are not granted anywhere
--   service_role (the service key: trusted back-office tools)    SELECT on what clients may read, every row (it
--                                                                bypasses RLS), and no writes either
--
-- Views are security_invoker, so a view's rows are those the caller's own policies allow.
-- Supabase's default privileges (every new table in public granted to anon and authenticated) are revoked for tables
-- `postgres` creates: a later migration grants its new tables explicitly (see docs/deploy-supabase.md).
-- The client roles exist on Supabase only: on PGlite and a plain PostgreSQL, RLS is enabled the same way and the grants
-- and policies, which name those roles, are skipped.
-- One DO block, i.e. one statement (see 0001_core.sql).
DO $migration$
DECLARE
  catalogue text[] := ARRAY[
    'blueprint_stories', 'blueprint_places', 'blueprint_characters', 'blueprint_items', 'blueprint_moments',
    'blueprint_rewards', 'blueprint_character_medias', 'blueprint_character_team_medias', 'blueprint_item_medias',
    'blueprint_place_medias'];
  -- Player tables with their own user_id.
  owned text[] := ARRAY[
    'player_stories', 'player_moments', 'player_permanent_character_tickets', 'player_permanent_characters',
    'player_characters', 'player_items', 'player_permanent_character_items'];
  -- Player tables without user_id, and the condition that finds their owner's row.
  sub constant text := $$(SELECT nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')$$;
  through constant text[][] := ARRAY[
    ARRAY['player_character_items',
      'EXISTS (SELECT 1 FROM public.player_characters c WHERE c.id = player_character_id AND c.user_id = %1$s)'],
    ARRAY['player_opponents',
      'EXISTS (SELECT 1 FROM public.player_moments m WHERE m.id = player_moment_id AND m.user_id = %1$s)'],
    ARRAY['player_permanent_character_medias',
      'EXISTS (SELECT 1 FROM public.player_permanent_characters c WHERE c.id = player_permanent_character_id AND c.user_id = %1$s)'],
    ARRAY['player_character_medias',
      'EXISTS (SELECT 1 FROM public.player_stories s WHERE s.id = player_story_id AND s.user_id = %1$s) OR '
      'EXISTS (SELECT 1 FROM public.player_characters c WHERE c.id = player_character_id AND c.user_id = %1$s) OR '
      'EXISTS (SELECT 1 FROM public.player_items i WHERE i.id = player_item_id AND i.user_id = %1$s)'],
    ARRAY['player_item_medias',
      'EXISTS (SELECT 1 FROM public.player_stories s WHERE s.id = player_story_id AND s.user_id = %1$s) OR '
      'EXISTS (SELECT 1 FROM public.player_characters c WHERE c.id = player_character_id AND c.user_id = %1$s) OR '
      'EXISTS (SELECT 1 FROM public.player_items i WHERE i.id = player_item_id AND i.user_id = %1$s)']];
  catalogue_views text[] := ARRAY['blueprint_stories_with_ratings_view', 'first_moment_view'];
  player_views text[] := ARRAY['game_engine_view'];
  private_schemas text[] := ARRAY['looptale_private', 'looptale_auth', 'prompt_management', 'marketing', 'supabase_migrations'];
  supabase boolean := (SELECT count(*) = 3 FROM pg_roles WHERE rolname IN ('anon', 'authenticated', 'service_role'));
  clients constant text := 'anon, authenticated, service_role';
  t text;
  s text;
  i int;
BEGIN

-- Every table of ours, public or not, has RLS on: a grant made by mistake still shows no row to a client role. (The
-- ledger is left as the Supabase CLI made it: it may belong to another role there.)
FOR t IN SELECT format('%I.%I', n.nspname, c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'p') AND (n.nspname = ANY (private_schemas) AND n.nspname <> 'supabase_migrations' OR (n.nspname = 'public' AND c.relname = ANY (
      catalogue || owned || ARRAY(SELECT through[k][1] FROM generate_subscripts(through, 1) AS k)))) LOOP
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', t);
END LOOP;

FOREACH t IN ARRAY catalogue_views || player_views LOOP
  EXECUTE format('ALTER VIEW public.%I SET (security_invoker = true)', t);
END LOOP;

-- Functions run by triggers only: nobody calls them (PostgreSQL grants EXECUTE to PUBLIC by default).
REVOKE ALL ON FUNCTION public.player_ticket_redeemed_once() FROM PUBLIC;
FOREACH s IN ARRAY private_schemas LOOP
  EXECUTE format('REVOKE ALL ON SCHEMA %I FROM PUBLIC', s);
  EXECUTE format('REVOKE ALL ON ALL TABLES IN SCHEMA %I FROM PUBLIC', s);
  EXECUTE format('REVOKE ALL ON ALL SEQUENCES IN SCHEMA %I FROM PUBLIC', s);
END LOOP;

IF NOT supabase THEN
  RETURN;
END IF;

-- No client role reaches the server's schemas.
FOREACH s IN ARRAY private_schemas LOOP
  EXECUTE format('REVOKE ALL ON SCHEMA %I FROM %s', s, clients);
  EXECUTE format('REVOKE ALL ON ALL TABLES IN SCHEMA %I FROM %s', s, clients);
  EXECUTE format('REVOKE ALL ON ALL SEQUENCES IN SCHEMA %I FROM %s', s, clients);
END LOOP;
EXECUTE format('REVOKE ALL ON FUNCTION public.player_ticket_redeemed_once() FROM %s', clients);

-- Start from nothing on public's tables and views (Supabase's default privileges granted them ALL), then grant SELECT.
FOREACH t IN ARRAY catalogue || owned || catalogue_views || player_views
    || ARRAY(SELECT through[k][1] FROM generate_subscripts(through, 1) AS k) LOOP
  EXECUTE format('REVOKE ALL ON public.%I FROM %s', t, clients);
END LOOP;

FOREACH t IN ARRAY catalogue LOOP
  EXECUTE format('GRANT SELECT ON public.%I TO anon, authenticated, service_role', t);
  EXECUTE format('CREATE POLICY "catalogue: readable by everyone" ON public.%I FOR SELECT TO anon, authenticated USING (true)', t);
END LOOP;
FOREACH t IN ARRAY catalogue_views LOOP
  EXECUTE format('GRANT SELECT ON public.%I TO anon, authenticated, service_role', t);
END LOOP;

FOREACH t IN ARRAY owned LOOP
  EXECUTE format('GRANT SELECT ON public.%I TO authenticated, service_role', t);
  EXECUTE format('CREATE POLICY "player rows: their owner reads them" ON public.%I FOR SELECT TO authenticated USING (user_id = %s)', t, sub);
END LOOP;
FOR i IN 1 .. array_length(through, 1) LOOP
  EXECUTE format('GRANT SELECT ON public.%I TO authenticated, service_role', through[i][1]);
  EXECUTE format('CREATE POLICY "player rows: their owner reads them" ON public.%I FOR SELECT TO authenticated USING (%s)',
    through[i][1], format(through[i][2], sub));
END LOOP;
FOREACH t IN ARRAY player_views LOOP
  EXECUTE format('GRANT SELECT ON public.%I TO authenticated, service_role', t);
END LOOP;

-- Tables, sequences and functions `postgres` creates in public later are not granted to client roles by default:
-- each migration grants its own (Supabase's `auto_expose_new_tables = false`).
EXECUTE format('ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE ALL ON TABLES FROM %s', clients);
EXECUTE format('ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE ALL ON SEQUENCES FROM %s', clients);
EXECUTE format('ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE ALL ON FUNCTIONS FROM %s', clients);

END
$migration$;
