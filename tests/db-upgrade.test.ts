// A database made by the previous version (fixtures/db/looptale-0.1.sql.gz: local auth in `auth`, server tables and the
// ledger in public) migrates forward on PGlite and on PostgreSQL: every row kept, its old ledger adopted into the one
// the Supabase CLI shares, the same layout as a fresh database, and its players play on (old passwords, runs, tickets,
// permanent cards, a replayed input answered from its first outputs, a run in progress played to its end).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, GameSocket } from '../cli/lib/game-client.js';
import { runPlanRemote } from '../cli/lib/remote-plan.js';
import { parsePlan } from '../engine/story/testplan.js';
import type { Db } from '../server/db/db.js';
import { migrate, migrationFiles } from '../server/db/migrate.js';
import { openPglite } from '../server/db/pglite.js';
import { openPostgres } from '../server/db/postgres.js';
import { legacyDump, postgresDatabase, rowCounts, schemaFingerprint } from './helpers/databases.js';
import { startTestServer } from './helpers/server.js';

const tempDirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'looptale-upgrade-'));
  tempDirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
});

/** Where each table of the previous version lives now. */
const MOVED: Record<string, string> = {
  'public.server_settings': 'looptale_private.server_settings',
  'public.processed_inputs': 'looptale_private.processed_inputs',
  'public.player_story_states': 'looptale_private.player_story_states',
  'public.player_story_transcripts': 'looptale_private.player_story_transcripts',
  ...Object.fromEntries(['users', 'identities', 'sessions', 'refresh_tokens', 'one_time_tokens', 'flow_state', 'oauth_states']
    .map((t) => [`auth.${t}`, `looptale_auth.${t}`])),
};

type Target = {
  name: string;
  /** Restores the fixture (as the previous version left it) and returns how to reach it. */
  restore(): Promise<{ env: Record<string, string>; open(): Promise<Db> }>;
  fresh(): Promise<Db>;
};

const TARGETS: Target[] = [
  {
    name: 'PGlite',
    async restore() {
      const dir = tempDir();
      const old = new PGlite(join(dir, 'pglite'));
      await old.exec(legacyDump());
      await old.close();
      return { env: { DATA_DIR: dir }, open: () => openPglite(dir) };
    },
    fresh: () => openPglite(tempDir()),
  },
  {
    name: 'PostgreSQL',
    async restore() {
      const url = await postgresDatabase('legacy');
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        await c.query(legacyDump());
      } finally {
        await c.end();
      }
      return { env: { DATABASE_URL: url }, open: () => openPostgres(url, 4) };
    },
    fresh: async () => openPostgres(await postgresDatabase('fresh'), 4),
  },
];

describe.each(TARGETS)('a database made by the previous version, on $name', (target) => {
  let where: Awaited<ReturnType<Target['restore']>>;
  let before: Record<string, number>;
  let users: { id: string; email: string; encrypted_password: string }[];
  let applied: string[];

  beforeAll(async () => {
    where = await target.restore();
    const db = await where.open();
    try {
      before = await rowCounts(db);
      users = (await db.query<{ id: string; email: string; encrypted_password: string }>('SELECT id, email, encrypted_password FROM auth.users ORDER BY email')).rows;
      applied = await migrate(db);
    } finally {
      await db.close();
    }
  });

  it('is the fixture it claims to be: two players, runs, a ticket, the old ledger', () => {
    expect(users.map((u) => u.email)).toEqual(['ada@example.com', 'ben@example.com']);
    expect(before['public.schema_migrations']).toBe(2);
    expect(before['public.player_stories']).toBe(2);
    expect(before['public.player_permanent_characters']).toBe(1);
    expect(before['auth.sessions']).toBeGreaterThanOrEqual(2);
  });

  it('applies only what the previous version did not have, and keeps every row where it moved', async () => {
    expect(applied).toEqual(migrationFiles().map((m) => m.file).filter((f) => !['0001_core.sql', '0002_auth.sql'].includes(f)));
    const db = await where.open();
    try {
      const after = await rowCounts(db);
      for (const [table, n] of Object.entries(before)) {
        if (table === 'public.schema_migrations') continue;
        const now = MOVED[table] ?? table;
        expect([now, after[now]], table).toEqual([now, n]);
      }
      expect(after['supabase_migrations.schema_migrations']).toBe(migrationFiles().length);
      const left = await db.query("SELECT to_regclass('public.schema_migrations') AS old, to_regnamespace('auth') AS auth");
      expect(left.rows[0]).toEqual({ old: null, auth: null });
      const moved = await db.query('SELECT id, email, encrypted_password FROM looptale_auth.users ORDER BY email');
      expect(moved.rows).toEqual(users);
      // The ledger names the previous version's migrations as the Supabase CLI would.
      const ledger = await db.query<{ version: string; name: string }>('SELECT version, name FROM supabase_migrations.schema_migrations ORDER BY version');
      expect(ledger.rows.slice(0, 2)).toEqual([{ version: '0001', name: 'core' }, { version: '0002', name: 'auth' }]);
    } finally {
      await db.close();
    }
  });

  it('ends with exactly the layout of a fresh database', async () => {
    const fresh = await target.fresh();
    const db = await where.open();
    try {
      await migrate(fresh);
      const [a, b] = [await schemaFingerprint(db), await schemaFingerprint(fresh)];
      expect(a.length).toBeGreaterThan(300);
      expect(a.filter((x) => !b.includes(x))).toEqual([]);
      expect(b.filter((x) => !a.includes(x))).toEqual([]);
    } finally {
      await db.close();
      await fresh.close();
    }
  });

  it('serves its players as before: passwords, runs, tickets, cards, replays, and a run in progress played to its end', async () => {
    const srv = await startTestServer(where.env);
    try {
      const ada = new Api(srv.url);
      await ada.signIn('ada@example.com', 'ada-legacy-password-1');
      const tickets = await ada.request<{ is_redeemed: boolean }[]>('GET', '/api/tickets');
      expect(tickets.map((t) => t.is_redeemed)).toEqual([true]);
      expect(await ada.request<unknown[]>('GET', '/api/permanent-characters')).toHaveLength(1);
      const story = (await ada.request<{ id: string; name: string; user_started: boolean }[]>('GET', '/api/stories')).find((s) => s.name === 'The Lantern Keeper');
      expect(story?.user_started).toBe(true);
      const launch = await ada.request<{ state: string }>('GET', `/api/stories/${story?.id ?? ''}/launch`);
      expect(launch.state).toBe('COMPLETED');

      const ben = new Api(srv.url);
      await ben.signIn('ben@example.com', 'ben-legacy-password-1');
      await expect(new Api(srv.url).signIn('ben@example.com', 'ada-legacy-password-1')).rejects.toThrow(/Invalid login credentials/);
      const db = srv.services.db;
      // The previous version's scrypt hashes were verified, then replaced by argon2id at that sign-in; the new hash
      // signs in again.
      expect(users.every((u) => u.encrypted_password.startsWith('scrypt$15$8$1$'))).toBe(true);
      const hashes = (await db.query<{ email: string; encrypted_password: string }>('SELECT email, encrypted_password FROM looptale_auth.users ORDER BY email')).rows;
      expect(hashes.map((h) => [h.email, h.encrypted_password.slice(0, 31)])).toEqual([
        ['ada@example.com', '$argon2id$v=19$m=19456,t=2,p=1$'],
        ['ben@example.com', '$argon2id$v=19$m=19456,t=2,p=1$'],
      ]);
      await new Api(srv.url).signIn('ada@example.com', 'ada-legacy-password-1');
      expect((await db.query('SELECT encrypted_password FROM looptale_auth.users WHERE email = $1', ['ada@example.com'])).rows[0]).toEqual({ encrypted_password: hashes[0]?.encrypted_password });
      const run = (await db.query<{ id: string; n: number }>(
        "SELECT ps.id, ps.loop_current_number_of_interactions AS n FROM player_stories ps JOIN looptale_auth.users u ON u.id::text = ps.user_id WHERE u.email = 'ben@example.com'",
      )).rows[0];
      if (!run) throw new Error('Ben has no run');
      const old = (await db.query<{ input_id: string; outputs: unknown }>(
        'SELECT input_id, outputs FROM looptale_private.processed_inputs WHERE player_story_id = $1 ORDER BY created_at DESC LIMIT 1', [run.id],
      )).rows[0];
      if (!old) throw new Error('Ben has no processed input');
      const transcriptBefore = (await ben.request<string>('GET', `/api/player-stories/${run.id}/transcript`)).trim().split('\n').length;
      const socket = await GameSocket.connect(srv.url, ben.token ?? '');
      try {
        // A message sent before the upgrade and replayed after it is answered from its first outputs, not run again.
        const replay = await socket.send({ input_id: old.input_id, player_story_id: run.id, is_starting_dialogue: false, transcription: 'anything' });
        expect(replay.error).toBeNull();
        expect(replay.outputs).toEqual(old.outputs);
        expect((await ben.request<{ loop_current_number_of_interactions: number }>('GET', `/api/player-stories/${run.id}`)).loop_current_number_of_interactions).toBe(run.n);
        const plan = parsePlan(readFileSync(join(import.meta.dirname, '../fixtures/stories/lantern-keeper/win.fr.testplan'), 'utf8'));
        if (!plan.ok) throw new Error(plan.error);
        // The fixture stopped after the plan's first five steps; the next is an `expect` about the last output.
        const rest = await runPlanRemote(ben, socket, run.id, plan.steps.slice(6));
        expect(rest.failure).toBeNull();
      } finally {
        await socket.close();
      }
      const after = await ben.request<{ loop_status: string }>('GET', `/api/player-stories/${run.id}`);
      expect(after.loop_status).toBe('loopStatusWon');
      const transcriptAfter = (await ben.request<string>('GET', `/api/player-stories/${run.id}/transcript`)).trim().split('\n').length;
      expect(transcriptAfter).toBeGreaterThan(transcriptBefore);
    } finally {
      await srv.close();
    }
  });
});
