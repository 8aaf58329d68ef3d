// Players could neither delete nor export their data, while the privacy page promises deletion on request. Now
// GET /api/me/export gives everything stored about the caller (JSON, with each run's transcript as JSONL) and
// POST /api/me/delete removes the account and everything it owns, after the email typed again and a re-authentication.
// The check below lists every table from the database itself, so a table added later cannot be missed.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../cli/lib/game-client.js';
import { runPlanRemote } from '../cli/lib/remote-plan.js';
import { GameSocket } from '../cli/lib/game-client.js';
import { parsePlan } from '../engine/story/testplan.js';
import type { PlayerStory } from '../engine/schema/player.js';
import { claimsOf, uniqueEmail } from './helpers/auth.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const ROOT = join(import.meta.dirname, '../fixtures/stories');
const LANTERN = '8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a';
const PASSWORD = 'keeper of the marsh lantern';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ SEED_STORIES: 'true', STORIES_DIR: ROOT });
}, 120_000);
afterAll(async () => {
  await srv.close();
});

/** The CLI as a player runs it (bin/looptale.js), with no account from the environment. */
function looptale(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/looptale.js', ...args], { cwd: join(import.meta.dirname, '..'), env: { ...process.env, LOOPTALE_TOKEN: '', LOOPTALE_EMAIL: '', LOOPTALE_PASSWORD: '' } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

type Player = { api: Api; email: string; id: string; runs: string[] };

/** A player who won a run of the lantern story (runs, moments, cards, a ticket, a transcript) and sent feedback. */
async function player(prefix: string): Promise<Player> {
  const email = uniqueEmail(prefix);
  const api = new Api(srv.url);
  await api.signUp(email, PASSWORD);
  const run = await api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: LANTERN, language: 'english' });
  const socket = await GameSocket.connect(srv.url, api.token ?? '');
  const plan = parsePlan(readFileSync(join(ROOT, 'lantern-keeper', 'win.en.testplan'), 'utf8'));
  if (!plan.ok) throw new Error(plan.error);
  const played = await runPlanRemote(api, socket, run.id, plan.steps);
  await socket.close();
  expect(played.failure).toBeNull();
  await api.request('POST', '/api/feedback', { kind: 'idea', message: `more lanterns from ${prefix}` });
  return { api, email, id: String(claimsOf(api.token ?? '').sub), runs: [run.id] };
}

/** Per table (listed from the catalog), the rows whose text mentions any of `needles`. */
async function mentions(needles: string[]): Promise<Record<string, number>> {
  const tables = await srv.services.db.query<{ t: string }>(
    `SELECT format('%I.%I', table_schema, table_name) AS t FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
  );
  expect(tables.rows.length).toBeGreaterThan(40);
  const out: Record<string, number> = {};
  for (const { t } of tables.rows) {
    const where = needles.map((_, i) => `strpos(lower(x::text), $${i + 1}) > 0`).join(' OR ');
    const r = await srv.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t} AS x WHERE ${where}`, needles.map((n) => n.toLowerCase()));
    if (r.rows[0]!.n) out[t] = r.rows[0]!.n;
  }
  return out;
}

async function post(p: Player, body: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${srv.url}/api/me/delete`, { method: 'POST', headers: { authorization: `Bearer ${p.api.token ?? ''}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('defect 36.7: players can export and delete their data', () => {
  let a: Player;
  let b: Player;
  let aRows: Record<string, number>;
  beforeAll(async () => {
    a = await player('leaving');
    b = await player('staying');
    const moments = await srv.services.db.query<{ id: string }>('SELECT id::text AS id FROM player_moments WHERE user_id = $1', [a.id]);
    a.runs.push(...moments.rows.map((m) => m.id));
    aRows = await mentions([a.id, a.email, ...a.runs]);
  }, 240_000);

  it('the export holds the account, the rows of every table with the player in it, and the transcripts; no secret', async () => {
    const res = await fetch(`${srv.url}/api/me/export`, { headers: { authorization: `Bearer ${a.api.token ?? ''}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('attachment');
    const text = await res.text();
    const data = JSON.parse(text) as { account: { email: string }; tables: Record<string, unknown[]>; transcripts: Record<string, string> };
    expect(data.account.email).toBe(a.email);
    for (const table of ['public.player_stories', 'public.player_moments', 'public.player_characters', 'looptale_private.feedback', 'looptale_auth.sessions']) {
      expect(data.tables[table]?.length, table).toBeGreaterThan(0);
    }
    const transcript = data.transcripts[a.runs[0]!] ?? '';
    expect(transcript.split('\n').filter(Boolean).length).toBeGreaterThan(3);
    expect(text).not.toContain(b.id);
    expect(text).not.toMatch(/argon2id|encrypted_password|token_hash/);
  });

  it('deletion asks for the email typed again, and a re-authentication once the sign-in is old; refused, it changes nothing', async () => {
    expect(await post(a, { confirm: 'someone@else.example' })).toMatchObject({ status: 400, body: { error: { code: 'account/confirmation_mismatch' } } });
    await srv.services.db.query("UPDATE looptale_auth.sessions SET created_at = created_at - interval '1 hour' WHERE user_id = $1", [a.id]);
    expect(await post(a, { confirm: a.email })).toMatchObject({ status: 400, body: { error: { code: 'auth/reauthentication_needed' } } });
    expect(await post(a, { confirm: a.email, current_password: 'not the password' })).toMatchObject({ status: 422 });
    expect(await mentions([a.id, a.email, ...a.runs])).toEqual(aRows);
  });

  it('deletion removes every row of the player in every table, ends the sessions, and leaves the other player alone', async () => {
    expect(Object.keys(aRows)).toEqual(expect.arrayContaining(['public.player_stories', 'looptale_private.player_story_transcripts', 'looptale_private.feedback', 'looptale_auth.users', 'looptale_auth.sessions']));
    const bBefore = await mentions([b.id, b.email]);
    const out = await post(a, { confirm: a.email.toUpperCase(), current_password: PASSWORD });
    expect(out).toMatchObject({ status: 200, body: { deleted: true } });
    expect(await mentions([a.id, a.email, ...a.runs])).toEqual({});
    expect(await mentions([b.id, b.email])).toEqual(bBefore);
    expect((await fetch(`${srv.url}/api/me`, { headers: { authorization: `Bearer ${a.api.token ?? ''}` } })).status).toBe(401);
    await expect(new Api(srv.url).signIn(a.email, PASSWORD)).rejects.toThrow();
  });

  it('the CLI exports and deletes an account the same way', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'looptale-export-'));
    try {
      const login = ['--url', srv.url, '--email', b.email, '--password', PASSWORD];
      const exported = await looptale(['account', 'export', ...login, '--out', join(dir, 'data.json')]);
      expect(exported.stderr).toBe('');
      expect(exported.code).toBe(0);
      const data = JSON.parse(readFileSync(join(dir, 'data.json'), 'utf8')) as { account: { email: string }; transcripts: Record<string, string> };
      expect(data.account.email).toBe(b.email);
      expect(Object.keys(data.transcripts)).toHaveLength(1);
      const refused = await looptale(['account', 'delete', ...login, '--confirm', 'not-me@example.com']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('Type the email address of this account');
      const deleted = await looptale(['account', 'delete', ...login, '--confirm', b.email]);
      expect(deleted.stdout).toMatch(/^account deleted: \d+ rows in \d+ tables/);
      expect(await mentions([b.id, b.email, ...b.runs])).toEqual({});
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
