// The authorization matrix, over every route declared with auth 'user' (declaredRoutes()): without a token 401;
// with user B's token on user A's rows 404, exactly like a row that does not exist (never 200, never a 403 that
// would confirm it exists) and with nothing changed; routes on the caller's own data answer B about B only; with A's
// token 2xx. A new 'user' route fails this test until it gets a case below.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayerStory, TicketWithStory } from '../engine/schema/player.js';
import type { CatalogueStory } from '../engine/schema/views.js';
import { parsePlan } from '../engine/story/testplan.js';
import { Api, GameSocket } from '../cli/lib/game-client.js';
import { runPlanRemote } from '../cli/lib/remote-plan.js';
import { declaredRoutes } from '../server/http/route.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { cloneFixtureStory } from './helpers/story-clone.js';
import { packStoryArchive } from '../engine/story/archive.js';
import { storyFileText } from '../server/media/story-archive.js';

const ROOT = join(import.meta.dirname, '../fixtures/stories');
const LANTERN = '8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a';
const CLOCKWORK = '31c3890e-98cb-4af6-a644-1b6025b829e7';
const PASSWORD = 'correct horse battery staple';

/** A's rows, created through the API and the socket like a player would. */
type Fixture = {
  a: { id: string; token: string };
  b: { id: string; token: string };
  /** A's won lantern-keeper run (rank S). */
  wonRun: string;
  /** A's ongoing clockwork-siege run. */
  run: string;
  /** The golden ticket A's won run earned. */
  ticket: string;
  /** A player character of A's lantern-keeper state, to redeem the ticket for. */
  character: string;
  png: Buffer;
  /** Lantern-keeper's archive as exported (story.json and its media). */
  archive: Buffer;
};

type Body = unknown;
type Res = { status: number; body: Body };

type Case = {
  /** 'owned': the path names A's rows: B gets 404. 'self': the route works on the caller's own data: B gets 2xx about B.
   * 'admin': only admins (A is one here, B is not, nor an author of the story named) get 2xx: B gets 403.
   * 'author': the studio's routes: story makers only (A is an admin; B is a player, though listed as an author of
   * lantern-keeper): B gets 403 (tests/authoring-api.test.ts walks them as every kind of user). */
  kind: 'owned' | 'self' | 'admin' | 'author';
  /** Path parameters (A's row ids for 'owned'). */
  params?: (f: Fixture) => Record<string, string>;
  body?: (f: Fixture) => unknown;
  /** A non-JSON body: [content type, bytes]. */
  raw?: (f: Fixture) => [string, Buffer];
  headers?: Record<string, string>;
  /** A's expected success status. */
  status: number;
  /** A's call changes state: it runs after the reads, in this order. */
  order?: number;
  /** 'self' routes: B's answer must be about B and hold none of A's rows. */
  aboutB?: (res: Res, f: Fixture) => void;
};

const storyParam = (id: string) => () => ({ id });
const runParam = (f: Fixture) => ({ id: f.run });
const upload = (): Record<string, string> => ({ bucket: 'image', storyId: LANTERN, file: 'authz-upload.png' });

/** Every 'user' route, by `METHOD url`. */
const CASES: Record<string, Case> = {
  'GET /api/stories/:id/launch': {
    kind: 'self', params: storyParam(LANTERN), status: 200,
    aboutB: ({ body }) => expect(body).toMatchObject({ state: 'FRESH', runs: 0, continue_player_story_id: null, best_rank: null }),
  },
  'POST /api/player-stories': {
    kind: 'self', body: () => ({ blueprint_story_id: CLOCKWORK, language: 'english' }), status: 201, order: 9,
    aboutB: ({ body }, f) => expect(body).toMatchObject({ user_id: f.b.id, blueprint_story_id: CLOCKWORK, loop_number: 1 }),
  },
  'POST /api/stories/:id/reset-progress': {
    kind: 'self', params: storyParam(CLOCKWORK), body: () => ({ language: 'english' }), status: 201, order: 10,
    aboutB: ({ body }, f) => expect(body).toMatchObject({ user_id: f.b.id, blueprint_story_id: CLOCKWORK }),
  },
  'GET /api/player-stories/:id': { kind: 'owned', params: runParam, status: 200 },
  'GET /api/player-stories/:id/game-view': { kind: 'owned', params: runParam, status: 200 },
  'GET /api/player-stories/:id/moment-view': { kind: 'owned', params: runParam, status: 200 },
  'GET /api/player-stories/:id/story-graph': { kind: 'owned', params: runParam, status: 200 },
  'GET /api/player-stories/:id/dialogue': { kind: 'owned', params: runParam, status: 200 },
  'GET /api/player-stories/:id/transcript': { kind: 'owned', params: (f) => ({ id: f.wonRun }), status: 200 },
  'POST /api/player-stories/:id/end': { kind: 'owned', params: runParam, status: 200, order: 8 },
  'GET /api/tickets': {
    kind: 'self', status: 200,
    aboutB: ({ body }) => expect(body).toEqual([]),
  },
  'GET /api/tickets/:id/cards': { kind: 'owned', params: (f) => ({ id: f.ticket }), status: 200 },
  'POST /api/tickets/:id/redeem': {
    kind: 'owned', params: (f) => ({ id: f.ticket }), body: (f) => ({ card: { kind: 'character', id: f.character } }), status: 200, order: 7,
  },
  'GET /api/permanent-characters': {
    kind: 'self', status: 200,
    aboutB: ({ body }) => expect(body).toEqual([]),
  },
  'GET /api/me': {
    kind: 'self', status: 200,
    aboutB: ({ body }, f) => expect(body).toMatchObject({ id: f.b.id, role: 'player', is_admin: false }),
  },
  'GET /api/me/progress': {
    kind: 'self', status: 200,
    // B never played lantern-keeper (A won it): no row of it.
    aboutB: ({ body }) => expect((body as { blueprint_story_id: string }[]).filter((r) => r.blueprint_story_id === LANTERN)).toEqual([]),
  },
  'GET /api/me/export': {
    kind: 'self', status: 200,
    aboutB: ({ body }, f) => expect(body).toMatchObject({ account: { id: f.b.id } }),
  },
  // A deletion is refused without the account's own address typed again, and deletes nothing: the walk keeps both
  // players (tests/defect-36-07-delete-export.test.ts deletes one and checks every table).
  'POST /api/me/delete': {
    kind: 'self', body: () => ({ confirm: 'someone-else@example.com' }), status: 400,
    aboutB: ({ body }) => expect(body).toMatchObject({ error: { code: 'account/confirmation_mismatch' } }),
  },
  'POST /api/feedback': {
    kind: 'self', body: () => ({ kind: 'idea', message: 'authz matrix feedback', page: '/browse' }), status: 201, order: 4,
    aboutB: ({ body }, f) => expect(body).toMatchObject({ user_id: f.b.id, kind: 'idea' }),
  },
  'GET /api/admin/feedback': { kind: 'admin', status: 200 },
  // The studio, on Clockwork Siege's draft: A's writes run in order, each on the revision the one before made.
  'GET /api/authoring/stories': { kind: 'author', status: 200 },
  'POST /api/authoring/stories': { kind: 'author', body: () => ({ story: cloneFixtureStory('clockwork-siege') }), status: 201, order: 24 },
  'GET /api/authoring/stories/:id/draft': { kind: 'author', params: storyParam(CLOCKWORK), status: 200 },
  'POST /api/authoring/stories/:id/changes': {
    kind: 'author', params: storyParam(CLOCKWORK), status: 200, order: 20,
    body: () => ({ base_revision: 0, changes: [{ op: 'set', path: ['name'], value: 'Clockwork Siege (authz)' }] }),
  },
  'PUT /api/authoring/stories/:id/draft': {
    kind: 'author', params: storyParam(CLOCKWORK), status: 200, order: 21,
    body: () => ({ base_revision: 1, story: { ...(JSON.parse(readFileSync(join(ROOT, 'clockwork-siege', 'story.json'), 'utf8')) as object), name: 'Clockwork Siege (file)' } }),
  },
  'GET /api/authoring/stories/:id/history': { kind: 'author', params: storyParam(CLOCKWORK), status: 200 },
  'POST /api/authoring/stories/:id/restore': { kind: 'author', params: storyParam(CLOCKWORK), body: () => ({ base_revision: 2, revision: 0 }), status: 200, order: 22 },
  'POST /api/authoring/stories/:id/publish': { kind: 'author', params: storyParam(CLOCKWORK), body: () => ({ base_revision: 3 }), status: 200, order: 23 },
  'GET /api/authoring/stories/:id/versions': { kind: 'author', params: storyParam(CLOCKWORK), status: 200 },
  'GET /api/authoring/stories/:id/export': { kind: 'author', params: storyParam(LANTERN), status: 200 },
  // Orla Vance, a character of clockwork-siege.
  'GET /api/authoring/entities/:id': { kind: 'author', params: () => ({ id: '7d5d6584-aea5-44d3-bb58-00f42bc6118c' }), status: 200 },
  // The stories list (server/authoring/workshop-routes.ts): Clockwork Siege is copied, deleted and brought back.
  'GET /api/authoring/templates': { kind: 'author', status: 200 },
  'GET /api/authoring/deleted': { kind: 'author', status: 200 },
  'POST /api/authoring/stories/from-template': { kind: 'author', body: () => ({ template: 'blank' }), status: 201, order: 26 },
  'POST /api/authoring/stories/:id/duplicate': { kind: 'author', params: storyParam(CLOCKWORK), body: () => ({}), status: 201, order: 27 },
  'DELETE /api/authoring/stories/:id': { kind: 'author', params: storyParam(CLOCKWORK), status: 200, order: 28 },
  'POST /api/authoring/stories/:id/undelete': { kind: 'author', params: storyParam(CLOCKWORK), status: 200, order: 29 },
  // Story archives: story makers only too (B, a player listed among lantern-keeper's authors, is refused).
  'GET /api/stories/:id/archive': { kind: 'author', params: storyParam(LANTERN), status: 200 },
  'POST /api/stories/archive': { kind: 'author', raw: (f) => ['application/x-tar', f.archive], status: 200, order: 25 },
  // Clockwork Siege: neither A nor B is one of its authors; A sees its graph as an admin.
  'GET /api/admin/stories/:id/graph': { kind: 'admin', params: storyParam(CLOCKWORK), status: 200 },
  // Story media is shared authoring material, not a user's rows: the story's authors write it (A and B are both authors
  // of lantern-keeper here; tests/defect-01-media-write-authz.test.ts refuses everyone else).
  'POST /storage/v1/object/:bucket/:storyId/:file': {
    kind: 'self', params: upload, raw: (f) => ['image/png', f.png], headers: { 'x-upsert': 'true' }, status: 200, order: 5,
    aboutB: ({ body }) => expect(body).toMatchObject({ Key: `image/${LANTERN}/authz-upload.png` }),
  },
  'PUT /storage/v1/object/:bucket/:storyId/:file': {
    kind: 'self', params: upload, raw: (f) => ['image/png', f.png], status: 200, order: 6,
    aboutB: ({ body }) => expect(body).toMatchObject({ Key: `image/${LANTERN}/authz-upload.png` }),
  },
};

let srv: TestServer;
let f: Fixture;

const userRoutes = () => declaredRoutes().filter((r) => r.auth === 'user');
const keyOf = (r: { method: string; url: string }): string => `${r.method} ${r.url}`;

function pathOf(url: string, params: Record<string, string>): string {
  return url.replace(/:([A-Za-z_]+)/g, (_m, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`${url}: no sample value for :${name}`);
    return encodeURIComponent(v);
  });
}

async function call(route: { method: string; url: string }, c: Case, token: string | null, params?: Record<string, string>): Promise<Res> {
  const headers: Record<string, string> = { ...c.headers };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | Buffer | undefined;
  if (c.raw) {
    const [type, bytes] = c.raw(f);
    headers['content-type'] = type;
    body = bytes;
  } else if (c.body) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(c.body(f));
  }
  const res = await fetch(`${srv.url}${pathOf(route.url, params ?? c.params?.(f) ?? {})}`, { method: route.method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    // not JSON (the transcript is JSONL)
  }
  return { status: res.status, body: parsed };
}

async function signUp(prefix: string): Promise<{ api: Api; id: string; token: string }> {
  const api = new Api(srv.url);
  const s = await api.signUp(`${prefix}-${Date.now()}-${randomUUID().slice(0, 8)}@example.com`, PASSWORD);
  return { api, id: s.user.id, token: s.access_token };
}

beforeAll(async () => {
  srv = await startTestServer({ SEED_STORIES: 'true', STORIES_DIR: ROOT });
  const a = await signUp('authz-a');
  const b = await signUp('authz-b');
  await srv.services.authors.addAuthor(LANTERN, a.id);
  await srv.services.authors.addAuthor(LANTERN, b.id);
  await srv.services.authors.grantAdmin(a.id);

  // A wins lantern-keeper with rank S over the socket, which earns a golden ticket.
  const won = await a.api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: LANTERN, language: 'english' });
  const plan = parsePlan(readFileSync(join(ROOT, 'lantern-keeper', 'win.en.testplan'), 'utf8'));
  if (!plan.ok) throw new Error(plan.error);
  const socket = await GameSocket.connect(srv.url, a.token);
  const played = await runPlanRemote(a.api, socket, won.id, plan.steps);
  await socket.close();
  if (played.failure) throw new Error(`the winning plan failed: ${JSON.stringify(played.failure)}`);
  const tickets = await a.api.request<TicketWithStory[]>('GET', '/api/tickets');
  const ticket = tickets.find((t) => t.blueprint_story_id === LANTERN && !t.is_redeemed);
  if (!ticket) throw new Error('the won run earned no ticket');
  const state = (await srv.services.game.loadState(a.id, LANTERN))?.state;
  const character = state?.characters.find((c) => c.blueprint_character_id && c.card_type !== 'permanent' && !c.permanent_character_id);
  if (!character) throw new Error('no character to redeem the ticket for');

  // And has a clockwork-siege run going.
  const run = await a.api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: CLOCKWORK, language: 'english' });
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } }).png().toBuffer();
  f = { a: { id: a.id, token: a.token }, b: { id: b.id, token: b.token }, wonRun: won.id, run: run.id, ticket: ticket.id, character: character.id, png,
    archive: Buffer.from(packStoryArchive({ story: new TextEncoder().encode(storyFileText(JSON.parse(readFileSync(join(ROOT, 'clockwork-siege', 'story.json'), 'utf8')))), media: [] })) };
}, 300_000);
afterAll(async () => srv?.close());

describe('authorization matrix', () => {
  it("covers every declared 'user' route, and only those", () => {
    const declared = userRoutes().map(keyOf).sort();
    expect(declared.length).toBeGreaterThan(0);
    const missing = declared.filter((k) => !(k in CASES));
    expect(missing, `'user' routes without an authorization case in tests/authz.test.ts: ${missing.join(', ')}`).toEqual([]);
    const stale = Object.keys(CASES).filter((k) => !declared.includes(k));
    expect(stale, `cases for routes that are no longer declared with auth 'user': ${stale.join(', ')}`).toEqual([]);
    for (const r of userRoutes()) {
      const params = CASES[keyOf(r)]?.params?.(f) ?? {};
      for (const name of [...r.url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1] ?? '')) expect(params, `${keyOf(r)} :${name}`).toHaveProperty(name);
    }
  });

  it('answers 401 without a token, and with a malformed or forged one', async () => {
    const forged = `${f.a.token.slice(0, -4)}AAAA`;
    for (const r of userRoutes()) {
      const c = CASES[keyOf(r)];
      if (!c) continue;
      for (const token of [null, 'not-a-jwt', forged]) {
        const res = await call(r, c, token);
        expect(res.status, `${keyOf(r)} with ${token === null ? 'no token' : 'a bad token'}`).toBe(401);
        expect(res.body).toMatchObject({ error: { code: 'unauthorized' } });
      }
    }
  });

  it('answers 401 without a token on the routes that are not declared with route() but need one', async () => {
    const undeclared: [string, string, string, number][] = [
      ['POST', '/marketing/waitlist_redeem', 'email=a%40example.com&invite_token=x', 401],
      ['GET', '/auth/v1/user', '', 401],
      ['PUT', '/auth/v1/user', '{"data":{"a":1}}', 401],
      ['POST', '/auth/v1/logout', '', 401],
    ];
    for (const [method, path, body, status] of undeclared) {
      const type = body.startsWith('{') ? 'application/json' : 'application/x-www-form-urlencoded';
      const res = await fetch(`${srv.url}${path}`, { method, ...(body ? { body, headers: { 'content-type': type } } : {}) });
      expect(res.status, `${method} ${path}`).toBe(status);
    }
  });

  it("answers B with 404 on A's rows, exactly as for rows that do not exist, and changes nothing", async () => {
    let checked = 0;
    for (const r of userRoutes()) {
      const c = CASES[keyOf(r)];
      if (c?.kind !== 'owned' || !c.params) continue;
      checked += 1;
      const onA = await call(r, c, f.b.token);
      expect(onA.status, `${keyOf(r)} as B on A's row`).toBe(404);
      // A row that does not exist gets the same answer, so B learns nothing about A's ids.
      const unknown = Object.fromEntries(Object.keys(c.params(f)).map((k) => [k, randomUUID()]));
      const none = await call(r, c, f.b.token, unknown);
      expect(none.status, `${keyOf(r)} on an unknown id`).toBe(404);
      expect(onA.body, `${keyOf(r)}: B's answer differs from the answer for an unknown id`).toEqual(none.body);
      expect(JSON.stringify(onA.body)).not.toContain(f.a.id);
    }
    expect(checked).toBe(Object.values(CASES).filter((c) => c.kind === 'owned').length);
    // Nothing B sent changed A's rows.
    const a = new Api(srv.url, f.a.token);
    expect(await a.request<PlayerStory>('GET', `/api/player-stories/${f.run}`)).toMatchObject({ loop_status: 'loopStatusOnGoing' });
    expect((await a.request<TicketWithStory[]>('GET', '/api/tickets')).find((t) => t.id === f.ticket)).toMatchObject({ is_redeemed: false });
    expect(await a.request<unknown[]>('GET', '/api/permanent-characters')).toEqual([]);
  });

  it("answers B (no admin) 403 on the admin routes, with A's data nowhere in the answer", async () => {
    let checked = 0;
    for (const r of userRoutes()) {
      const c = CASES[keyOf(r)];
      if (c?.kind !== 'admin') continue;
      checked += 1;
      const res = await call(r, c, f.b.token);
      expect(res.status, `${keyOf(r)} as B`).toBe(403);
      expect(res.body).toMatchObject({ error: { code: 'admin/required' } });
      expect(JSON.stringify(res.body)).not.toContain(f.a.id);
    }
    expect(checked).toBe(2);
  });

  it('answers B (a player) 403 on the studio routes, with A\'s data nowhere in the answer', async () => {
    let checked = 0;
    for (const r of userRoutes()) {
      const c = CASES[keyOf(r)];
      if (c?.kind !== 'author') continue;
      checked += 1;
      const res = await call(r, c, f.b.token);
      expect(res.status, `${keyOf(r)} as B`).toBe(403);
      expect(res.body).toMatchObject({ error: { code: expect.stringMatching(/^(authoring|story)\/forbidden$/) as unknown } });
      expect(JSON.stringify(res.body)).not.toContain(f.a.id);
    }
    expect(checked).toBe(19);
  });

  it("answers B about B's own data on the other 'user' routes", async () => {
    for (const r of userRoutes()) {
      const c = CASES[keyOf(r)];
      if (c?.kind !== 'self') continue;
      const res = await call(r, c, f.b.token);
      expect(res.status, `${keyOf(r)} as B: ${JSON.stringify(res.body)}`).toBe(c.status);
      expect(JSON.stringify(res.body)).not.toContain(f.a.id);
      c.aboutB?.(res, f);
    }
  });

  it("answers A with 2xx on A's rows", async () => {
    const routes = userRoutes().map((r) => ({ r, c: CASES[keyOf(r)] })).sort((x, y) => (x.c?.order ?? 0) - (y.c?.order ?? 0));
    for (const { r, c } of routes) {
      if (!c) continue;
      const res = await call(r, c, f.a.token);
      expect(res.status, `${keyOf(r)} as A: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(c.status);
    }
    // A's redemption and runs stay A's: B still sees none of them.
    const b = new Api(srv.url, f.b.token);
    expect(await b.request<unknown[]>('GET', '/api/permanent-characters')).toEqual([]);
    expect(await b.request<unknown[]>('GET', '/api/tickets')).toEqual([]);
    expect((await new Api(srv.url, f.a.token).request<unknown[]>('GET', '/api/permanent-characters')).length).toBe(1);
  });

  it("keeps user_started per user on the catalogue (auth 'optional')", async () => {
    const started = async (token: string) => ((await new Api(srv.url, token).request<CatalogueStory[]>('GET', '/api/stories')).find((s) => s.id === LANTERN))?.user_started;
    expect(await started(f.a.token)).toBe(true);
    expect(await started(f.b.token)).toBe(false);
  });
});
