// The game server on a database set up as a hosted Supabase project is (the stand-in: Supabase's roles, Supabase Auth's
// own `auth` schema, `postgres` no superuser), signing players in with the project's tokens (AUTH_PROVIDER=supabase):
// - it migrates and plays as `postgres`, and writes nothing into Supabase Auth's tables (nor its own local auth tables);
// - what the spec's web client asks PostgREST for, through the real @supabase/supabase-js client, returns each player
//   only their own rows, and every write the spec's client made is refused. PostgREST cannot be installed here: the
//   requests go through tests/helpers/postgrest.ts, which runs the SQL PostgREST builds for them, as PostgREST runs it
//   (as `authenticator`, SET ROLE from the token, the claims in request.jwt.claims).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Api, GameSocket } from '../cli/lib/game-client.js';
import { runPlanRemote } from '../cli/lib/remote-plan.js';
import { parsePlan } from '../engine/story/testplan.js';
import { supabaseDatabase } from './helpers/databases.js';
import { postgrestStandin, type PostgrestStandin } from './helpers/postgrest.js';
import { startTestServer, type TestServer } from './helpers/server.js';

vi.setConfig({ testTimeout: 120_000 });

const SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';
const STORIES = join(import.meta.dirname, '../fixtures/stories');

function token(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT({ aud: 'authenticated', role: 'authenticated', ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuer('https://project-ref.supabase.co/auth/v1')
    .setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode(SECRET));
}

type Client = ReturnType<typeof client>;
type Player = { id: string; email: string; token: string; api: Api; sb: Client };

let db: { url: string; adminUrl: string };
let admin: pg.Client;
let srv: TestServer;
let rest: PostgrestStandin;
let anon: Client;
let ada: Player;
let ben: Player;
let authBefore: Record<string, string>;
let story = '';

/** A checksum of every table of Supabase Auth's schema (rows and all). */
async function authChecksums(): Promise<Record<string, string>> {
  const tables = await admin.query<{ t: string }>("SELECT tablename AS t FROM pg_tables WHERE schemaname = 'auth' ORDER BY 1");
  const out: Record<string, string> = {};
  for (const { t } of tables.rows) {
    const r = await admin.query<{ h: string }>(`SELECT md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS h FROM auth."${t}" x`);
    out[t] = r.rows[0]?.h ?? '';
  }
  return out;
}

function client(key: string, accessToken?: string) {
  return createClient('http://project-ref.supabase.test', key, {
    global: { fetch: rest.fetch },
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    ...(accessToken ? { accessToken: () => Promise.resolve(accessToken) } : {}),
  });
}

async function player(name: string, anonKey: string): Promise<Player> {
  const id = randomUUID();
  const email = `${name}@example.com`;
  // As Supabase Auth signs a user up (the stand-in has no Auth server): a row in auth.users, then tokens with its id.
  await admin.query(
    `INSERT INTO auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
     VALUES ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, '', now(), '{"provider":"email","providers":["email"]}', '{}', now(), now())`,
    [id, email],
  );
  const t = await token({ sub: id, email });
  return { id, email, token: t, api: new Api(srv.url, t), sb: client(anonKey, t) };
}

const plan = (file: string) => {
  const p = parsePlan(readFileSync(join(STORIES, 'lantern-keeper', file), 'utf8'));
  if (!p.ok) throw new Error(p.error);
  return p.steps;
};

beforeAll(async () => {
  db = await supabaseDatabase('project');
  admin = new pg.Client({ connectionString: db.adminUrl });
  await admin.connect();
  srv = await startTestServer({ DATABASE_URL: db.url, AUTH_PROVIDER: 'supabase', SUPABASE_JWT_SECRET: SECRET, SEED_STORIES: 'true', STORIES_DIR: STORIES });
  const authenticator = new URL(db.url);
  authenticator.username = 'authenticator';
  rest = postgrestStandin(authenticator.toString(), SECRET);
  const anonKey = await new SignJWT({ role: 'anon', iss: 'supabase' }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode(SECRET));
  anon = client(anonKey);
  ada = await player('ada', anonKey);
  ben = await player('ben', anonKey);
  authBefore = await authChecksums();

  story = (await ada.api.request<{ id: string; name: string }[]>('GET', '/api/stories')).find((s) => s.name === 'The Lantern Keeper')?.id ?? '';
  // Ada wins (Rank A: a golden ticket) and redeems her ticket; Ben starts a run and plays its first moment.
  const run = await ada.api.request<{ id: string }>('POST', '/api/player-stories', { blueprint_story_id: story, language: 'english' });
  const sa = await GameSocket.connect(srv.url, ada.token);
  expect((await runPlanRemote(ada.api, sa, run.id, plan('win.en.testplan'))).failure).toBeNull();
  await sa.close();
  const tickets = await ada.api.request<{ id: string }[]>('GET', '/api/tickets');
  const view = await ada.api.request<{ enrolled_characters: { character_id: string }[] }>('GET', `/api/player-stories/${run.id}/game-view`);
  await ada.api.request('POST', `/api/tickets/${tickets[0]?.id ?? ''}/redeem`, { card: { kind: 'character', id: view.enrolled_characters[0]?.character_id ?? '' } });
  const benRun = await ben.api.request<{ id: string }>('POST', '/api/player-stories', { blueprint_story_id: story, language: 'french' });
  const sb = await GameSocket.connect(srv.url, ben.token);
  expect((await runPlanRemote(ben.api, sb, benRun.id, plan('win.fr.testplan').slice(0, 5))).failure).toBeNull();
  await sb.close();
});

afterAll(async () => {
  await srv?.close();
  await rest?.close();
  await admin?.end();
});

/** Ground truth, read as the superuser: the ids of `table` rows owned by `p` (through user_id). */
async function idsOf(table: string, p: Player): Promise<string[]> {
  return (await admin.query<{ id: string }>(`SELECT id FROM public."${table}" WHERE user_id = $1 ORDER BY id`, [p.id])).rows.map((r) => r.id);
}

describe('the game server on a Supabase project (AUTH_PROVIDER=supabase)', () => {
  it('played both runs as `postgres` and wrote nothing into Supabase Auth, nor into its own local auth tables', async () => {
    expect((await admin.query('SELECT current_setting($1) AS v', ['server_version'])).rows[0]).toBeDefined();
    expect(await idsOf('player_stories', ada)).toHaveLength(1);
    expect(await idsOf('player_permanent_characters', ada)).toHaveLength(1);
    expect(await idsOf('player_stories', ben)).toHaveLength(1);
    expect(await authChecksums()).toEqual(authBefore);
    const local = await admin.query<{ n: number }>(
      "SELECT (SELECT count(*) FROM looptale_auth.users) + (SELECT count(*) FROM looptale_auth.sessions) + (SELECT count(*) FROM looptale_auth.refresh_tokens) AS n",
    );
    expect(Number(local.rows[0]?.n)).toBe(0);
    const role = await admin.query<{ super: boolean }>("SELECT rolsuper AS super FROM pg_roles WHERE rolname = 'postgres'");
    expect(role.rows[0]?.super).toBe(false);
  });
});

describe('the spec’s postgrest-js queries, as PostgREST runs them, return a player only their own rows', () => {
  it('catalogue: the ratings view, moments, images and a story’s interaction limit, for everyone', async () => {
    for (const c of [anon, ada.sb, ben.sb]) {
      const stories = await c.from('blueprint_stories_with_ratings_view').select('*').order('created_at', { ascending: false });
      expect(stories.error).toBeNull();
      expect(stories.data?.map((s: { name: string }) => s.name)).toContain('The Lantern Keeper');
      const moments = await c.from('blueprint_moments').select('*').eq('blueprint_story_id', story).order('created_at', { ascending: true });
      expect(moments.data?.length).toBeGreaterThan(5);
      const first = await c.from('first_moment_view').select('*').eq('blueprint_story_id', story).single();
      expect(first.error).toBeNull();
      const character = (first.data as { blueprint_character_id: string | null }).blueprint_character_id;
      const images = await c.from('blueprint_character_medias').select('media_url').eq('blueprint_character_id', character ?? '').order('created_at', { ascending: false });
      expect(images.error).toBeNull();
      const limit = await c.from('blueprint_stories').select('loop_max_number_of_interactions').eq('id', story).single();
      expect(limit.error).toBeNull();
    }
    // What PostgREST was asked: the real client's requests, run as SQL in PostgREST's shape.
    expect(rest.log.some((s) => s.sql.startsWith('WITH pgrst_source AS ( SELECT "public"."blueprint_stories_with_ratings_view".*'))).toBe(true);
  });

  it('launch: the best run and the highest loop number are the caller’s own, whatever user_id the query names', async () => {
    const adaRun = (await idsOf('player_stories', ada))[0];
    for (const [me, other] of [[ada, ben], [ben, ada]] as const) {
      const best = await me.sb.from('player_stories').select('id, is_successful_run, loop_rank, created_at')
        .eq('user_id', me.id).eq('blueprint_story_id', story)
        .order('is_successful_run', { ascending: false }).order('loop_rank', { ascending: true }).order('created_at', { ascending: false })
        .limit(1).maybeSingle();
      expect(best.error).toBeNull();
      expect((best.data as { id: string } | null)?.id).toBe((await idsOf('player_stories', me))[0]);
      // The same query naming the other player finds nothing (RLS filters before the query's own filter).
      const theirs = await me.sb.from('player_stories').select('id').eq('user_id', other.id).eq('blueprint_story_id', story)
        .order('loop_number', { ascending: false }).limit(1).maybeSingle();
      expect(theirs).toMatchObject({ data: null, error: null });
      // With no filter at all: only their own runs.
      const all = await me.sb.from('player_stories').select('*');
      expect((all.data as { user_id: string }[]).map((r) => r.user_id)).toEqual([me.id]);
    }
    const byId = await ben.sb.from('player_stories').select('blueprint_story_id').eq('id', adaRun ?? '').single();
    expect(byId.error?.code).toBe('PGRST116');
    expect((await anon.from('player_stories').select('*')).error?.code).toBe('42501');
  });

  it('tickets: the list with its story, one ticket, the game view and the card images are the caller’s own', async () => {
    const mine = await ada.sb.from('player_permanent_character_tickets').select('*, blueprint_stories(id, name, story_logo_image)')
      .eq('user_id', ada.id).order('created_at', { ascending: false });
    expect(mine.error).toBeNull();
    expect(mine.data).toHaveLength(1);
    expect((mine.data?.[0] as { blueprint_stories: { name: string } }).blueprint_stories.name).toBe('The Lantern Keeper');
    const ticketId = (mine.data?.[0] as { id: string }).id;
    expect((await ben.sb.from('player_permanent_character_tickets').select('*, blueprint_stories(id, name, story_logo_image)').order('created_at', { ascending: false })).data).toEqual([]);
    expect((await ben.sb.from('player_permanent_character_tickets').select('*').eq('id', ticketId).eq('user_id', ada.id).eq('is_redeemed', true).single()).error?.code).toBe('PGRST116');

    const adaRun = (await idsOf('player_stories', ada))[0] ?? '';
    const benRun = (await idsOf('player_stories', ben))[0] ?? '';
    const view = await ada.sb.from('game_engine_view').select('enrolled_characters').eq('player_story_id', adaRun).limit(1);
    expect((view.data?.[0] as { enrolled_characters: unknown[] }).enrolled_characters.length).toBeGreaterThan(0);
    expect((await ada.sb.from('game_engine_view').select('*').eq('player_story_id', benRun).limit(1)).data).toEqual([]);
    expect((await ben.sb.from('game_engine_view').select('player_story_id')).data).toEqual([{ player_story_id: benRun }]);

    const adaCharacter = (await idsOf('player_characters', ada))[0] ?? '';
    const owner = await ada.sb.from('player_characters').select('player_story_id').eq('id', adaCharacter).single();
    expect(owner.data).toEqual({ player_story_id: adaRun });
    expect((await ben.sb.from('player_characters').select('player_story_id').eq('id', adaCharacter).single()).error?.code).toBe('PGRST116');
    for (const table of ['player_character_medias', 'player_item_medias', 'player_character_items', 'player_opponents', 'player_permanent_character_medias', 'player_permanent_characters', 'player_permanent_character_items', 'player_moments', 'player_items']) {
      const asBen = await ben.sb.from(table).select('*');
      const asAda = await ada.sb.from(table).select('*');
      expect(asBen.error, table).toBeNull();
      const adaIds = new Set((asAda.data as { id: string }[]).map((r) => r.id));
      expect((asBen.data as { id: string }[]).filter((r) => adaIds.has(r.id)), `${table}: rows both players see`).toEqual([]);
      expect((await anon.from(table).select('*')).error?.code, table).toBe('42501');
    }
    const permanent = await ada.sb.from('player_permanent_characters').select('*, player_permanent_character_items(*), player_permanent_character_medias(media_url)');
    expect(permanent.data).toHaveLength(1);
  });

  it('every write the spec’s client made is refused: run creation, moment updates, redemption', async () => {
    const adaRun = (await idsOf('player_stories', ada))[0] ?? '';
    const ticket = (await idsOf('player_permanent_character_tickets', ada))[0] ?? '';
    const writes = [
      ada.sb.from('player_stories').insert({ user_id: ada.id, blueprint_story_id: story, language: 'english', loop_number: 9 }).select().single(),
      ada.sb.from('player_moments').update({ completed_at: null }).eq('player_story_id', adaRun),
      ada.sb.from('player_stories').update({ loop_rank: 1, is_successful_run: true }).eq('id', adaRun),
      ada.sb.from('player_permanent_character_tickets').update({ is_redeemed: false, redeemed_at: null }).eq('id', ticket),
      ada.sb.from('player_permanent_characters').insert({ user_id: ada.id, name: 'Forged', current_attack: 99, current_health: 99, max_health: 99, redeemed_ticket_id: ticket }),
      ada.sb.from('player_stories').delete().eq('id', adaRun),
      ada.sb.from('blueprint_stories').update({ name: 'Defaced' }).eq('id', story),
    ];
    for (const w of await Promise.all(writes)) expect(w.error?.code).toBe('42501');
    expect((await anon.from('player_stories').insert({ user_id: ada.id, blueprint_story_id: story, language: 'english', loop_number: 9 })).status).toBe(401);
    expect((await ada.sb.from('player_stories').delete().eq('id', adaRun)).status).toBe(403);
    const after = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM public.player_stories');
    expect(after.rows[0]?.n).toBe(2);
  });
});
