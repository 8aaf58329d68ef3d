// The authoring API through the real server and store: every /api/authoring route walked as no one, a player,
// another author and the owner (statuses, and nothing changed by a refusal); two writers (a merge, a 409 with both
// values); refused changes (422, path-named); history and restore; export; and a run that keeps playing version 1 to
// its end while version 2 deletes the moment it is on.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameController } from '../engine/client/game-screen/controller.js';
import { LocalHost } from '../engine/client/host/local-host.js';
import { describeStartErrors } from '../engine/client/host/local-start.js';
import { playSteps } from '../engine/client/host/test-driver.js';
import { SeededRandom } from '../engine/random.js';
import type { PlayerStory } from '../engine/schema/player.js';
import { Story } from '../engine/story/format.js';
import { parsePlan } from '../engine/story/testplan.js';
import { Api, GameSocket } from '../cli/lib/game-client.js';
import { runPlanRemote } from '../cli/lib/remote-plan.js';
import { declaredRoutes } from '../server/http/route.js';
import { authoringCalls, type Json, type User } from './helpers/authoring-calls.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { cloneFixtureStory } from './helpers/story-clone.js';

type DraftBody = { story_id: string; revision: number; base_version: number | null; document: Json; report: unknown[]; publishable: boolean };
type Written = { draft: DraftBody; merged: boolean; version?: number };

let srv: TestServer;
const users = {} as Record<'owner' | 'other' | 'player' | 'admin', User>;
const { call, ok, user } = authoringCalls(() => srv);

/** A new story owned by `who`: a copy of a fixture under new ids, created as a draft. */
async function newStory(who: User, name = 'lantern-keeper'): Promise<{ id: string; file: Json }> {
  const file = cloneFixtureStory(name, `Authoring test ${randomUUID().slice(0, 6)}`);
  const w = await ok<Written>('POST', '/api/authoring/stories', who, { story: file }, 201);
  return { id: w.draft.story_id, file };
}

const moments = (doc: Json): Json[] => doc.moments as Json[];
const momentNamed = (doc: Json, en: string): Json => {
  const m = moments(doc).find((x) => (x.name as Json).en === en);
  if (!m) throw new Error(`no moment ${en}`);
  return m;
};

beforeAll(async () => {
  srv = await startTestServer();
  users.owner = await user('owner', 'author');
  users.other = await user('other', 'author');
  users.player = await user('player', 'player');
  users.admin = await user('admin', 'admin');
}, 120_000);
afterAll(async () => srv?.close());

describe('authoring API', () => {
  it('creates a story as a draft only: its author and admins see it in the studio, no catalogue lists it until it is published', async () => {
    const { id, file } = await newStory(users.owner);
    const draft = await ok<DraftBody>('GET', `/api/authoring/stories/${id}/draft`, users.owner);
    expect(draft).toMatchObject({ story_id: id, revision: 0, base_version: null, publishable: true });
    expect(JSON.stringify(draft.document)).toBe(JSON.stringify(file));
    const mine = await ok<{ id: string }[]>('GET', '/api/authoring/stories', users.owner);
    expect(mine.map((s) => s.id)).toContain(id);
    expect((await ok<{ id: string }[]>('GET', '/api/authoring/stories', users.other)).map((s) => s.id)).not.toContain(id);
    expect((await ok<{ id: string }[]>('GET', '/api/authoring/stories', users.admin)).map((s) => s.id)).toContain(id);
    const catalogue = async () => (await ok<{ id: string }[]>('GET', '/api/stories', users.player)).map((s) => s.id);
    expect(await catalogue()).not.toContain(id);
    const pub = await ok<Written>('POST', `/api/authoring/stories/${id}/publish`, users.owner, { base_revision: 0 });
    expect(pub.version).toBe(1);
    expect(await catalogue()).toContain(id);
    // The same id again is refused: a story file imports as a new story only once.
    const again = await call('POST', '/api/authoring/stories', users.owner, { story: file });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { code: 'authoring/exists' } });
  });

  it('walks every authoring route as no one (401), a player (403), another author (403) and the owner (2xx); refusals change nothing', async () => {
    const { id, file } = await newStory(users.owner);
    const first = momentNamed(file, "The Keeper's Log");
    const calls: Record<string, { path: string; body?: (rev: number) => unknown; status: number }> = {
      'GET /api/authoring/stories': { path: '/api/authoring/stories', status: 200 },
      'POST /api/authoring/stories': { path: '/api/authoring/stories', body: () => ({ story: cloneFixtureStory('clockwork-siege') }), status: 201 },
      'GET /api/authoring/stories/:id/draft': { path: `/api/authoring/stories/${id}/draft`, status: 200 },
      'POST /api/authoring/stories/:id/changes': {
        path: `/api/authoring/stories/${id}/changes`, status: 200,
        body: (rev) => ({ base_revision: rev, changes: [{ op: 'set', path: ['moments', first.id, 'goal'], value: { en: 'Read the log aloud.' } }] }),
      },
      'PUT /api/authoring/stories/:id/draft': { path: `/api/authoring/stories/${id}/draft`, status: 200, body: (rev) => ({ base_revision: rev, story: { ...file, name: 'Renamed by file' } }) },
      'GET /api/authoring/stories/:id/history': { path: `/api/authoring/stories/${id}/history`, status: 200 },
      'POST /api/authoring/stories/:id/restore': { path: `/api/authoring/stories/${id}/restore`, status: 200, body: (rev) => ({ base_revision: rev, revision: 0 }) },
      'POST /api/authoring/stories/:id/publish': { path: `/api/authoring/stories/${id}/publish`, status: 200, body: (rev) => ({ base_revision: rev }) },
      'GET /api/authoring/stories/:id/versions': { path: `/api/authoring/stories/${id}/versions`, status: 200 },
      'GET /api/authoring/stories/:id/export': { path: `/api/authoring/stories/${id}/export`, status: 200 },
      'GET /api/authoring/entities/:id': { path: `/api/authoring/entities/${String((file.characters as Json[])[0]?.id)}`, status: 200 },
      // The stories list's routes (server/authoring/workshop-routes.ts; tests/workshop-api.test.ts tests them).
      'GET /api/authoring/templates': { path: '/api/authoring/templates', status: 200 },
      'POST /api/authoring/stories/from-template': { path: '/api/authoring/stories/from-template', body: () => ({ template: 'blank' }), status: 201 },
      'POST /api/authoring/stories/:id/duplicate': { path: `/api/authoring/stories/${id}/duplicate`, body: () => ({}), status: 201 },
      'GET /api/authoring/deleted': { path: '/api/authoring/deleted', status: 200 },
      'DELETE /api/authoring/stories/:id': { path: `/api/authoring/stories/${id}`, status: 200 },
      'POST /api/authoring/stories/:id/undelete': { path: `/api/authoring/stories/${id}/undelete`, status: 200 },
    };
    // Not about one story (the entity look-up searches the caller's own stories: tests/authoring-entities.test.ts).
    const notAboutOneStory = new Set(['GET /api/authoring/stories', 'POST /api/authoring/stories', 'GET /api/authoring/templates', 'POST /api/authoring/stories/from-template', 'GET /api/authoring/deleted', 'GET /api/authoring/entities/:id']);
    const routes = declaredRoutes().filter((r) => r.url.startsWith('/api/authoring')).map((r) => `${r.method} ${r.url}`).sort();
    expect(routes).toEqual(Object.keys(calls).sort());

    const snapshot = async () => ({
      draft: await srv.services.drafts.open(id, null),
      history: await srv.services.drafts.history(id, 200),
      versions: await srv.services.stories.versions(id),
      stories: (await ok<unknown[]>('GET', '/api/authoring/stories', users.admin)).length,
    });
    const before = await snapshot();
    for (const [key, c] of Object.entries(calls)) {
      const method = key.split(' ')[0] ?? 'GET';
      const body = c.body?.(0);
      const none = await call(method, c.path, null, body);
      expect(none.status, `${key} with no token`).toBe(401);
      const player = await call(method, c.path, users.player, body);
      expect(player.status, `${key} as a player`).toBe(403);
      expect(player.body).toMatchObject({ error: { code: 'authoring/forbidden', message: expect.stringContaining('story makers') as unknown } });
      if (notAboutOneStory.has(key)) continue;
      const other = await call(method, c.path, users.other, body);
      expect(other.status, `${key} as another author`).toBe(403);
      expect(other.body).toMatchObject({ error: { code: 'authoring/forbidden', message: expect.stringContaining('not an author of this story') as unknown } });
    }
    expect(await snapshot()).toEqual(before);

    // The owner: reads, then each write on the revision the one before left.
    let rev = 0;
    for (const [key, c] of Object.entries(calls)) {
      const method = key.split(' ')[0] ?? 'GET';
      const res = await call(method, c.path, users.owner, c.body?.(rev));
      expect(res.status, `${key} as the owner: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(c.status);
      const draft = (res.body as Partial<Written>).draft;
      if (draft && draft.story_id === id) rev = draft.revision;
    }
    expect(rev).toBe(3);
    expect(await srv.services.stories.versions(id)).toHaveLength(1);
    // An admin reaches a story they are not an author of.
    expect((await call('GET', `/api/authoring/stories/${id}/draft`, users.admin)).status).toBe(200);
  });

  it('merges two writers who changed different fields, and answers 409 with both values when they changed the same one', async () => {
    const { id, file } = await newStory(users.owner);
    const log = momentNamed(file, "The Keeper's Log");
    const quay = momentNamed(file, 'Nell at the Quay');
    const set = (m: Json, field: string, value: unknown) => ({ op: 'set', path: ['moments', m.id, field], value });
    // Two tabs open the draft at revision 0.
    const a = await ok<Written>('POST', `/api/authoring/stories/${id}/changes`, users.owner, { base_revision: 0, changes: [set(log, 'goal', { en: 'Tab A goal' })] });
    expect(a).toMatchObject({ merged: false, draft: { revision: 1 } });
    const b = await ok<Written>('POST', `/api/authoring/stories/${id}/changes`, users.owner, { base_revision: 0, changes: [set(quay, 'goal', { en: 'Tab B goal' })] });
    expect(b).toMatchObject({ merged: true, draft: { revision: 2 } });
    expect(momentNamed(b.draft.document, "The Keeper's Log").goal).toEqual({ en: 'Tab A goal' });
    expect(momentNamed(b.draft.document, 'Nell at the Quay').goal).toEqual({ en: 'Tab B goal' });
    // Tab B, still on revision 0, now writes the goal tab A changed.
    const clash = await call('POST', `/api/authoring/stories/${id}/changes`, users.owner, { base_revision: 0, changes: [set(log, 'goal', { en: 'Tab B wins?' })] });
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({
      error: {
        code: 'authoring/conflict',
        details: { revision: 2, conflicts: [{ path: `moments/${String(log.id)}/goal`, base: log.goal, now: { en: 'Tab A goal' }, sent: { en: 'Tab B wins?' } }] },
      },
    });
    const after = await ok<DraftBody>('GET', `/api/authoring/stories/${id}/draft`, users.owner);
    expect(after.revision).toBe(2);
    expect(momentNamed(after.document, "The Keeper's Log").goal).toEqual({ en: 'Tab A goal' });
    // A base revision from the future is refused too.
    expect((await call('POST', `/api/authoring/stories/${id}/changes`, users.owner, { base_revision: 9, changes: [set(log, 'goal', { en: 'x' })] })).status).toBe(409);
  });

  it('refuses a change that would make the draft unloadable with the validator\'s path-named errors, and keeps the draft as it was', async () => {
    const { id, file } = await newStory(users.owner);
    const log = momentNamed(file, "The Keeper's Log");
    const refused = [
      // Moments still lead to it: removing it leaves transitions naming a moment that is not there.
      { op: 'remove', collection: 'moments', id: log.id },
      // Only Battle moments have opponents.
      { op: 'set', path: ['moments', log.id, 'opponents'], value: [] },
      // No such moment.
      { op: 'set', path: ['moments', randomUUID(), 'goal'], value: { en: 'x' } },
    ];
    for (const change of refused) {
      const r = await call('POST', `/api/authoring/stories/${id}/changes`, users.owner, { base_revision: 0, changes: [change] });
      expect(r.status, JSON.stringify(change)).toBe(422);
      expect(r.body).toMatchObject({ error: { code: 'authoring/invalid', details: { problems: expect.arrayContaining([expect.objectContaining({ path: expect.stringMatching(/^\$/) as unknown })]) as unknown } } });
    }
    const opp = await call('POST', `/api/authoring/stories/${id}/changes`, users.owner, { base_revision: 0, changes: [refused[1]] });
    expect(JSON.stringify(opp.body)).toContain('only Battle moments have it');
    // A malformed change is a 400 at the edge.
    const bad = await call('POST', `/api/authoring/stories/${id}/changes`, users.owner, { base_revision: 0, changes: [{ op: 'set', path: ['moments', log.id, 'id'], value: randomUUID() }] });
    expect(bad.status).toBe(400);
    const draft = await ok<DraftBody>('GET', `/api/authoring/stories/${id}/draft`, users.owner);
    expect(draft.revision).toBe(0);
    expect(JSON.stringify(draft.document)).toBe(JSON.stringify(file));
  });

  it('keeps every revision with its author and a field-by-field diff, and restores any of them as a new revision', async () => {
    const { id, file } = await newStory(users.owner);
    await ok('POST', '/api/authoring/stories', users.admin, { story: cloneFixtureStory('clockwork-siege') }, 201);
    await srv.services.authors.addAuthor(id, users.other.id);
    const log = momentNamed(file, "The Keeper's Log");
    const docs: Json[] = [file];
    const names = ['First name', 'Second name', 'Third name'];
    for (const [i, name] of names.entries()) {
      const who = i === 1 ? users.other : users.owner;
      const w = await ok<Written>('POST', `/api/authoring/stories/${id}/changes`, who, { base_revision: i, changes: [{ op: 'set', path: ['moments', log.id, 'name'], value: { en: name } }] });
      docs.push(w.draft.document);
    }
    const history = await ok<{ revision: number; author_id: string; summary: string; diff: { path: string; before: unknown; after: unknown }[] }[]>('GET', `/api/authoring/stories/${id}/history`, users.owner);
    expect(history.map((h) => h.revision)).toEqual([3, 2, 1]);
    expect(history.map((h) => h.author_id)).toEqual([users.owner.id, users.other.id, users.owner.id]);
    expect(history[1]).toMatchObject({ summary: `set moments/${String(log.id)}/name`, diff: [{ path: `moments/${String(log.id)}/name`, before: { en: 'First name' }, after: { en: 'Second name' } }] });
    // Restore revision 1: a new revision 4 whose document is revision 1's.
    const r = await ok<Written>('POST', `/api/authoring/stories/${id}/restore`, users.owner, { base_revision: 3, revision: 1 });
    expect(r.draft.revision).toBe(4);
    expect(r.draft.document).toEqual(docs[1]);
    // And back to the file as created (revision 0).
    const r0 = await ok<Written>('POST', `/api/authoring/stories/${id}/restore`, users.owner, { base_revision: 4, revision: 0 });
    expect(r0.draft.document).toEqual(file);
    expect((await ok<unknown[]>('GET', `/api/authoring/stories/${id}/history`, users.owner)).length).toBe(5);
    // Restoring on a stale revision is refused.
    expect((await call('POST', `/api/authoring/stories/${id}/restore`, users.owner, { base_revision: 3, revision: 1 })).status).toBe(409);
  });

  it('exports the draft and each version as stored; a file imported as a new draft comes back out identical', async () => {
    const { id, file } = await newStory(users.owner);
    await ok('POST', `/api/authoring/stories/${id}/publish`, users.owner, { base_revision: 0 });
    const edited = { ...file, name: 'Edited by file', loop_max_number_of_interactions: 40 };
    const w = await ok<Written>('PUT', `/api/authoring/stories/${id}/draft`, users.owner, { base_revision: 0, story: edited });
    expect(w.draft.revision).toBe(1);
    const res = await fetch(`${srv.url}/api/authoring/stories/${id}/export`, { headers: { authorization: `Bearer ${users.owner.token}` } });
    expect(await res.text()).toBe(JSON.stringify(edited));
    const v1 = await fetch(`${srv.url}/api/authoring/stories/${id}/export?version=1`, { headers: { authorization: `Bearer ${users.owner.token}` } });
    expect(await v1.text()).toBe(JSON.stringify(file));
    expect((await call('GET', `/api/authoring/stories/${id}/export?version=2`, users.owner)).status).toBe(404);
    const history = await ok<{ summary: string; diff: { path: string }[] }[]>('GET', `/api/authoring/stories/${id}/history`, users.owner);
    expect(history[0]).toMatchObject({ summary: 'Imported a story file (2 changes)', diff: [{ path: 'name' }, { path: 'loop_max_number_of_interactions' }] });
  });

  it('lets a run that started on version 1 finish on it while version 2 deletes the moment it is on; new runs play version 2', async () => {
    const { id, file } = await newStory(users.owner);
    await ok('POST', `/api/authoring/stories/${id}/publish`, users.owner, { base_revision: 0 });
    const api = new Api(srv.url, users.player.token);
    const run = await api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: id, language: 'english' });
    const view = await api.request<{ moment_name: string }>('GET', `/api/player-stories/${run.id}/game-view`);
    expect(view.moment_name).toBe('Fog over Saltmere');

    // Version 2: the run's moment is gone; whatever led to it (the story's start too) now leads to the one after it.
    const log = momentNamed(file, view.moment_name);
    const next = (log.transitions as { next_moment_id: string }[])[0]?.next_moment_id;
    const changes: unknown[] = [];
    if (file.first_moment_id === log.id) changes.push({ op: 'set', path: ['first_moment_id'], value: next });
    for (const m of moments(file)) {
      const t = ((m.transitions ?? []) as { next_moment_id: string }[]).map((x) => (x.next_moment_id === log.id ? { ...x, next_moment_id: next } : x));
      if (JSON.stringify(t) !== JSON.stringify(m.transitions ?? [])) changes.push({ op: 'set', path: ['moments', m.id, 'transitions'], value: t });
      if (m.skip_to_moment_id === log.id) changes.push({ op: 'set', path: ['moments', m.id, 'skip_to_moment_id'], value: next });
    }
    changes.push({ op: 'remove', collection: 'moments', id: log.id });
    const w = await ok<Written>('POST', `/api/authoring/stories/${id}/changes`, users.owner, { base_revision: 0, changes });
    const pub = await ok<Written>('POST', `/api/authoring/stories/${id}/publish`, users.owner, { base_revision: w.draft.revision });
    expect(pub.version).toBe(2);

    // The player plays on: the whole winning plan, on version 1, to rank S.
    const plan = parsePlan(readFileSync(join(import.meta.dirname, '../fixtures/stories/lantern-keeper/win.en.testplan'), 'utf8'));
    if (!plan.ok) throw new Error(plan.error);
    const socket = await GameSocket.connect(srv.url, users.player.token);
    const played = await runPlanRemote(api, socket, run.id, plan.steps);
    await socket.close();
    expect(played.failure).toBeNull();
    expect(await api.request<PlayerStory>('GET', `/api/player-stories/${run.id}`)).toMatchObject({ loop_status: 'loopStatusWon', loop_rank: 1 });

    // A new run plays version 2: that moment is not there.
    const run2 = await api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: id, language: 'english' });
    const v2 = await api.request<{ moment_name: string }>('GET', `/api/player-stories/${run2.id}/game-view`);
    expect(v2.moment_name).not.toBe('Fog over Saltmere');
    expect((await srv.services.game.playerStoryOwner(run2.id))?.story_version).toBe(2);
    expect((await srv.services.game.playerStoryOwner(run.id))?.story_version).toBe(1);
  }, 120_000);

  it("plays the draft as a story maker's test run on the local host: it wins, and the server counts no run, rank or ticket", async () => {
    const { id, file } = await newStory(users.owner);
    await ok('POST', `/api/authoring/stories/${id}/publish`, users.owner, { base_revision: 0 });
    // The draft moves on past the published version: the test run plays the draft.
    const quay = momentNamed(file, 'Nell at the Quay');
    await ok('POST', `/api/authoring/stories/${id}/changes`, users.owner, { base_revision: 0, changes: [{ op: 'set', path: ['moments', quay.id, 'name'], value: { en: 'Nell on the Quay (draft)' } }] });
    const draft = await ok<DraftBody>('GET', `/api/authoring/stories/${id}/draft`, users.owner);
    const story = Story.parse(draft.document);
    let t = Date.UTC(2026, 0, 1);
    const started = LocalHost.start(story, {}, { now: () => (t += 5000) });
    if (!started.ok) throw new Error(describeStartErrors(started.errors));
    const run = started.host.state.run;
    if (!run) throw new Error('no run');
    expect(run.is_story_maker).toBe(true);
    const ids = new SeededRandom(7);
    const ctrl = new GameController(started.host, run, story.name, { language: 'english', time: { mode: 'instant' }, newId: () => ids.uuid() });
    const text = readFileSync(join(import.meta.dirname, '../fixtures/stories/lantern-keeper/win.en.testplan'), 'utf8').replace('expect moment Nell at the Quay', 'expect moment Nell on the Quay (draft)');
    const plan = parsePlan(text);
    if (!plan.ok) throw new Error(plan.error);
    const played = await playSteps(ctrl, plan.steps);
    expect(played.failure).toBeNull();
    expect(played.status).toBe('loopStatusWon');
    // Nothing of it reached the server: no run, no best rank, no ticket for the author.
    expect(await ok('GET', `/api/stories/${id}/launch`, users.owner)).toMatchObject({ state: 'FRESH', runs: 0, best_rank: null });
    expect(await ok<unknown[]>('GET', '/api/tickets', users.owner)).toEqual([]);
    // And the server starts no story-maker run: the run request has no such field.
    const r = await call('POST', '/api/player-stories', users.owner, { blueprint_story_id: id, language: 'english', story_maker: { persist_items: true, persist_characters: true } });
    expect(r.status).toBe(400);
  });
});
