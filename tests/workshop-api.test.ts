// The studio's stories list through the real server and store: new stories from a template (blank, or a shipped
// story under new ids), duplicates (new ids, "(copy)", media copied), soft deletion (out of the catalogue and of new
// runs at once, listed with its purge time, undone, purged after the grace period), and publishing with a note.
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETE_GRACE_DAYS } from '../server/store/workshop.js';
import { authoringCalls, type Json, type User } from './helpers/authoring-calls.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { cloneFixtureStory } from './helpers/story-clone.js';

type Written = { draft: { story_id: string; revision: number; document: Json; publishable: boolean; report: unknown[] }; version?: number };
type Deleted = { id: string; name: string; deleted_at: string; purge_at: string };

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
let srv: TestServer;
const users = {} as Record<'owner' | 'other' | 'player' | 'admin', User>;
const { call, ok, user } = authoringCalls(() => srv);

async function published(who: User): Promise<string> {
  const w = await ok<Written>('POST', '/api/authoring/stories', who, { story: cloneFixtureStory('lantern-keeper', `Shelf ${randomUUID().slice(0, 6)}`) }, 201);
  await ok('POST', `/api/authoring/stories/${w.draft.story_id}/publish`, who, { base_revision: 0 });
  return w.draft.story_id;
}

const catalogue = async (): Promise<string[]> => (await ok<{ id: string }[]>('GET', '/api/stories', users.player)).map((s) => s.id);
const staticCatalogue = async (): Promise<string[]> => ((await (await fetch(`${srv.url}/data/catalogue.json`)).json()) as { stories: { id: string }[] }).stories.map((s) => s.id);
const mine = async (who: User): Promise<string[]> => (await ok<{ id: string }[]>('GET', '/api/authoring/stories', who)).map((s) => s.id);
const deleted = async (who: User): Promise<Deleted[]> => ok<Deleted[]>('GET', '/api/authoring/deleted', who);
const startRun = (id: string) => call('POST', '/api/player-stories', users.player, { blueprint_story_id: id, language: 'english' });

beforeAll(async () => {
  srv = await startTestServer();
  users.owner = await user('owner', 'author');
  users.other = await user('other', 'author');
  users.player = await user('player', 'player');
  users.admin = await user('admin', 'admin');
}, 120_000);
afterAll(async () => srv?.close());

describe('the studio stories list', () => {
  it('lists templates and makes a story from each: a blank one that can be published, and a shipped story under new ids', async () => {
    const templates = await ok<{ id: string; name: string; moments: number }[]>('GET', '/api/authoring/templates', users.owner);
    expect(templates.map((t) => t.id)).toEqual(['blank', 'clockwork-siege', 'lantern-keeper']);
    expect((await call('GET', '/api/authoring/templates', users.player)).status).toBe(403);

    const blank = await ok<Written>('POST', '/api/authoring/stories/from-template', users.owner, { template: 'blank', name: 'From nothing' }, 201);
    expect(blank.draft).toMatchObject({ revision: 0, publishable: true, report: [] });
    expect(blank.draft.document.name).toBe('From nothing');
    expect(await mine(users.owner)).toContain(blank.draft.story_id);
    await ok('POST', `/api/authoring/stories/${blank.draft.story_id}/publish`, users.owner, { base_revision: 0 });
    expect(await catalogue()).toContain(blank.draft.story_id);

    const lantern = cloneFixtureStory('lantern-keeper');
    const fromLantern = await ok<Written>('POST', '/api/authoring/stories/from-template', users.owner, { template: 'lantern-keeper' }, 201);
    const doc = fromLantern.draft.document;
    expect(doc.name).toBe('The Lantern Keeper');
    expect((doc.moments as unknown[]).length).toBe((lantern.moments as unknown[]).length);
    expect(JSON.stringify(doc).match(UUID)).not.toContain('8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a');
    // Its media came along: the logo is served from the new story's folder.
    const logo = await fetch(`${srv.url}/storage/v1/object/public/image/${fromLantern.draft.story_id}/logo.svg`);
    expect(logo.status).toBe(200);

    const unknown = await call('POST', '/api/authoring/stories/from-template', users.owner, { template: 'no-such' });
    expect(unknown.status).toBe(404);
    const badName = await call('POST', '/api/authoring/stories/from-template', users.owner, { template: 'blank', name: 'x'.repeat(121) });
    expect(badName.status).toBe(400);
  });

  it('duplicates a story: every id new, named "... (copy)", its uploaded media copied; others may not', async () => {
    const made = await ok<Written>('POST', '/api/authoring/stories/from-template', users.owner, { template: 'blank', name: 'Original' }, 201);
    const id = made.draft.story_id;
    // A draft-only story takes uploads (its authors prepare its media before the first publish).
    const png = await sharp({ create: { width: 8, height: 8, channels: 4, background: '#c33' } }).png().toBuffer();
    const up = await fetch(`${srv.url}/storage/v1/object/image/${id}/cover.png`, { method: 'POST', body: png, headers: { 'content-type': 'image/png', authorization: `Bearer ${users.owner.token}` } });
    expect(up.status).toBe(200);

    expect((await call('POST', `/api/authoring/stories/${id}/duplicate`, users.other, {})).status).toBe(403);
    expect((await call('POST', `/api/authoring/stories/${id}/duplicate`, users.player, {})).status).toBe(403);
    const before = await mine(users.owner);

    const copy = await ok<Written>('POST', `/api/authoring/stories/${id}/duplicate`, users.owner, {}, 201);
    const cid = copy.draft.story_id;
    expect(copy.draft.document.name).toBe('Original (copy)');
    const ids = new Set(JSON.stringify(copy.draft.document).match(UUID));
    for (const old of JSON.stringify(made.draft.document).match(UUID) ?? []) expect(ids.has(old)).toBe(false);
    expect(await mine(users.owner)).toEqual(expect.arrayContaining([...before, cid]));
    const copied = await fetch(`${srv.url}/storage/v1/object/public/image/${cid}/cover.png`);
    expect(copied.status).toBe(200);
  });

  it('deletes softly: out of every catalogue and of new runs at once, listed with Undo until its purge; undo brings it all back', async () => {
    const id = await published(users.owner);
    expect(await catalogue()).toContain(id);
    expect((await startRun(id)).status).toBe(201);

    // Nobody else may delete it, and a refusal changes nothing.
    expect((await call('DELETE', `/api/authoring/stories/${id}`, users.other)).status).toBe(403);
    expect((await call('DELETE', `/api/authoring/stories/${id}`, users.player)).status).toBe(403);
    expect((await call('DELETE', `/api/authoring/stories/${id}`, null)).status).toBe(401);
    expect(await catalogue()).toContain(id);

    const d = await ok<Deleted>('DELETE', `/api/authoring/stories/${id}`, users.owner);
    expect(Date.parse(d.purge_at) - Date.parse(d.deleted_at)).toBe(DELETE_GRACE_DAYS * 24 * 3600 * 1000);
    expect(await catalogue()).not.toContain(id);
    expect(await staticCatalogue()).not.toContain(id);
    expect((await call('GET', `/api/stories/${id}`, users.player)).status).toBe(404);
    const refused = await startRun(id);
    expect(refused.status).toBe(404);
    expect(await mine(users.owner)).not.toContain(id);
    expect((await deleted(users.owner)).map((x) => x.id)).toContain(id);
    expect((await deleted(users.other)).map((x) => x.id)).not.toContain(id);
    expect((await deleted(users.admin)).map((x) => x.id)).toContain(id);

    expect((await call('POST', `/api/authoring/stories/${id}/undelete`, users.other)).status).toBe(403);
    await ok('POST', `/api/authoring/stories/${id}/undelete`, users.owner);
    expect(await catalogue()).toContain(id);
    expect(await mine(users.owner)).toContain(id);
    expect((await deleted(users.owner)).map((x) => x.id)).not.toContain(id);
    expect((await startRun(id)).status).toBe(201);
    // Undo twice: nothing to bring back.
    expect((await call('POST', `/api/authoring/stories/${id}/undelete`, users.owner)).status).toBe(404);
  });

  it('purges a deleted story after the grace period, and only then', async () => {
    const id = await published(users.owner);
    const draftOnly = (await ok<Written>('POST', '/api/authoring/stories/from-template', users.owner, { template: 'blank' }, 201)).draft.story_id;
    await ok('DELETE', `/api/authoring/stories/${id}`, users.owner);
    await ok('DELETE', `/api/authoring/stories/${draftOnly}`, users.owner);
    const day = 24 * 3600 * 1000;
    expect(await srv.services.workshop.purge(new Date(Date.now() + (DELETE_GRACE_DAYS - 1) * day))).toEqual([]);
    expect((await deleted(users.owner)).map((x) => x.id)).toEqual(expect.arrayContaining([id, draftOnly]));
    const purged = await srv.services.workshop.purge(new Date(Date.now() + (DELETE_GRACE_DAYS + 1) * day));
    expect(purged).toEqual(expect.arrayContaining([id, draftOnly]));
    expect((await deleted(users.owner)).map((x) => x.id)).not.toContain(id);
    expect(await srv.services.drafts.open(id, null)).toBeNull();
    expect(await srv.services.stories.versions(id)).toEqual([]);
    expect(await srv.services.stories.exists(id)).toBe(false);
    expect((await call('GET', `/api/authoring/stories/${draftOnly}/draft`, users.admin)).status).toBe(404);
  });

  it('publishes with a note kept with the version; an empty note is refused; a draft with errors is refused with them', async () => {
    const made = await ok<Written>('POST', '/api/authoring/stories/from-template', users.owner, { template: 'blank' }, 201);
    const id = made.draft.story_id;
    expect((await call('POST', `/api/authoring/stories/${id}/publish`, users.owner, { base_revision: 0, note: '   ' })).status).toBe(400);
    expect((await call('POST', `/api/authoring/stories/${id}/publish`, users.owner, { base_revision: 0, note: 'n'.repeat(501) })).status).toBe(400);
    await ok('POST', `/api/authoring/stories/${id}/publish`, users.owner, { base_revision: 0, note: 'First light <b>ok</b>' });
    const name = ['name'];
    const w = await ok<Written>('POST', `/api/authoring/stories/${id}/changes`, users.owner, { base_revision: 0, changes: [{ op: 'set', path: name, value: 'Second' }] });
    await ok('POST', `/api/authoring/stories/${id}/publish`, users.owner, { base_revision: w.draft.revision });
    const versions = await ok<{ version: number; note: string | null }[]>('GET', `/api/authoring/stories/${id}/versions`, users.owner);
    expect(versions.map((v) => [v.version, v.note])).toEqual([[2, null], [1, 'First light <b>ok</b>']]);

    // The epilogue removed from the transitions: the opening cannot finish, an error the validator names.
    const doc = w.draft.document;
    const first = (doc.moments as Json[])[0] as Json;
    const broken = await ok<Written>('POST', `/api/authoring/stories/${id}/changes`, users.owner, { base_revision: w.draft.revision, changes: [{ op: 'set', path: ['moments', first.id, 'transitions'], value: [] }] });
    const refused = await call('POST', `/api/authoring/stories/${id}/publish`, users.owner, { base_revision: broken.draft.revision, note: 'Should not go out' });
    expect(refused.status).toBe(422);
    const problems = ((refused.body.error as Json).details as { problems: { severity: string; path: string }[] }).problems;
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((p) => p.severity === 'error')).toBe(true);
    expect(problems.map((p) => p.path)).toContain('$.moments[0].transitions');
    expect(await ok<unknown[]>('GET', `/api/authoring/stories/${id}/versions`, users.owner)).toHaveLength(2);
  });
});
