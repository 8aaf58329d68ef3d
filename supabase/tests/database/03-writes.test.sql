-- Writes: the game server is authoritative, so no client role may INSERT, UPDATE or DELETE anything in public, its
-- own rows included. Every relation x every caller x every write is refused with 42501 (permission denied), or for a
-- view PostgreSQL cannot write through at all (a join) with 55000, and no row changed.
begin;
\ir helpers/two-players.psql
select * from no_plan();

create table tests.before as
  select r.relname, (xpath('/row/n/text()', query_to_xml(format('select count(*) as n from public.%I', r.relname), false, true, '')))[1]::text::int as n
  from tests.relations r;
grant select on tests.before to anon, authenticated, service_role;

create function tests.writes(who text) returns setof text language plpgsql as $$
declare
  r record;
  own uuid;
  code text;
begin
  for r in select t.*, pg_relation_is_updatable(format('public.%I', t.relname)::regclass, false) as updatable
      from tests.relations t order by relname loop
    own := (select id from tests.rows x where x.relname = r.relname and (x.owner = who or x.owner is null) order by id limit 1);
    -- 28 = INSERT | UPDATE | DELETE possible at all (tables, simple views).
    code := case when r.updatable & 28 = 28 then '42501' else '55000' end;
    return next throws_ok(format('insert into public.%I default values', r.relname), code, null,
      format('%s cannot insert into public.%s (%s)', who, r.relname, code));
    return next throws_ok(format('update public.%I set %I = %I where %I = %L', r.relname, r.key, r.key, r.key, own), code, null,
      format('%s cannot update public.%s, its own row included (%s)', who, r.relname, code));
    return next throws_ok(format('delete from public.%I where %I = %L', r.relname, r.key, own), code, null,
      format('%s cannot delete from public.%s, its own row included (%s)', who, r.relname, code));
  end loop;
end $$;

select tests.authenticate_as('anon');
select * from tests.writes('anon');
select tests.clear_authentication();
select tests.authenticate_as('ada');
select * from tests.writes('ada');
select tests.clear_authentication();
select tests.authenticate_as('ben');
select * from tests.writes('ben');
select tests.clear_authentication();
select tests.authenticate_as('service_role');
select * from tests.writes('service_role');
select tests.clear_authentication();

select is((xpath('/row/n/text()', query_to_xml(format('select count(*) as n from public.%I', b.relname), false, true, '')))[1]::text::int,
    b.n, format('public.%s still has its %s rows', b.relname, b.n))
  from tests.before b order by b.relname;

select * from finish();
rollback;
