-- The layout that Row Level Security rests on: every relation of public known and meant, RLS on every table the
-- migrations own, views security_invoker, exact grants per relation and client role, no client role in the server's
-- schemas, no default privileges handing new tables to client roles.
begin;
\ir helpers/two-players.psql
select * from no_plan();

select is(
  array(select c.relname::text from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f')
        except select relname from tests.relations order by 1),
  '{}'::text[],
  'every table and view in public is one the tests know (tests.relations): a new one needs its grants, policy and a line there');
select ok(to_regclass(format('public.%I', relname)) is not null, format('public.%s exists', relname)) from tests.relations order by relname;

select ok(c.relrowsecurity, format('RLS is on for %s.%s', n.nspname, c.relname))
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p') and n.nspname in ('public', 'looptale_private', 'looptale_auth', 'prompt_management', 'marketing')
  order by n.nspname, c.relname;
select ok(not c.relforcerowsecurity, format('%s.%s does not force RLS on its owner (the game server)', n.nspname, c.relname))
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p') and n.nspname = 'public' order by c.relname;

select ok(coalesce('security_invoker=true' = any (c.reloptions), false), format('view public.%s is security_invoker', c.relname))
  from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind = 'v' order by c.relname;

-- Exactly SELECT where clients may read, nothing else (no INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER).
select table_privs_are('public', r.relname, g.role,
    case when r.kind like 'catalogue%' or g.role <> 'anon' then array['SELECT'] else '{}'::text[] end,
    format('%s may %s public.%s', g.role, case when r.kind like 'catalogue%' or g.role <> 'anon' then 'only SELECT' else 'do nothing on' end, r.relname))
  from tests.relations r cross join (values ('anon'), ('authenticated'), ('service_role')) as g (role)
  order by r.relname, g.role;

select schema_privs_are(s.name, g.role, '{}'::text[], format('%s has no access to schema %s', g.role, s.name))
  from (values ('looptale_private'), ('looptale_auth'), ('prompt_management'), ('marketing'), ('supabase_migrations')) as s (name)
  cross join (values ('anon'), ('authenticated'), ('service_role')) as g (role)
  order by s.name, g.role;
select table_privs_are(n.nspname, c.relname, g.role, '{}'::text[], format('%s has no privilege on %s.%s', g.role, n.nspname, c.relname))
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  cross join (values ('anon'), ('authenticated'), ('service_role')) as g (role)
  where c.relkind in ('r', 'p', 'v') and n.nspname in ('looptale_private', 'looptale_auth', 'prompt_management', 'marketing', 'supabase_migrations')
  order by n.nspname, c.relname, g.role;

select ok(not has_function_privilege(g.role, 'public.player_ticket_redeemed_once()', 'EXECUTE'),
    format('%s cannot execute public.player_ticket_redeemed_once()', g.role))
  from (values ('anon'), ('authenticated'), ('service_role')) as g (role);

select is(
  (select count(*)::int from pg_default_acl d, aclexplode(d.defaclacl) a
    where d.defaclrole = 'postgres'::regrole and a.grantee in ('anon'::regrole, 'authenticated'::regrole, 'service_role'::regrole)),
  0, 'tables, sequences and functions postgres creates later are granted to no client role by default');

-- The server's own tables are where the migrations put them, and local auth is not in Supabase Auth's schema.
select has_table('looptale_private', t, format('looptale_private.%s exists', t))
  from unnest(array['server_settings', 'processed_inputs', 'player_story_states', 'player_story_transcripts', 'feedback', 'voice_misses',
    'story_authors', 'user_roles', 'media_uploads', 'story_versions', 'story_drafts', 'story_revisions', 'story_draft_snapshots', 'story_deletions', 'run_versions']) as t;
select has_table('looptale_auth', t, format('looptale_auth.%s exists', t))
  from unnest(array['users', 'identities', 'sessions', 'refresh_tokens', 'one_time_tokens', 'flow_state', 'oauth_states']) as t;
select hasnt_table('auth', 'oauth_states', 'nothing of Looptale''s in auth');

select * from finish();
rollback;
