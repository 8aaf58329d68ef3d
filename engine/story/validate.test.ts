import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { testStoryInput, T } from '../run/test-story.js';
import type { StoryInput } from './format.js';
import { jsonPath, validateStory, type Problem } from './validate.js';

const STORIES = join(import.meta.dirname, '../../fixtures/stories');
const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

/** A deep copy of the engine test story, changed by `edit`. */
function story(edit: (s: StoryInput) => void): StoryInput {
  const s = structuredClone(testStoryInput);
  edit(s);
  return s;
}
const moment = (s: StoryInput, id: string): StoryInput['moments'][number] => {
  const m = s.moments.find((x) => x.id === id);
  if (!m) throw new Error(`no moment ${id}`);
  return m;
};
const codes = (ps: readonly Problem[]): string[] => ps.map((p) => `${p.severity} ${p.path} ${p.code}`);

/** Follows a path written by jsonPath back into the value. */
function valueAt(raw: unknown, path: string): unknown {
  const parts = [...path.slice(1).matchAll(/\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g)];
  let x = raw;
  for (const [, key, index, quoted] of parts) {
    const k: string | number = index !== undefined ? Number(index) : key ?? (JSON.parse(quoted ?? '""') as string);
    x = (x as Record<string | number, unknown> | undefined)?.[k];
  }
  return x;
}

describe('validateStory on the broken fixture', () => {
  const raw = readJson(join(STORIES, 'broken/story.json'));
  const result = validateStory(raw);
  const M = (i: number): string => `$.moments[${i}]`;

  const expected: [Problem['severity'], string, string][] = [
    // schema errors
    ['error', '$.author', 'schema/unknown_field'],
    ['error', '$.catalogue.created_at', 'schema/missing_field'],
    ['error', '$.characters[2].base_attack', 'schema/invalid_type'],
    ['error', '$.items[1].id', 'id/not_uuid_v4'],
    // ids and references
    ['error', '$.places[1].id', 'id/duplicate'],
    ['error', `${M(11)}.rewards[0].id`, 'id/duplicate'],
    ['error', `${M(0)}.place_id`, 'ref/unknown_place'],
    ['error', `${M(1)}.character_id`, 'ref/unknown_character'],
    ['error', `${M(2)}.transitions[1].next_moment_id`, 'ref/unknown_moment'],
    ['error', `${M(3)}.answers[0].next_moment_id`, 'answer/next_not_transition'],
    ['error', `${M(3)}.answers[1].next_moment_id`, 'ref/unknown_moment'],
    ['error', `${M(5)}.opponents[1].character_id`, 'ref/unknown_character'],
    ['error', `${M(6)}.perfect_answer_item_id`, 'ref/unknown_item'],
    ['error', `${M(9)}.skip_to_moment_id`, 'ref/unknown_moment'],
    ['error', `${M(11)}.rewards[0].item_ids[0]`, 'ref/unknown_item'],
    ['error', `${M(11)}.rewards[1].character_ids[0]`, 'ref/unknown_character'],
    ['error', `${M(12)}.upgrade.reward_item_id`, 'ref/unknown_item'],
    ['error', '$.rank_rewards[0].item_id', 'ref/unknown_item'],
    // moments that cannot end
    ['error', `${M(1)}.answers`, 'moment/cannot_complete'],
    ['error', `${M(2)}.transitions`, 'crossroad/no_branch'],
    ['error', `${M(3)}.rewards`, 'reward/none'],
    ['error', `${M(4)}.opponents`, 'battle/no_opponents'],
    ['error', `${M(6)}.upgrade`, 'upgrade/no_rules'],
    ['error', `${M(7)}.max_number_of_characters`, 'assemble/no_size'],
    ['error', `${M(9)}.transitions`, 'moment/no_transition'],
    // battles
    ['error', `${M(4)}.type`, 'battle/no_battle_verbs'],
    ['error', `${M(5)}.type`, 'battle/no_battle_verbs'],
    ['error', `${M(5)}.opponents[0]`, 'battle/opponent_no_health'],
    // the graph
    ['error', M(10), 'moment/unreachable'],
    ['error', M(11), 'moment/unreachable'],
    ['error', M(12), 'moment/unreachable'],
    ['error', '$.first_moment_id', 'story/no_epilogue'],
    ['warning', M(0), 'moment/no_epilogue'],
    ['warning', M(9), 'moment/no_epilogue'],
    ['warning', `${M(9)}.show_after_run_number`, 'skip/never_shown'],
    ['warning', `${M(8)}.max_number_of_characters`, 'assemble/too_few_characters'],
    // translations
    ['warning', `${M(0)}.name`, 'i18n/missing_fr'],
    ['warning', `${M(1)}.answers[0].match`, 'i18n/missing_fr'],
  ];

  it('fails, with no parsed story (the schema fails)', () => {
    expect(result.ok).toBe(false);
    expect(result.story).toBeUndefined();
  });

  it.each(expected)('reports %s at %s: %s', (severity, path, code) => {
    const hit = result.problems.find((p) => p.path === path && p.code === code);
    expect(hit, `${path} ${code} in\n${codes(result.problems).join('\n')}`).toBeDefined();
    expect(hit?.severity).toBe(severity);
    expect(hit?.message).toMatch(/^[A-Z"].*\.$/);
  });

  it('reports nothing unexpected', () => {
    const known = new Set(expected.map(([s, p, c]) => `${s} ${p} ${c}`));
    const extra = codes(result.problems).filter((c) => !known.has(c) && !c.endsWith('moment/no_epilogue'));
    expect(extra).toEqual([]);
    // Every reachable moment but the Epilogue leads nowhere good: Harbour Night (0) to Echo (9).
    expect(result.problems.filter((p) => p.code === 'moment/no_epilogue').map((p) => p.path)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(M));
  });

  it('names the thing in each message', () => {
    const msg = (path: string, code: string): string => result.problems.find((p) => p.path === path && p.code === code)?.message ?? '';
    expect(msg(`${M(2)}.transitions[1].next_moment_id`, 'ref/unknown_moment')).toBe('Transition 1 of moment "Fork" points to no moment: 0b000000-0000-4000-8000-000000000999.');
    expect(msg('$.items[1].id', 'id/not_uuid_v4')).toContain('"lamp-1"');
    expect(msg(`${M(3)}.answers[0].next_moment_id`, 'answer/next_not_transition')).toContain('moment "Forge"');
    expect(msg(`${M(8)}.max_number_of_characters`, 'assemble/too_few_characters')).toContain('needs 4 characters');
  });

  it('lists errors first, each path pointing into the file (or at a field missing from an object there)', () => {
    const firstWarning = result.problems.findIndex((p) => p.severity === 'warning');
    expect(result.problems.slice(firstWarning).every((p) => p.severity === 'warning')).toBe(true);
    for (const p of result.problems) {
      const parent = p.path.replace(/\.[A-Za-z_][A-Za-z0-9_]*$/, '');
      expect(valueAt(raw, p.path) !== undefined || typeof valueAt(raw, parent) === 'object', p.path).toBe(true);
    }
  });
});

describe('validateStory on good stories', () => {
  it('finds nothing wrong with the engine test story', () => {
    const r = validateStory(testStoryInput);
    expect(r.problems).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.story?.id).toBe(T.story);
  });

  const fixtures = existsSync(STORIES) ? readdirSync(STORIES).filter((d) => d !== 'broken' && existsSync(join(STORIES, d, 'story.json'))) : [];
  it('has fixture stories besides the broken one', () => expect(fixtures.length).toBeGreaterThan(0));
  it.each(fixtures)('fixtures/stories/%s/story.json validates with zero errors', (dir) => {
    const r = validateStory(readJson(join(STORIES, dir, 'story.json')));
    expect(r.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(r.ok).toBe(true);
  });
});

describe('validateStory, one check at a time', () => {
  const only = (s: unknown): string[] => codes(validateStory(s).problems);
  const at = (id: string): string => `$.moments[${testStoryInput.moments.findIndex((m) => m.id === id)}]`;

  it('maps schema errors to paths and plain messages', () => {
    const r = validateStory(story((s) => {
      moment(s, T.intro).type = 'Speech' as 'Monologue';
      moment(s, T.learn).default_emotion_intensity = 9 as 1;
      moment(s, T.learn).opening = [];
    }));
    expect(codes(r.problems)).toEqual(expect.arrayContaining([
      `error ${at(T.intro)}.type schema/invalid_value`, `error ${at(T.learn)}.default_emotion_intensity schema/invalid_value`,
      `error ${at(T.learn)}.opening schema/too_small`,
    ]));
    expect(r.problems.find((p) => p.path.endsWith('.type'))?.message).toBe('"type" must be one of "Monologue", "Learn", "Test", "Crossroad", "Teamwork", "Reward", "Battle", "Equip", "Epilogue", "Upgrade", "Assemble", "Dead End", not "Speech".');
    expect(r.problems.find((p) => p.path.endsWith('intensity'))?.message).toBe('"default_emotion_intensity" must be one of 1, 2, 3, 4, 5, not 9.');
  });

  it('refuses a field of another moment type, naming the types that have it', () => {
    const r = validateStory(story((s) => { Object.assign(moment(s, T.test), { opponents: [{ character_id: T.foeA }], rewards: [] }); }));
    expect(codes(r.problems)).toEqual([`error ${at(T.test)}.opponents schema/unknown_field`, `error ${at(T.test)}.rewards schema/unknown_field`]);
    expect(r.problems.map((p) => p.message)).toEqual([
      'Unknown field "opponents" for a Test moment: only Battle moments have it.',
      'Unknown field "rewards" for a Test moment: only Reward moments have it.',
    ]);
    const typo = validateStory(story((s) => { Object.assign(moment(s, T.battle), { oponents: [] }); }));
    expect(typo.problems.map((p) => `${p.path} ${p.message}`)).toEqual([`${at(T.battle)}.oponents Unknown field "oponents": the story format has no such field (a typo?).`]);
  });

  it('reports a file that is not an object', () => {
    expect(only([])).toEqual(['error $ schema/invalid_type']);
    expect(only(null)).toEqual(['error $ schema/invalid_type']);
  });

  it('does not call moments unreachable when a moment on the way fails the schema', () => {
    const r = only(story((s) => { moment(s, T.cross).date = 5 as unknown as string; }));
    expect(r).toEqual([`error ${at(T.cross)}.date schema/invalid_type`]);
  });

  it('reports a first_moment_id that names no moment', () => {
    expect(only(story((s) => { s.first_moment_id = T.lamp; }))).toEqual(['error $.first_moment_id ref/unknown_moment']);
  });

  it('reports a story without an Epilogue', () => {
    const r = validateStory(story((s) => { moment(s, T.epilogue).type = 'Dead End'; }));
    expect(r.problems.find((p) => p.code === 'story/no_epilogue')?.message).toBe('The story has no Epilogue, so no run can ever be won.');
  });

  it('reports answers sharing an id', () => {
    expect(only(story((s) => { const a = moment(s, T.learn).answers?.[1]; if (a) a.id = 'ok'; }))).toEqual([`error ${at(T.learn)}.answers[1].id id/duplicate`]);
  });

  it('ignores transitions of a Dead End and says so', () => {
    const r = only(story((s) => {
      moment(s, T.deadEnd).transitions = [{ next_moment_id: T.learn }];
    }));
    expect(r).toEqual([`warning ${at(T.deadEnd)}.transitions moment/transitions_ignored`]);
  });

  it('reports skip rules that never show a moment, and a skippable Epilogue with nowhere to go', () => {
    expect(only(story((s) => { moment(s, T.equip).skip_after_run_number = 0; }))).toEqual([`warning ${at(T.equip)}.skip_after_run_number skip/never_shown`]);
    expect(only(story((s) => { moment(s, T.equip).display_randomly_probability = 0; }))).toEqual([`warning ${at(T.equip)}.display_randomly_probability skip/never_shown`]);
    expect(only(story((s) => { moment(s, T.equip).show_after_run_number = 3; moment(s, T.equip).skip_after_run_number = 3; }))).toEqual([]);
    expect(only(story((s) => { moment(s, T.epilogue).show_after_run_number = 2; }))).toEqual([`warning ${at(T.epilogue)} skip/no_target`]);
  });

  it('accepts every way a talking moment can complete', () => {
    const progress = story((s) => {
      moment(s, T.learn).answers = [{ id: 'a', outcome: 'progress', facts: ['x'], match: { en: ['a'], fr: ['a'] }, reply: [{ en: 'A.', fr: 'A.' }] }];
    });
    expect(only(progress)).toEqual([]);
    const noFacts = story((s) => {
      moment(s, T.learn).answers = [{ id: 'a', outcome: 'progress', match: { en: ['a'], fr: ['a'] }, reply: [{ en: 'A.', fr: 'A.' }] }];
    });
    expect(only(noFacts)).toEqual([`error ${at(T.learn)}.answers moment/cannot_complete`]);
    const answered = story((s) => {
      const m = moment(s, T.cross);
      m.transitions = (m.transitions ?? []).map(({ next_moment_id, label }) => ({ next_moment_id, ...(label ? { label } : {}) }));
      m.answers = [{ id: 'go', match: { en: ['go'], fr: ['va'] }, reply: [{ en: 'Go.', fr: 'Va.' }], next_moment_id: T.reward }];
    });
    expect(only(answered)).toEqual([]);
    const unlabelled = story((s) => { const t = moment(s, T.cross).transitions?.[1]; if (t) delete t.label; });
    expect(only(unlabelled)).toEqual([`warning ${at(T.cross)}.transitions[1] crossroad/unlabelled_branch`]);
  });

  it('reports awards that are never given and bets that cannot be made', () => {
    expect(only(story((s) => { delete moment(s, T.test).score_threshold_for_award; }))).toEqual([`warning ${at(T.test)}.perfect_answer_item_id award/no_threshold`]);
    expect(only(story((s) => { const m = moment(s, T.upgrade); if ('upgrade' in m && m.upgrade) m.upgrade.min_bet = 6; }))).toEqual([`error ${at(T.upgrade)}.upgrade.min_bet upgrade/bad_bets`]);
    expect(only(story((s) => { const m = moment(s, T.reward); const r = 'rewards' in m ? m.rewards?.[0] : undefined; if (r) r.item_ids = []; }))).toEqual([`warning ${at(T.reward)}.rewards[0] reward/empty`]);
  });

  it('checks opponents: health overrides count, and an opponent should not be a default team member', () => {
    const foeA = (s: StoryInput): NonNullable<StoryInput['characters'][number]> => s.characters.find((c) => c.id === T.foeA) ?? s.characters[0]!;
    expect(only(story((s) => { foeA(s).base_health = 0; }))).toEqual([`error ${at(T.battle)}.opponents[0] battle/opponent_no_health`]);
    expect(only(story((s) => { foeA(s).base_health = 0; const m = moment(s, T.battle); const o = 'opponents' in m ? m.opponents?.[0] : undefined; if (o) o.health = 4; }))).toEqual([]);
    expect(only(story((s) => { foeA(s).is_enrolled_by_default = true; }))).toEqual([`warning ${at(T.battle)}.opponents[0].character_id battle/opponent_is_player`]);
  });

  it('counts characters given along the way for an Assemble', () => {
    expect(only(story((s) => { Object.assign(moment(s, T.assemble), { max_number_of_characters: 3 }); }))).toEqual([]);
    expect(only(story((s) => { Object.assign(moment(s, T.assemble), { max_number_of_characters: 4 }); }))).toEqual([`warning ${at(T.assemble)}.max_number_of_characters assemble/too_few_characters`]);
  });

  it('warns about missing French without failing the story', () => {
    const r = validateStory(story((s) => { delete s.catalogue.description.fr; if (s.decoys) s.decoys.fr = []; }));
    expect(r.ok).toBe(true);
    expect(codes(r.problems)).toEqual(['warning $.catalogue.description i18n/missing_fr', 'warning $.decoys i18n/missing_fr']);
  });

  it('writes JSON paths', () => {
    expect(jsonPath([])).toBe('$');
    expect(jsonPath(['moments', 3, 'transitions', 0, 'next_moment_id'])).toBe('$.moments[3].transitions[0].next_moment_id');
    expect(jsonPath(['$schema', 'a b'])).toBe('$["$schema"]["a b"]');
  });
});

describe('validateStory never throws', () => {
  it('on any JSON value', () => {
    fc.assert(fc.property(fc.jsonValue(), (x) => {
      const r = validateStory(x);
      expect(r.ok).toBe(false);
    }));
  });

  it('on the test story with any field replaced, and every path it reports starts at $', () => {
    const paths: string[][] = [];
    const walk = (x: unknown, p: string[]): void => {
      paths.push(p);
      if (x && typeof x === 'object') for (const [k, y] of Object.entries(x)) walk(y, [...p, k]);
    };
    walk(testStoryInput, []);
    fc.assert(fc.property(fc.constantFrom(...paths.filter((p) => p.length > 0)), fc.jsonValue(), (p, value) => {
      const s = structuredClone(testStoryInput) as unknown as Record<string, unknown>;
      let x: Record<string, unknown> = s;
      for (const k of p.slice(0, -1)) x = x[k] as Record<string, unknown>;
      x[p[p.length - 1] ?? ''] = value;
      for (const problem of validateStory(s).problems) expect(problem.path.startsWith('$')).toBe(true);
    }), { numRuns: 300 });
  });
});
