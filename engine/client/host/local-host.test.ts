// The local game host: starts where and as the author says (a bad start refused with path-named errors), plays through
// the same GameController as the server, mid-story to the end (its start state and events replay it), and answers
// resends and refusals as the server does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../random.js';
import { step } from '../../run/step.js';
import { stateDigest } from '../../sim/transcript.js';
import { Story } from '../../story/format.js';
import { parsePlan } from '../../story/testplan.js';
import { TURN_ERRORS } from '../../protocol/turn-errors.js';
import { ApiError } from '../api/http.js';
import { GameController } from '../game-screen/controller.js';
import { LOCAL_AUDIO_REFUSED, LocalHost, type LocalHostOptions } from './local-host.js';
import { checkStart, describeStartErrors } from './local-start.js';
import { playSteps } from './test-driver.js';

const ROOT = join(import.meta.dirname, '../../../fixtures/stories');
const load = (slug: string): Story => Story.parse(JSON.parse(readFileSync(join(ROOT, slug, 'story.json'), 'utf8')));
const lantern = load('lantern-keeper');
const siege = load('clockwork-siege');

const byName = (story: Story, name: string): string => {
  const hit = [...story.characters, ...story.items.map((i) => ({ ...i, name: typeof i.name === 'string' ? i.name : i.name.en ?? '' }))].find((x) => x.name === name);
  if (!hit) throw new Error(`no ${name}`);
  return hit.id;
};
const momentNamed = (story: Story, name: string): string => {
  const m = story.moments.find((x) => (typeof x.name === 'string' ? x.name : x.name.en) === name);
  if (!m) throw new Error(`no moment ${name}`);
  return m.id;
};

function clock(): LocalHostOptions {
  let t = Date.UTC(2026, 0, 1);
  return { now: () => (t += 5000) };
}

function open(story: Story, start: unknown): LocalHost {
  const r = LocalHost.start(story, start, clock());
  if (!r.ok) throw new Error(describeStartErrors(r.errors));
  return r.host;
}

function controllerOn(host: LocalHost, story: Story): GameController {
  const run = host.state.run;
  if (!run) throw new Error('no run');
  const ids = new SeededRandom(11);
  return new GameController(host, run, story.name, { language: 'english', time: { mode: 'instant' }, newId: () => ids.uuid() });
}

describe('a local host start', () => {
  it('refuses a bad start with every error named by its path, and opens nothing', () => {
    const ysolde = byName(lantern, 'Ysolde Marrow');
    const lens = byName(lantern, 'Moonstone Lens');
    const r = LocalHost.start(lantern, {
      moment_id: 'no-such-moment',
      completion_counts: { 'gone-moment': 1 },
      items: ['no-such-item', lens, lens],
      characters: [{ id: 'ghost' }, { id: ysolde, health: 99, equipment: [byName(lantern, 'Storm Lantern'), 'bogus'] }],
    }, clock());
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual([
      { path: 'moment_id', message: "Unknown moment 'no-such-moment'." },
      { path: 'completion_counts.gone-moment', message: "Unknown moment 'gone-moment'." },
      { path: 'items[0]', message: "Unknown item 'no-such-item'." },
      { path: 'items[2]', message: `Item '${lens}' is listed twice.` },
      { path: 'characters[0].id', message: "Unknown character 'ghost'." },
      { path: 'characters[1].health', message: "Health 99 is above Ysolde Marrow's maximum health 10." },
      { path: 'characters[1].equipment[0]', message: `Item '${byName(lantern, 'Storm Lantern')}' is not among the start's items.` },
      { path: 'characters[1].equipment[1]', message: "Unknown item 'bogus'." },
    ]);
  });

  it('refuses a start of the wrong shape with zod paths', () => {
    const r = checkStart(lantern, { run_number: 0, persist: { items: 'yes', characters: false }, characters: [{ id: 'x', selected: 1 }], colour: 'red' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => e.path)).toEqual(['run_number', 'characters[0].selected', 'persist.items', '(start)']);
    expect(describeStartErrors(r.errors)).toContain('(start): Unrecognized key: "colour"');
  });

  it('with nothing set, opens a first run at the first moment with the default cards', () => {
    const host = open(lantern, {});
    expect(host.state.run).toMatchObject({ loop_number: 1, is_story_maker: true, loop_status: 'loopStatusOnGoing' });
    expect(host.state.characters.map((c) => c.name)).toEqual(['Ysolde Marrow']);
    expect(host.state.moments.map((m) => m.blueprint_moment_id)).toEqual([lantern.first_moment_id]);
  });

  it('reads the run number and completion counts: run 2 shows the moment shown from run 2 on', async () => {
    const ysoldeRemembers = momentNamed(lantern, 'Ysolde Remembers');
    const log = momentNamed(lantern, "The Keeper's Log");
    const seen = async (runNumber: number): Promise<string[]> => {
      const host = open(lantern, { run_number: runNumber, completion_counts: { [log]: 3 } });
      expect(host.state.completion_counts).toEqual({ [log]: 3 });
      expect(host.state.history.runs).toBe(runNumber - 1);
      const ctrl = controllerOn(host, lantern);
      await ctrl.startPending();
      expect(ctrl.model.view?.loop_number).toBe(runNumber);
      return host.state.moments.filter((m) => m.skipped_reason === null).map((m) => m.blueprint_moment_id);
    };
    expect(await seen(1)).not.toContain(ysoldeRemembers);
    expect(await seen(2)).toContain(ysoldeRemembers);
  });

  it('a new run keeps what the persist options keep, and nothing else', () => {
    const ids = { ysolde: byName(lantern, 'Ysolde Marrow'), nell: byName(lantern, 'Nell Cardew'), lantern: byName(lantern, 'Storm Lantern'), coat: byName(lantern, 'Oilskin Coat') };
    const next = (persist: { items: boolean; characters: boolean }) => {
      const host = open(lantern, {
        characters: [{ id: ids.ysolde }, { id: ids.nell, equipment: [ids.lantern] }], items: [ids.coat, ids.lantern], persist,
      });
      expect(host.state.characters.map((c) => c.name).sort()).toEqual(['Nell Cardew', 'Ysolde Marrow']);
      const run = host.newRun();
      expect(run.loop_number).toBe(2);
      return { characters: host.state.characters.map((c) => c.name).sort(), items: host.state.items.map((i) => i.name).sort(), links: host.state.character_items.length };
    };
    expect(next({ items: false, characters: false })).toEqual({ characters: ['Ysolde Marrow'], items: ['Oilskin Coat'], links: 0 });
    expect(next({ items: true, characters: false })).toEqual({ characters: ['Ysolde Marrow'], items: ['Oilskin Coat', 'Storm Lantern'], links: 0 });
    expect(next({ items: true, characters: true })).toEqual({ characters: ['Nell Cardew', 'Ysolde Marrow'], items: ['Oilskin Coat', 'Storm Lantern'], links: 1 });
  });
});

describe('a local host run', () => {
  it('starts mid-story at the Battle with a chosen team, health and equipment, and plays to the end', async () => {
    const id = (n: string) => byName(siege, n);
    const host = open(siege, {
      moment_id: momentNamed(siege, 'Battle at the Great Gate'),
      seed: 7,
      items: [id('Chime-Hammer'), id('Bell-Metal Buckler')],
      characters: [
        { id: id('Orla Vance'), health: 10 },
        { id: id('Tam Wick'), health: 6 },
        { id: id('Ferrule'), health: 12, max_health: 18, equipment: [id('Chime-Hammer')] },
        { id: id('Idris Holt'), selected: false },
      ],
    });
    const ctrl = controllerOn(host, siege);
    await ctrl.refreshView();
    const m = ctrl.model;
    expect(m.view?.moment_type).toBe('Battle');
    expect(m.team.map((c) => [c.name, c.health, c.maxHealth, c.selected])).toEqual([
      ['Orla Vance', 10, 13, true], ['Tam Wick', 6, 9, true], ['Ferrule', 12, 18, true], ['Idris Holt', 12, 12, false],
    ]);
    expect(m.items.map((i) => i.available_item_name)).toEqual(['Bell-Metal Buckler']);

    const win = readFileSync(join(ROOT, 'clockwork-siege', 'win.en.testplan'), 'utf8').split('\n');
    const fromBattle = win.slice(win.findIndex((l) => l.startsWith('say Ferrule, crush'))).join('\n');
    const plan = parsePlan(fromBattle);
    if (!plan.ok) throw new Error(plan.error);
    const played = await playSteps(ctrl, plan.steps);
    expect(played.failure).toBeNull();
    expect(played.turns.some((t) => t.moment === 'Battle at the Great Gate' && t.complete)).toBe(true);
    expect(played.status).toBe('loopStatusWon');
    expect(played.rank).toMatch(/^[SABCDEF]$/);
    expect(host.state.run?.loop_status).toBe('loopStatusWon');
    // The team that fought is the one chosen: Idris Holt stayed out.
    expect(host.state.opponents.length).toBeGreaterThan(0);
    expect(host.state.characters.find((c) => c.name === 'Idris Holt')?.current_health).toBe(12);
    ctrl.dispose();

    // The start state and the events kept replay the run through the engine's step, output for output.
    let replayed = host.initial;
    for (const e of host.events) {
      const r = step(replayed, e.event, { now: e.now, story: siege });
      if (!r.ok) throw new Error(r.error.message);
      expect(r.outputs).toEqual(e.outputs);
      replayed = r.state;
    }
    expect(host.events.length).toBe(played.turns.length);
    expect(stateDigest(replayed)).toBe(stateDigest(host.state));
  });

  it('answers a resend once, refuses audio it cannot hear, and refuses turns after the end', async () => {
    const host = open(lantern, {});
    const run = host.state.run;
    if (!run) throw new Error('no run');
    const ids = new SeededRandom(3);
    const start = { input_id: ids.uuid(), player_story_id: run.id, is_starting_dialogue: true };
    const first = await host.send(start);
    expect(first.error).toBeNull();
    expect(first.outputs.length).toBeGreaterThan(0);
    const state = host.state;
    expect(await host.send(start)).toBe(first);
    expect(host.state).toBe(state);
    expect(host.events.length).toBe(1);

    const clip = await host.send({ input_id: ids.uuid(), player_story_id: run.id, is_starting_dialogue: false, audio_format: 'wav' }, new Uint8Array(16));
    expect(clip.error).toBe(LOCAL_AUDIO_REFUSED);
    const empty = await host.send({ input_id: ids.uuid(), player_story_id: run.id, is_starting_dialogue: false });
    expect(empty).toMatchObject({ error: TURN_ERRORS['turn/no_input'], errorCode: 'turn/no_input' });
    const bad = await host.send({ input_id: 'not-a-uuid', player_story_id: run.id, is_starting_dialogue: false, transcription: 'hi' });
    expect(bad.error).toMatch(/^Invalid USER_INPUT: input_id: /);
    expect(host.state).toBe(state);

    const ended = await host.endRun(run.id);
    expect(ended).toMatchObject({ loop_status: 'loopStatusLost' });
    expect(ended.loop_rank).not.toBeNull();
    const late = await host.send({ input_id: ids.uuid(), player_story_id: run.id, is_starting_dialogue: false, transcription: 'hello' });
    expect(late).toMatchObject({ error: TURN_ERRORS['run/finished'], errorCode: 'run/finished' });
    await expect(host.endRun(run.id)).rejects.toMatchObject({ status: 409, code: 'run/finished' });
    await expect(host.playerStory('someone-else')).rejects.toBeInstanceOf(ApiError);
    expect(await host.gameView('someone-else')).toBeNull();
  });
});
