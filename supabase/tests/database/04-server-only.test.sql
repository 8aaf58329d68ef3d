-- The game server's schemas (looptale_private: secrets, processed inputs, game states, transcripts, story authors
-- and roles, story versions, drafts, revisions and the version each run plays; looptale_auth:
-- local sign-in; prompt_management; marketing; the migration ledger): every table x every client role x every
-- operation is refused with 42501, whatever the rows.
begin;
\ir helpers/two-players.psql
select * from no_plan();

insert into looptale_private.server_settings (key, value) values ('tests.secret', 'a secret no client may read');

create function tests.server_only(who text) returns setof text language plpgsql as $$
declare
  r record;
begin
  for r in select n.nspname as s, c.relname as t,
        (select a.attname from pg_attribute a where a.attrelid = c.oid and a.attnum = 1) as col
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and n.nspname in ('looptale_private', 'looptale_auth', 'prompt_management', 'marketing', 'supabase_migrations')
      order by 1, 2 loop
    return next throws_ok(format('select * from %I.%I', r.s, r.t), '42501', null, format('%s cannot read %s.%s', who, r.s, r.t));
    return next throws_ok(format('insert into %I.%I default values', r.s, r.t), '42501', null, format('%s cannot insert into %s.%s', who, r.s, r.t));
    return next throws_ok(format('update %I.%I set %I = %I', r.s, r.t, r.col, r.col), '42501', null, format('%s cannot update %s.%s', who, r.s, r.t));
    return next throws_ok(format('delete from %I.%I', r.s, r.t), '42501', null, format('%s cannot delete from %s.%s', who, r.s, r.t));
  end loop;
end $$;

select cmp_ok((select count(*)::int from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and n.nspname in ('looptale_private', 'looptale_auth', 'prompt_management', 'marketing', 'supabase_migrations')),
  '>=', 21, 'the server-only schemas hold their 21 tables at least');

select tests.authenticate_as('anon');
select * from tests.server_only('anon');
select tests.clear_authentication();
select tests.authenticate_as('ada');
select * from tests.server_only('ada');
select tests.clear_authentication();
select tests.authenticate_as('service_role');
select * from tests.server_only('service_role');
select tests.clear_authentication();

select is((select value from looptale_private.server_settings where key = 'tests.secret'), 'a secret no client may read',
  'the secret is unchanged');

select * from finish();
rollback;
