// GET /api/authoring/entities/:id through the real server and store: the story of a character, item or place,
// looked up among the stories the caller may edit only (another author's story answers 404, like an unknown id);
// a player gets 403; a bad id 400; an entity added in the draft is found before any publish.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authoringCalls, type Json, type User } from './helpers/authoring-calls.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { cloneFixtureStory } from './helpers/story-clone.js';

let srv: TestServer;
const users = {} as Record<'owner' | 'other' | 'player' | 'admin', User>;
const { call, user } = authoringCalls(() => srv);

beforeAll(async () => {
  srv = await startTestServer();
  users.owner = await user('owner', 'author');
  users.other = await user('other', 'author');
  users.player = await user('player', 'player');
  users.admin = await user('admin', 'admin');
}, 120_000);
afterAll(async () => srv?.close());

describe('GET /api/authoring/entities/:id', () => {
  it('finds the story of a character, item or place among the caller\'s stories only', async () => {
    const file = cloneFixtureStory('lantern-keeper', `Entities ${randomUUID().slice(0, 6)}`);
    const created = await call('POST', '/api/authoring/stories', users.owner, { story: file });
    expect(created.status).toBe(201);
    const storyId = (created.body.draft as Json).story_id as string;
    const character = (file.characters as Json[])[0]?.id as string;
    const item = (file.items as Json[])[0]?.id as string;
    const place = (file.places as Json[])[0]?.id as string;

    for (const [id, collection] of [[character, 'characters'], [item, 'items'], [place, 'places']] as const) {
      const r = await call('GET', `/api/authoring/entities/${id}`, users.owner);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toEqual({ story_id: storyId, story_name: file.name, collection });
    }
    // Admins edit every story.
    expect((await call('GET', `/api/authoring/entities/${character}`, users.admin)).body).toMatchObject({ story_id: storyId });
    // Another author: as unknown as an id that exists nowhere.
    const other = await call('GET', `/api/authoring/entities/${character}`, users.other);
    const nowhere = await call('GET', `/api/authoring/entities/${randomUUID()}`, users.other);
    expect(other.status).toBe(404);
    expect(other.body).toEqual(nowhere.body);
    expect((await call('GET', `/api/authoring/entities/${character}`, users.player)).status).toBe(403);
    expect((await call('GET', `/api/authoring/entities/${character}`, null)).status).toBe(401);
    expect((await call('GET', '/api/authoring/entities/not-an-id', users.owner)).status).toBe(400);

    // A place added to the draft is found at once.
    const added = randomUUID();
    const ch = await call('POST', `/api/authoring/stories/${storyId}/changes`, users.owner, {
      base_revision: 0, changes: [{ op: 'add', collection: 'places', value: { id: added, name: { en: 'The new cove' } } }],
    });
    expect(ch.status, JSON.stringify(ch.body)).toBe(200);
    expect((await call('GET', `/api/authoring/entities/${added}`, users.owner)).body).toMatchObject({ story_id: storyId, collection: 'places' });
  });
});
