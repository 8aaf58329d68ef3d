-- Reads, for every relation of public and every caller (anon; Ada and Ben, signed in; the service key), as PostgREST
-- runs a request: SET LOCAL ROLE + request.jwt.claims. The catalogue: every row for everyone. Player rows: only the
-- caller's own (the token's `sub`), none and an error for anon; every row for the service key.
begin;
\ir helpers/two-players.psql
select * from no_plan();

select ok((select count(*) from tests.rows x where x.relname = r.relname and x.owner = 'ada') > 0
      and (select count(*) from tests.rows x where x.relname = r.relname and x.owner = 'ben') > 0,
    format('the fixture has rows of both players in %s', r.relname))
  from tests.relations r where r.kind like 'player%' order by r.relname;

create function tests.reads(who text) returns setof text language plpgsql as $$
declare
  r record;
begin
  for r in select * from tests.relations order by relname loop
    if r.kind like 'player%' and who = 'anon' then
      return next throws_ok(format('select * from public.%I', r.relname), '42501', null,
        format('anon cannot read public.%s', r.relname));
    else
      return next results_eq(
        format('select %I from public.%I order by 1', r.key, r.relname),
        format('select id from tests.rows where relname = %L and (owner is null or owner = %L or %L = ''service_role'') order by 1',
          r.relname, who, who),
        format('%s reads %s of public.%s', who,
          case when r.kind like 'catalogue%' then 'every row' when who = 'service_role' then 'every player''s rows' else 'only their own rows' end,
          r.relname));
    end if;
  end loop;
end $$;

select tests.authenticate_as('anon');
select * from tests.reads('anon');
select tests.clear_authentication();

select tests.authenticate_as('ada');
select * from tests.reads('ada');
-- Asking for another player's rows by id finds nothing.
select is_empty(format('select id from public.player_stories where user_id = %L', tests.user_id('ben')),
  'Ada asking for Ben''s runs by user_id gets none');
select is_empty(format('select player_story_id from public.game_engine_view where player_story_id = %L', tests.uid('ben player_stories')),
  'Ada asking for Ben''s game view by player_story_id gets none');
-- The game screen's card pictures (0009_game_view_cards.sql), read through her own rows and the catalogue's.
select is((select card_images from public.game_engine_view where player_story_id = tests.uid('ada player_stories')),
  jsonb_build_object(tests.uid('ada player_characters')::text, 'nell-run.jpg', tests.uid('ada player_items')::text, 'rope-run.jpg',
    tests.uid('ada player_opponents')::text, 'c.jpg'),
  'Ada''s game view gives the picture of each of her cards: her character, her item, her opponent');
select is((select max_number_of_characters from public.game_engine_view where player_story_id = tests.uid('ada player_stories')), null,
  '... and no team size outside an Assemble moment');
select tests.clear_authentication();

select tests.authenticate_as('ben');
select * from tests.reads('ben');
select tests.clear_authentication();

select tests.authenticate_as('service_role');
select * from tests.reads('service_role');
select tests.clear_authentication();

-- A signed-in role whose token carries no claims, or a `sub` that is nobody's, reads no player row.
set local role authenticated;
select is_empty('select id from public.player_stories', 'authenticated without claims reads no player row');
select set_config('request.jwt.claims', '{"sub":"00000000-0000-0000-0000-000000000000","role":"authenticated"}', true);
select is_empty('select player_story_id from public.game_engine_view', 'authenticated with an unknown sub reads no game view');
select isnt_empty('select id from public.blueprint_stories', '... and still reads the catalogue');
reset role;

select * from finish();
rollback;
