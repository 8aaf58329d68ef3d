// The studio's draft layer (web/src/studio/draft/session.ts) against the real server: two tabs as two sessions,
// a shared browser storage as a Map, time stepped by hand. Edits reach the server; typing is one undo step; two tabs
// merge edits of different fields and turn edits of one field into a conflict the author resolves (never a silent
// overwrite); a reload keeps unsent edits, undo and redo; offline edits wait and go; a refused edit is dropped with
// the server's message on its field.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../cli/lib/game-client.js';
import type { Change } from '../engine/authoring/change.js';
import type { Json } from '../engine/authoring/apply.js';
import { DraftSession, type SessionClock, type SessionStorage } from '../web/src/studio/draft/session.js';
import { type DraftTransport, httpTransport } from '../web/src/studio/draft/transport.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { cloneFixtureStory } from './helpers/story-clone.js';

let srv: TestServer;
let token = '';

const clock: SessionClock = { now: () => Date.now(), after: () => ({ cancel: () => undefined }) };

function memoryStorage(): SessionStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, get: (k) => map.get(k) ?? null, set: (k, v) => void map.set(k, v), remove: (k) => void map.delete(k) };
}

function transport(storyId: string): DraftTransport {
  return httpTransport(srv.url, storyId, () => token, (url, init) => fetch(url, init));
}

/** A transport whose sends fail as if offline while `down` is set. */
function flaky(inner: DraftTransport, state: { down: boolean }): DraftTransport {
  return {
    load: () => inner.load(),
    since: (a) => inner.since(a),
    send: (b, c) => (state.down ? Promise.resolve({ kind: 'retry', offline: true, message: 'Cannot reach the server: fetch failed' }) : inner.send(b, c)),
  };
}

async function newStory(): Promise<{ id: string; moments: Json[] }> {
  const file = cloneFixtureStory('lantern-keeper', `Draft session ${randomUUID().slice(0, 6)}`);
  const res = await fetch(`${srv.url}/api/authoring/stories`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ story: file }) });
  expect(res.status).toBe(201);
  return { id: String(file.id), moments: file.moments as Json[] };
}

async function serverDoc(id: string): Promise<Json> {
  return (await transport(id).load()).doc;
}

const moment = (doc: Json, id: string): Json => (doc.moments as Json[]).find((m) => m.id === id) as Json;
const setGoal = (id: string, en: string): Change => ({ op: 'set', path: ['moments', id, 'goal'], value: { en, fr: en } });
const setHint = (id: string, en: string): Change => ({ op: 'set', path: ['moments', id, 'hint'], value: { en, fr: en } });

beforeAll(async () => {
  srv = await startTestServer();
  const s = await new Api(srv.url).signUp(`drafts-${Date.now()}@example.com`, 'correct horse battery staple');
  await srv.services.authors.setRole(s.user.id, 'author');
  token = s.access_token;
}, 120_000);
afterAll(async () => srv?.close());

describe('the studio draft layer', () => {
  it('sends an edit, makes keystrokes in one field one undo step, and undoes and redoes on the server', async () => {
    const { id, moments } = await newStory();
    const m = String(moments[0]?.id);
    const s = await DraftSession.open(id, transport(id), clock, memoryStorage(), { poll: false });
    const before = moment(s.view.doc, m).goal;
    for (const text of ['F', 'Fi', 'Fin', 'Find the key']) expect(s.apply([setGoal(m, text)], 'Edit goal')).toBeNull();
    expect(moment(s.view.doc, m).goal).toEqual({ en: 'Find the key', fr: 'Find the key' });
    expect(s.view.status).toBe('pending');
    expect(s.view.undoLabels).toEqual(['Edit goal']);
    await s.flush();
    expect(s.view.status).toBe('saved');
    expect(moment(await serverDoc(id), m).goal).toEqual({ en: 'Find the key', fr: 'Find the key' });
    s.undo();
    await s.flush();
    expect(moment(await serverDoc(id), m).goal).toEqual(before);
    expect(s.view.redoLabels).toEqual(['Edit goal']);
    s.redo();
    await s.flush();
    expect(moment(await serverDoc(id), m).goal).toEqual({ en: 'Find the key', fr: 'Find the key' });
    s.close();
  });

  it('sends an edit of more changes than one request takes in several requests, in order, losing none', async () => {
    const { id, moments } = await newStory();
    const s = await DraftSession.open(id, transport(id), clock, memoryStorage(), { poll: false });
    const changes = Array.from({ length: 450 }, (_, i) => setGoal(String(moments[i % moments.length]?.id), `Goal ${i}`));
    expect(s.apply(changes, 'Lay out')).toBeNull();
    for (let i = 0; i < 3; i++) await s.flush();
    expect(s.view.status).toBe('saved');
    expect(s.view.revision).toBe(3);
    const doc = await serverDoc(id);
    expect(JSON.stringify(doc.moments)).toBe(JSON.stringify(s.view.doc.moments));
    expect(moment(doc, String(moments[449 % moments.length]?.id)).goal).toEqual({ en: 'Goal 449', fr: 'Goal 449' });
    s.close();
  });

  it('merges two tabs editing different fields, and turns the same field into a conflict resolved by the author', async () => {
    const { id, moments } = await newStory();
    const m = String(moments[0]?.id);
    const a = await DraftSession.open(id, transport(id), clock, memoryStorage(), { poll: false });
    const b = await DraftSession.open(id, transport(id), clock, memoryStorage(), { poll: false });
    a.apply([setGoal(m, 'Goal from A')], 'Edit goal');
    b.apply([setHint(m, 'Hint from B')], 'Edit hint');
    await a.flush();
    await b.flush();
    await a.pull();
    expect(moment(a.view.doc, m).goal).toEqual({ en: 'Goal from A', fr: 'Goal from A' });
    expect(moment(a.view.doc, m).hint).toEqual({ en: 'Hint from B', fr: 'Hint from B' });
    expect(moment(b.view.doc, m).goal).toEqual({ en: 'Goal from A', fr: 'Goal from A' });

    // The same field: A's edit is on the server; B, still on the older revision, edits it too and sends.
    a.apply([setGoal(m, 'A again')], 'Edit goal');
    await a.flush();
    b.apply([setGoal(m, 'B wants this')], 'Edit goal');
    await b.flush();
    expect(b.view.status).toBe('conflict');
    expect(b.view.conflicts).toEqual([{ path: `moments/${m}/goal`, base: { en: 'Goal from A', fr: 'Goal from A' }, now: { en: 'A again', fr: 'A again' }, mine: { en: 'B wants this', fr: 'B wants this' } }]);
    expect(moment(await serverDoc(id), m).goal).toEqual({ en: 'A again', fr: 'A again' });
    b.resolve(`moments/${m}/goal`, { en: 'B wants this', fr: 'B wants this' });
    await b.flush();
    expect(b.view.status).toBe('saved');
    expect(moment(await serverDoc(id), m).goal).toEqual({ en: 'B wants this', fr: 'B wants this' });
    a.close();
    b.close();
  });

  it('sees a conflict as soon as the other tab\'s revision is read, before sending', async () => {
    const { id, moments } = await newStory();
    const m = String(moments[1]?.id);
    const a = await DraftSession.open(id, transport(id), clock, memoryStorage(), { poll: false });
    const b = await DraftSession.open(id, transport(id), clock, memoryStorage(), { poll: false });
    a.apply([setHint(m, 'from A')], 'Edit hint');
    await a.flush();
    b.apply([setHint(m, 'from B')], 'Edit hint');
    await b.pull();
    expect(b.view.conflicts.map((c) => c.path)).toEqual([`moments/${m}/hint`]);
    expect(moment(b.view.doc, m).hint).toEqual({ en: 'from A', fr: 'from A' });
    expect(b.view.pending).toBe(0);
    a.close();
    b.close();
  });

  it('keeps unsent edits, undo and redo through a reload, and sends them against the revision they were made on', async () => {
    const { id, moments } = await newStory();
    const m = String(moments[0]?.id);
    const storage = memoryStorage();
    const a = await DraftSession.open(id, transport(id), clock, storage, { poll: false });
    a.apply([setGoal(m, 'Saved first')], 'Edit goal');
    await a.flush();
    a.apply([setHint(m, 'Never sent before the tab closed')], 'Edit hint');
    a.close();
    const other = await DraftSession.open(id, transport(id), clock, memoryStorage(), { poll: false });
    other.apply([setGoal(moments[2]?.id as string, 'Meanwhile, elsewhere')], 'Edit goal');
    await other.flush();

    const again = await DraftSession.open(id, transport(id), clock, storage, { poll: false });
    expect(again.view.undoLabels).toEqual(['Edit hint', 'Edit goal']);
    expect(moment(again.view.doc, m).hint).toEqual({ en: 'Never sent before the tab closed', fr: 'Never sent before the tab closed' });
    await again.flush();
    const doc = await serverDoc(id);
    expect(moment(doc, m).hint).toEqual({ en: 'Never sent before the tab closed', fr: 'Never sent before the tab closed' });
    expect(moment(doc, String(moments[2]?.id)).goal).toEqual({ en: 'Meanwhile, elsewhere', fr: 'Meanwhile, elsewhere' });
    again.undo();
    again.undo();
    await again.flush();
    expect(moment(await serverDoc(id), m).goal).toEqual(moments[0]?.goal);
    again.close();
    other.close();
  });

  it('queues edits while offline, shows them pending, and sends them when the server answers again', async () => {
    const { id, moments } = await newStory();
    const m = String(moments[0]?.id);
    const net = { down: true };
    const s = await DraftSession.open(id, flaky(transport(id), net), clock, memoryStorage(), { poll: false });
    s.apply([setGoal(m, 'Offline one')], 'Edit goal');
    s.apply([setHint(m, 'Offline two')], 'Edit hint');
    await s.flush();
    expect(s.view.status).toBe('offline');
    expect(s.view.pending).toBe(2);
    net.down = false;
    await s.flush();
    expect(s.view.status).toBe('saved');
    const doc = moment(await serverDoc(id), m);
    expect([doc.goal, doc.hint]).toEqual([{ en: 'Offline one', fr: 'Offline one' }, { en: 'Offline two', fr: 'Offline two' }]);
    s.close();
  });

  it('drops an edit the server refuses, keeps the others, and shows the refusal on its field', async () => {
    const { id, moments } = await newStory();
    const m = String(moments[0]?.id);
    const s = await DraftSession.open(id, transport(id), clock, memoryStorage(), { poll: false });
    s.apply([setGoal(m, 'A good edit')], 'Edit goal');
    s.apply([{ op: 'set', path: ['moments', m, 'place_id'], value: randomUUID() }], 'Change place');
    await s.flush();
    await s.flush();
    await s.flush();
    expect(s.view.status).toBe('error');
    expect([...s.view.refusals.values()].join(' ')).toMatch(/place/i);
    expect(s.view.undoLabels).toEqual(['Edit goal']);
    const doc = moment(await serverDoc(id), m);
    expect(doc.goal).toEqual({ en: 'A good edit', fr: 'A good edit' });
    expect(doc.place_id).toEqual(moments[0]?.place_id);
    expect(moment(s.view.doc, m).place_id).toEqual(moments[0]?.place_id);
    // The next edit the server takes clears the refusal with the header's message.
    s.apply([setGoal(m, 'Another good edit')], 'Edit goal');
    await s.flush();
    expect(s.view.status).toBe('saved');
    expect(s.view.refusals.size).toBe(0);
    s.close();
  });
});
