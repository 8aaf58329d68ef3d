// A fast-check arbitrary of story files: a few moments of any of the twelve types, wired by random transitions,
// answers and skip targets, with the fields each type reads (rewards, opponents, upgrade rules, team size) present,
// missing or broken at random, on the cast and items of the engine's test story. Most stories it makes are valid;
// some are not, so validation's errors and warnings are exercised too.
import fc from 'fast-check';
import { testStoryInput, T } from '../run/test-story.js';
import { MOMENT_TYPES, type MomentType } from '../schema/enums.js';
import type { StoryInput } from './format.js';

const id = (n: number): string => `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`;
const text = (en: string): { en: string; fr: string } => ({ en, fr: `${en} (fr)` });
const WORDS = ['lantern', 'harbour', 'seven', 'tide', 'gate', 'crank', 'north', 'silver', 'ember', 'owl'];

type MomentInput = StoryInput['moments'][number];
type Transitions = NonNullable<MomentInput['transitions']>;

const word = fc.constantFrom(...WORDS);
const phrases = fc.array(word, { minLength: 1, maxLength: 2 }).map((ws) => ({ en: ws, fr: ws.map((w) => `${w}e`) }));

const answer = (k: number): fc.Arbitrary<NonNullable<MomentInput['answers']>[number]> => fc.record({
  match: phrases,
  outcome: fc.constantFrom<'complete' | 'progress' | 'wrong'>('complete', 'progress', 'wrong'),
  score: fc.integer({ min: 0, max: 100 }),
  perfect: fc.boolean(),
  facts: fc.array(word, { maxLength: 2 }),
}).map((a) => ({ id: `a${k}`, reply: [text(`Reply ${k}.`)], ...a }));

/** One moment's fields, given its index, its type and the number of moments (targets are indices, mapped to ids). */
function moment(i: number, n: number): fc.Arbitrary<MomentInput> {
  return fc.constantFrom(...MOMENT_TYPES).chain((type) => momentOf(type, i, n));
}

/** A moment of this type. A Monologue, the first transition and skip targets only lead forward, and the last moment
 *  is never skipped: a loop of Monologues and skipped moments would play forever with no turn of the player's to end
 *  it (the simulation's turn limit counts player turns). */
function momentOf(type: MomentType, i: number, n: number): fc.Arbitrary<MomentInput> {
  const forward = type === 'Monologue';
  const ahead = (i === n - 1 ? fc.constant(i) : fc.integer({ min: i + 1, max: n - 1 })).map((k) => id(1000 + k));
  const target = forward ? ahead : fc.integer({ min: 0, max: n - 1 }).map((k) => id(1000 + k));
  return fc.record({
    type: fc.constant(type),
    // A last Monologue has nowhere forward to go: no transitions.
    transitions: forward && i === n - 1 ? fc.constant<Transitions>([]) : fc.array(fc.record({ next_moment_id: target, label: fc.option(word.map(text), { nil: undefined }), match: fc.option(phrases, { nil: undefined }) }), { maxLength: 3 })
      .chain((ts) => (ts.length === 0 ? fc.constant(ts) : ahead.map((first) => [{ ...ts[0], next_moment_id: first }, ...ts.slice(1)]))),
    answers: fc.array(fc.nat(), { maxLength: 3 }).chain((ks) => fc.tuple(...ks.map((_, k) => answer(k)))),
    answerNext: fc.option(target, { nil: undefined }),
    skip: i === n - 1 ? fc.constant(undefined) : fc.option(fc.record({
      skip_to_moment_id: fc.option(i === n - 1 ? fc.constant(undefined) : ahead, { nil: undefined }),
      skip_after_run_number: fc.option(fc.integer({ min: -1, max: 3 }), { nil: undefined }),
      show_after_run_number: fc.option(fc.integer({ min: -1, max: 3 }), { nil: undefined }),
      skip_after_completion_count: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
      display_randomly_probability: fc.option(fc.constantFrom(0, 50, 100), { nil: undefined }),
    }), { nil: undefined }),
    extra: fc.boolean(),
    size: fc.integer({ min: 1, max: 5 }),
    bets: fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 })),
    threshold: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
  }).map((g) => {
    const m: MomentInput = {
      id: id(1000 + i), name: text(`Moment ${i}`), date: `1900-01-${String(i + 1).padStart(2, '0')}`, type: g.type,
      character_id: T.sage, opening: [text(`Opening ${i}.`)],
    };
    const answers = g.answers.map((a, k) => (k === 0 && g.answerNext ? { ...a, next_moment_id: g.answerNext } : a));
    const transitions: Transitions = g.transitions;
    if (transitions.length > 0) m.transitions = transitions.map((t) => Object.fromEntries(Object.entries(t).filter(([, v]) => v !== undefined)) as typeof t);
    if (answers.length > 0) m.answers = answers;
    if (g.skip) Object.assign(m, Object.fromEntries(Object.entries(g.skip).filter(([, v]) => v !== undefined)));
    if (g.threshold !== undefined) Object.assign(m, { score_threshold_for_award: g.threshold, perfect_answer_item_id: T.gem });
    // The fields of the moment's own type: present when `extra` says so, so that missing ones are reported too.
    if (g.extra) {
      if (g.type === 'Reward') {
        Object.assign(m, { rewards: [
          { id: id(2000 + i), reward_type: 'item', item_ids: [T.cloak, T.medal] },
          { id: id(2100 + i), reward_type: 'character', character_ids: [T.rook] },
          { id: id(2200 + i), reward_type: 'dynamic_item', dynamic_rewards: [{ id: id(2300 + i), name: text('Echo'), match: { en: ['echo'] } }] },
        ] });
      } else if (g.type === 'Battle') Object.assign(m, { opponents: [{ character_id: T.foeA }, { character_id: T.foeB, health: 5 }] });
      else if (g.type === 'Assemble') Object.assign(m, { max_number_of_characters: g.size });
      else if (g.type === 'Upgrade') {
        Object.assign(m, { upgrade: {
          difficulties: [
            { level: 'easy', rarity: 'Prismatic', match: { en: ['easy'], fr: ['facile'] }, riddle: text('Two plus two?'), answers: { en: ['four'], fr: ['quatre'] } },
            { level: 'hard', rarity: 'Golden', match: { en: ['hard'], fr: ['difficile'] }, riddle: text('What answers back?'), answers: { en: ['echo'], fr: ['echo'] } },
          ],
          min_bet: g.bets[0], max_bet: g.bets[1], reward_item_id: T.medal,
        } });
      }
    }
    return m;
  });
}

/** A story of 2 to 7 moments of random types, the first moment first. */
export const storyArb: fc.Arbitrary<StoryInput> = fc.integer({ min: 2, max: 7 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => moment(i, n))))
  .map((moments) => ({
    ...testStoryInput,
    moments,
    first_moment_id: id(1000),
    loop_max_number_of_interactions: 20,
  }));
