// Plays a story test plan against a live server, over the real protocol: the same steps as `looptale story test`,
// checked against what the server answers (GAME_OUTPUT frames and the HTTP views).
import { rankToLetter, rankToNumber } from '../../engine/rules/rank.js';
import type { PlanStep } from '../../engine/story/testplan.js';
import type { GameOutput } from '../../engine/schema/game-output.js';
import type { GameView } from '../../engine/schema/views.js';
import type { Api, GameSocket, TurnResult } from './game-client.js';

export type RemotePlanResult = {
  ok: boolean;
  failure: { line: number; step: string; expected: string; actual: string } | null;
  turns: TurnResult[];
  last: GameOutput | null;
};

export async function runPlanRemote(api: Api, socket: GameSocket, playerStoryId: string, steps: readonly PlanStep[]): Promise<RemotePlanResult> {
  const turns: TurnResult[] = [];
  let last: GameOutput | null = null;
  let started = false;
  let over = false;
  const fail = (s: PlanStep, expected: string, actual: string): RemotePlanResult => ({ ok: false, failure: { line: s.line, step: `${s.verb} ${s.arg}`.trim(), expected, actual }, turns, last });

  const turn = async (text: string, start: boolean): Promise<string | null> => {
    const r = await socket.send({ player_story_id: playerStoryId, is_starting_dialogue: start, ...(start ? {} : { transcription: text }) });
    turns.push(r);
    if (r.error) return r.error;
    const out = r.outputs.at(-1);
    if (!out) return 'no GAME_OUTPUT';
    last = out;
    started = !out.complete_the_moment;
    over = out.loop_status !== 'loopStatusOnGoing';
    return null;
  };
  const startPending = async (): Promise<string | null> => {
    for (let i = 0; i < 50 && !started && !over; i++) {
      const err = await turn('', true);
      if (err) return err;
    }
    return null;
  };
  const view = (): Promise<GameView> => api.request<GameView>('GET', `/api/player-stories/${playerStoryId}/game-view`);

  for (const s of steps) {
    switch (s.verb) {
      case 'language': case 'seed': case 'run':
        break; // the run was created by the caller, in its language
      case 'start': {
        const err = await turn('', true);
        if (err) return fail(s, 'the moment to start', err);
        break;
      }
      case 'say': {
        const err = (await startPending()) ?? (await turn(s.arg, false));
        if (err) return fail(s, 'a turn', err);
        break;
      }
      case 'defend': {
        const strike = (last as GameOutput | null)?.battle_pending_strike;
        const struck = (last as GameOutput | null)?.player_characters.find((c) => c.character_id === strike?.target_id)?.character_name.toLowerCase();
        const options = s.arg.split('|').map((x) => x.split(':')).map(([n = '', ...w]) => ({ name: n.trim().toLowerCase(), text: w.join(':').trim() }));
        const chosen = options.find((o) => struck !== undefined && (o.name === struck || struck.startsWith(`${o.name} `)));
        if (!chosen) return fail(s, `a line for ${options.map((o) => o.name).join(' or ')}`, `the strike is on ${struck ?? 'nobody'}`);
        const err = await turn(chosen.text, false);
        if (err) return fail(s, 'a turn', err);
        break;
      }
      case 'end':
        await api.request('POST', `/api/player-stories/${playerStoryId}/end`);
        over = true;
        break;
      case 'select':
        return fail(s, 'a supported step', 'select is not supported against a live server (say the names instead)');
      case 'expect': {
        const [what = '', ...rest] = s.arg.split(/\s+/);
        const value = rest.join(' ');
        const o = last as GameOutput | null;
        const run = await api.request<{ loop_status: string; loop_rank: number | null; loop_current_number_of_interactions: number }>('GET', `/api/player-stories/${playerStoryId}`);
        const status = run.loop_status === 'loopStatusWon' ? 'won' : run.loop_status === 'loopStatusLost' ? 'lost' : 'ongoing';
        const check = async (): Promise<[string, string] | null> => {
          switch (what.toLowerCase()) {
            case 'complete': return o?.complete_the_moment ? null : ['the moment complete', 'not complete'];
            case 'not': return o?.complete_the_moment ? ['not complete', 'complete'] : null;
            case 'perfect': return o?.was_perfect_answer ? null : ['a perfect answer', 'not perfect'];
            case 'award': return o?.award_type === value ? null : [value, o?.award_type ?? ''];
            case 'status': return status === value ? null : [value, status];
            case 'rank': {
              const got = rankToLetter(run.loop_rank ?? 7);
              if (rest[0] === 'at' && rest[1] === 'least') return rankToNumber(got) <= rankToNumber(rest[2] ?? 'F') ? null : [`rank ${rest[2] ?? ''} or better`, got];
              return got === value.toUpperCase() ? null : [value, got];
            }
            case 'interactions': return String(run.loop_current_number_of_interactions) === value ? null : [value, String(run.loop_current_number_of_interactions)];
            case 'line': return (o?.dialogue ?? '').toLowerCase().includes(value.toLowerCase()) ? null : [`a line containing '${value}'`, o?.dialogue ?? ''];
            case 'type': {
              if (over) return null;
              const v = await view();
              return v.moment_type === value ? null : [value, v.moment_type];
            }
            case 'moment': {
              if (over) return null;
              const v = await view();
              return v.moment_name.toLowerCase() === value.toLowerCase() ? null : [value, v.moment_name];
            }
            default: return null; // expectations about the engine's inner state are checked offline only
          }
        };
        const problem = await check();
        if (problem) return fail(s, problem[0], problem[1]);
        break;
      }
    }
  }
  return { ok: true, failure: null, turns, last };
}
