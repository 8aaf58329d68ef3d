// Story test plans (in the spirit of Yarn Spinner's testplans): a text file of player lines and expectations,
// played through the scripted brain and the engine. The runner stops at the first mismatch and says where.
//
//   # comment                     language english|french   seed 42
//   run                           start a (new) run; implicit before the first line that needs one
//   say <words>                   the player speaks (moments that have not started are started first)
//   defend <Name>: <words> | <Name>: <words>   in a battle, say the words given for the character being struck
//   start                         send the starting dialogue of the current moment
//   select <name>, <name>         choose the Assemble team on screen (no interaction spent)
//   end                           End Current Run
//   expect moment <name>          the current moment (name in the run's language, or its id)
//   expect type <MomentType>      expect line <text>   (the character's last line contains the text, any case)
//   expect complete | expect not complete | expect perfect | expect award <source> | expect ticket
//   expect status won|lost|ongoing  expect rank <letter> | expect rank at least <letter>
//   expect interactions <n>       expect remaining <n>    expect characters <n>    expect item <name>
import type { PlayLanguage } from '../schema/enums.js';
import type { GameOutput } from '../schema/game-output.js';
import { hashSeed, SeededRandom } from '../random.js';
import { rankToLetter, rankToNumber } from '../rules/rank.js';
import { currentMoment, currentRun, initialState, type GameState } from '../run/state.js';
import { step } from '../run/step.js';
import type { GameEvent } from '../run/events.js';
import { scriptedTurn } from '../sim/play-turn.js';
import type { Story } from './format.js';
import { indexStory } from './story-index.js';
import { localize } from './text.js';

export type PlanStep = { line: number; verb: string; arg: string };
export type PlanResult = {
  ok: boolean;
  steps: number;
  failure: { line: number; step: string; expected: string; actual: string } | null;
  log: { line: number; step: string; said?: string; reply?: string; moment?: string }[];
  events: { event: GameEvent; now: number; outputs: GameOutput[] }[];
  state: GameState;
};

const VERBS = new Set(['language', 'seed', 'run', 'say', 'defend', 'start', 'select', 'end', 'expect']);

export function parsePlan(text: string): { ok: true; steps: PlanStep[] } | { ok: false; error: string } {
  const steps: PlanStep[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const sp = line.indexOf(' ');
    const verb = (sp < 0 ? line : line.slice(0, sp)).toLowerCase();
    const arg = sp < 0 ? '' : line.slice(sp + 1).trim();
    if (!VERBS.has(verb)) return { ok: false, error: `line ${i + 1}: unknown step '${verb}' (expected one of ${[...VERBS].join(', ')})` };
    steps.push({ line: i + 1, verb, arg });
  }
  return { ok: true, steps };
}

export function runPlan(story: Story, steps: readonly PlanStep[], opts: { seed?: number; userId?: string } = {}): PlanResult {
  let language: PlayLanguage = 'english';
  let seed = opts.seed ?? 1;
  let state = initialState(opts.userId ?? 'story-tester', story.id, seed);
  let now = Date.UTC(2026, 0, 1);
  let r = new SeededRandom(seed);
  const box: { last: GameOutput | null } = { last: null };
  const log: PlanResult['log'] = [];
  const events: PlanResult['events'] = [];
  const idx = indexStory(story);

  const apply = (ev: GameEvent): string | null => {
    now += 5000;
    const res = step(state, ev, { now, story });
    if (!res.ok) return res.error.message;
    state = res.state;
    events.push({ event: ev, now, outputs: res.outputs });
    if (res.outputs.length) box.last = res.outputs[res.outputs.length - 1] ?? box.last;
    return null;
  };
  const turn = (text: string, start: boolean, selected?: string[]): string | null => {
    now += 5000;
    const { event, result } = scriptedTurn(state, story, { input_id: r.uuid(), transcription: text, is_starting_dialogue: start, ...(selected ? { selected_character_ids: selected } : {}) }, now);
    if (!result.ok) return result.error.message;
    state = result.state;
    events.push({ event, now, outputs: result.outputs });
    box.last = result.outputs[result.outputs.length - 1] ?? box.last;
    return null;
  };
  const ensureRun = (): string | null => {
    const run = currentRun(state);
    return run && run.loop_status === 'loopStatusOnGoing' ? null : apply({ type: 'run.create', language, reset_progress: false });
  };
  const momentName = (): string => {
    const pm = currentMoment(state);
    const m = pm ? idx.moments.get(pm.blueprint_moment_id) : undefined;
    return m ? localize(m.name, language) : '(none)';
  };
  const startPending = (): string | null => {
    for (let guard = 0; guard < 50; guard++) {
      const run = currentRun(state);
      const pm = currentMoment(state);
      if (!run || run.loop_status !== 'loopStatusOnGoing' || !pm || pm.is_started) return null;
      const err = turn('', true);
      if (err) return err;
      log.push({ line: 0, step: 'start', reply: box.last?.dialogue ?? '', moment: momentName() });
    }
    return 'too many moments started in a row';
  };
  const fail = (s: PlanStep, expected: string, actual: string): PlanResult => ({
    ok: false, steps: steps.indexOf(s), failure: { line: s.line, step: `${s.verb} ${s.arg}`.trim(), expected, actual }, log, events, state,
  });

  for (const s of steps) {
    switch (s.verb) {
      case 'language':
        if (s.arg !== 'english' && s.arg !== 'french') return fail(s, 'english or french', s.arg);
        language = s.arg;
        break;
      case 'seed': {
        seed = Number(s.arg);
        r = new SeededRandom(hashSeed(s.arg));
        state = { ...state, rng: seed >>> 0 };
        break;
      }
      case 'run': {
        const err = apply({ type: 'run.create', language, reset_progress: false });
        if (err) return fail(s, 'a new run', err);
        break;
      }
      case 'start': {
        const err = ensureRun() ?? turn('', true);
        if (err) return fail(s, 'the moment to start', err);
        log.push({ line: s.line, step: 'start', reply: box.last?.dialogue ?? '', moment: momentName() });
        break;
      }
      case 'say': {
        const err = ensureRun() ?? startPending() ?? turn(s.arg, false);
        if (err) return fail(s, 'a turn', err);
        log.push({ line: s.line, step: 'say', said: s.arg, reply: box.last?.dialogue ?? '', moment: momentName() });
        break;
      }
      case 'defend': {
        const target = currentMoment(state)?.pending_strike?.target_id;
        const struck = state.characters.find((ch) => ch.id === target)?.name.toLowerCase();
        const options = s.arg.split('|').map((x) => x.split(':')).map(([name = '', ...words]) => ({ name: name.trim().toLowerCase(), text: words.join(':').trim() }));
        const chosen = options.find((o) => struck !== undefined && (o.name === struck || struck.startsWith(`${o.name} `)));
        if (!chosen) return fail(s, `a line for ${options.map((o) => o.name).join(' or ')}`, `the strike is on ${struck ?? 'nobody'}`);
        const err = turn(chosen.text, false);
        if (err) return fail(s, 'a turn', err);
        log.push({ line: s.line, step: 'defend', said: chosen.text, reply: box.last?.dialogue ?? '', moment: momentName() });
        break;
      }
      case 'select': {
        const names = s.arg.split(',').map((x) => x.trim().toLowerCase()).filter(Boolean);
        const ids = state.characters.filter((c) => names.includes(c.name.toLowerCase())).map((c) => c.id);
        const err = ensureRun() ?? startPending() ?? apply({ type: 'assemble.select', character_ids: ids });
        if (err) return fail(s, 'a team selection', err);
        break;
      }
      case 'end': {
        const err = apply({ type: 'run.end' });
        if (err) return fail(s, 'the run to end', err);
        break;
      }
      case 'expect': {
        const pm = currentMoment(state);
        const problem = check(s.arg, { state, last: box.last, momentName: momentName(), momentType: (pm ? idx.moments.get(pm.blueprint_moment_id)?.type : undefined) ?? '(none)' });
        if (problem) return fail(s, problem.expected, problem.actual);
        break;
      }
    }
  }
  return { ok: true, steps: steps.length, failure: null, log, events, state };
}

type CheckCtx = { state: GameState; last: GameOutput | null; momentName: string; momentType: string };

function check(arg: string, c: CheckCtx): { expected: string; actual: string } | null {
  const [what = '', ...rest] = arg.split(/\s+/);
  const value = rest.join(' ');
  const run = currentRun(c.state);
  const pm = currentMoment(c.state);
  const eq = (expected: string, actual: string): { expected: string; actual: string } | null => (expected === actual ? null : { expected, actual });
  switch (what.toLowerCase()) {
    case 'moment':
      return c.momentName.toLowerCase() === value.toLowerCase() || pm?.blueprint_moment_id === value ? null : { expected: `moment '${value}'`, actual: `moment '${c.momentName}'` };
    case 'type':
      return eq(value, c.momentType);
    case 'line':
      return (c.last?.dialogue ?? '').toLowerCase().includes(value.toLowerCase()) ? null : { expected: `a line containing '${value}'`, actual: `'${c.last?.dialogue ?? ''}'` };
    case 'complete':
      return c.last?.complete_the_moment ? null : { expected: 'the moment complete', actual: 'not complete' };
    case 'not':
      return !c.last?.complete_the_moment ? null : { expected: 'the moment not complete', actual: 'complete' };
    case 'perfect':
      return c.last?.was_perfect_answer ? null : { expected: 'a perfect answer', actual: 'not perfect' };
    case 'award':
      return eq(value, c.last?.award_type ?? '');
    case 'ticket':
      return c.state.tickets.length > 0 ? null : { expected: 'a golden ticket', actual: 'no ticket' };
    case 'status': {
      const st = run?.loop_status === 'loopStatusWon' ? 'won' : run?.loop_status === 'loopStatusLost' ? 'lost' : 'ongoing';
      return eq(value, st);
    }
    case 'rank': {
      const got = rankToLetter(run?.loop_rank ?? 7);
      if (rest[0] === 'at' && rest[1] === 'least') return rankToNumber(got) <= rankToNumber(rest[2] ?? 'F') ? null : { expected: `rank ${rest[2] ?? ''} or better`, actual: `rank ${got}` };
      return eq(value.toUpperCase(), got);
    }
    case 'interactions':
      return eq(value, String(run?.loop_current_number_of_interactions ?? 0));
    case 'remaining':
      return eq(value, String(Math.max(0, (run?.loop_max_number_of_interactions ?? 0) - (run?.loop_current_number_of_interactions ?? 0))));
    case 'characters':
      return eq(value, String(c.state.characters.length));
    case 'item':
      return c.state.items.some((i) => i.name.toLowerCase() === value.toLowerCase()) ? null : { expected: `an item '${value}'`, actual: c.state.items.map((i) => i.name).join(', ') || 'no items' };
    default:
      return { expected: 'a known expectation (moment, type, line, complete, not complete, perfect, award, ticket, status, rank, interactions, remaining, characters, item)', actual: what };
  }
}

