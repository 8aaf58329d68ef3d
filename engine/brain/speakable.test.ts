import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Story } from '../story/format.js';
import { statesByStage } from '../sim/moment-states.js';
import { step } from '../run/step.js';
import { acceptedActions, naturalSentences, speakableCoverage } from './coverage.js';
import { listenCorpus } from './listen-corpus.js';
import { decides, decidesHeard, decideTyped, expand, patternSize, riddleGuess, speakable } from './speakable.js';
import { momentStage } from '../moments/stage.js';

const load = (slug: string): Story => Story.parse(JSON.parse(readFileSync(`fixtures/stories/${slug}/story.json`, 'utf8')));
const siege = load('clockwork-siege');
const lantern = load('lantern-keeper');
const siegeStages = statesByStage(siege, { runs: 10 });
const stage = (name: string, st: string) => {
  const s = siegeStages.find((x) => x.moment.name.en === name && x.stage === st);
  if (!s) throw new Error(`no state for ${name} ${st}`);
  return s.state;
};

describe('speakable sentences', () => {
  it('hears defences at the defence stage and attacks at the attack stage, never the other way', () => {
    const defend = stage('Battle at the Great Gate', 'defend:Orla Vance');
    expect(momentStage(siege, defend).stage).toBe('defend');
    const d = speakable(siege, defend, 'english');
    expect(d.map((p) => p.kind)).toContain('defend');
    expect(d.some((p) => p.kind === 'attack')).toBe(false);
    // The story's own attack sentences decide nothing while a blow is coming: they are not offered here.
    expect(d.some((p) => p.authored && p.example.startsWith('Ferrule, crush'))).toBe(false);
    expect(d.some((p) => p.authored && p.example === 'Orla, parry precisely!')).toBe(true);
    const a = speakable(siege, stage('Battle at the Great Gate', 'attack'), 'english');
    expect(a.some((p) => p.kind === 'attack' && patternSize(p) > 100)).toBe(true);
    expect(a.some((p) => p.kind === 'defend')).toBe(false);
  });

  it('has a defence stage for every living fighter, those the bots left out of the team too (Tam Wick), which the engine accepts', () => {
    const fighters = siegeStages.filter((x) => x.stage.startsWith('defend:')).map((x) => x.stage.slice(7)).sort();
    expect(fighters).toEqual(['Ferrule', 'Idris Holt', 'Orla Vance', 'Tam Wick']);
    const tam = stage('Battle at the Great Gate', 'defend:Tam Wick');
    const team = tam.characters.filter((c) => c.is_selected_in_assemble).map((c) => c.name);
    expect(team).toContain('Tam Wick');
    expect(team).toHaveLength(3);
    const d = decideTyped(siege, tam, 'Tam, dodge into the shadows!');
    expect(d.battle).toMatchObject({ kind: 'defend', actor_id: tam.characters.find((c) => c.name === 'Tam Wick')?.id, thematic: true });
    const r = step(tam, { type: 'turn', input_id: '00000000-0000-4000-8000-00000000000d', is_starting_dialogue: false, transcription: 'Tam, dodge into the shadows!', decision: d }, { now: Date.UTC(2026, 0, 2), story: siege });
    expect(r.ok).toBe(true);
  });

  it('keeps only what decides something here, and every level\'s riddle answers at a riddle', () => {
    for (const s of siegeStages) {
      for (const p of speakable(siege, s.state, 'english')) {
        const d = decideTyped(siege, s.state, p.example);
        if (p.kind === 'riddle') expect(d.upgrade?.stage).toBe('answer');
        else expect(decides(d), `${s.moment.name.en} ${s.stage}: ${p.example}`).toBe(true);
      }
    }
    const riddle = speakable(siege, stage("The Horologist's Riddles", 'riddle:hard'), 'english').filter((p) => p.kind === 'riddle');
    expect(riddle.map((p) => p.example)).toEqual(expect.arrayContaining(['escapement', 'spring']));
  });

  it('hears a listed wrong guess at a riddle as a decision (a wrong answer), not small talk', () => {
    const hard = stage("The Horologist's Riddles", 'riddle:hard');
    expect(riddleGuess(siege, hard, 'it is the spring')).toBe('spring');
    expect(decides(decideTyped(siege, hard, 'spring'))).toBe(false);
    expect(decidesHeard(siege, hard, 'spring')).toBe(true);
    expect(decideTyped(siege, hard, 'spring').upgrade).toEqual({ stage: 'answer', correct: false });
    expect(decidesHeard(siege, hard, 'can you repeat that')).toBe(false);
    expect(decidesHeard(siege, hard, 'escapement')).toBe(true);
    // Not at a bet: there a riddle's answer decides nothing.
    expect(riddleGuess(siege, stage("The Horologist's Riddles", 'bet'), 'spring')).toBe(null);
  });

  it('leaves out aliases the story only writes in French', () => {
    const names = speakable(siege, stage('Battle at the Great Gate', 'attack'), 'english').flatMap((p) => p.parts.flatMap((x) => x.options));
    expect(names).toContain('Margravine');
    expect(names).not.toContain('le chien');
    expect(names).not.toContain('Capitaine Holt');
  });

  it('expands a pattern into every sentence it stands for', () => {
    const p = { kind: 'bet' as const, authored: false, example: 'x', parts: [{ options: ['a', 'b'] }, { options: ['c'], optional: true }] };
    expect(expand(p)).toEqual(['a', 'a c', 'b', 'b c']);
    expect(patternSize(p)).toBe(4);
  });
});

describe('battle style', () => {
  it('is in style only for the fighter\'s own style words, not for an attack verb that is a synonym of one', () => {
    const attack = stage('Battle at the Great Gate', 'attack');
    const thematic = (text: string) => decideTyped(siege, attack, text).battle?.thematic;
    // Ferrule's styles (aggressive, cinematic) list "smash" and "crush"; "hit" and "strike" are their built-in
    // synonyms as attack verbs. Before, every attack by Ferrule was in style.
    expect(thematic('Ferrule, hit the dog')).toBe(false);
    expect(thematic('Ferrule, strike the knight')).toBe(false);
    expect(thematic('Ferrule, smash the dog')).toBe(true);
    expect(thematic('Ferrule, hit the dog like thunder')).toBe(true);
    expect(thematic('Orla, strike the knight precisely')).toBe(true);
    expect(thematic('Orla, strike the knight')).toBe(false);
  });
});

describe('decoys', () => {
  it('keep everyday words from naming someone one letter away, and the name itself still names them', () => {
    const json = JSON.parse(readFileSync('fixtures/stories/clockwork-siege/story.json', 'utf8')) as { decoys: { en: string[] } };
    json.decoys.en.push('hold');
    const withHold = Story.parse(json);
    const reward = stage('Captain Holt Holds the Line', '');
    const crossroad = stage('Foundry or Rooftops', '');
    const sally = stage('The Sally Party', '');
    // Without the decoy, "hold" is a typo of "Holt".
    expect(decides(decideTyped(siege, reward, 'Hold on a second'))).toBe(true);
    expect(decideTyped(siege, crossroad, 'Hold on a second').next_moment_id).toBeTruthy();
    for (const s of [reward, crossroad, sally]) expect(decides(decideTyped(withHold, s, 'Hold on a second')), 'Hold on a second').toBe(false);
    expect(decideTyped(withHold, reward, 'Holt').award?.reward_type).toBe('character');
    expect(decideTyped(withHold, crossroad, 'Captain Holt').next_moment_id).toBe(decideTyped(siege, crossroad, 'Captain Holt').next_moment_id);
    expect(decideTyped(withHold, sally, 'Idris Holt and Orla').selection).toHaveLength(2);
  });
});

describe('coverage of the decisions the engine accepts', () => {
  it('finds a sentence for every decision at every stage of both fixture stories', () => {
    for (const [story, stages] of [[siege, siegeStages], [lantern, statesByStage(lantern, { runs: 10 })]] as const) {
      for (const s of stages) {
        const cov = speakableCoverage(story, s.state, 'english');
        expect(cov.length, `${s.moment.name.en} ${s.stage}`).toBeGreaterThan(0);
        expect(cov.filter((c) => !c.sentence).map((c) => `${s.moment.name.en} ${s.stage}: ${c.action}`)).toEqual([]);
      }
    }
  });

  it('says each decision as a player would: own names, one name each, a style with its preposition, the last "and"', () => {
    const sally = stage('The Sally Party', '');
    const team = speakableCoverage(siege, sally, 'english').map((c) => c.sentence ?? '');
    const attack = stage('Battle at the Great Gate', 'attack');
    const moves = speakableCoverage(siege, attack, 'english').map((c) => c.sentence ?? '');
    const defend = speakableCoverage(siege, stage('Battle at the Great Gate', 'defend:Idris Holt'), 'english').map((c) => c.sentence ?? '');
    // Before, the first sentence a random spread reached: "Holt Wick and Tam Wick" (Tam twice, by two names), "strike
    // commander as lunge" (a preposition and another fighter's style word), "Idris Holt parry as fencing".
    expect(team).toContain('Idris Holt Tam Wick and Orla Vance');
    expect(moves).toContain('Orla Vance attack The Bellows Knight');
    expect(moves).toContain('Ferrule smash Scrapjaw');
    expect(defend).toContain('Idris Holt block with flourish');
    for (const text of [...team, ...moves, ...defend]) {
      expect(text, text).not.toMatch(/\b(\w+) \1\b/i);
      expect(text, text).not.toMatch(/\b(into the|from the|like|with|as)$/);
    }
    // Every natural sentence is one the pattern (and so the grammar) holds, and decides something.
    for (const p of speakable(siege, attack, 'english').filter((x) => !x.authored)) {
      const all = new Set(expand(p, 1e9));
      for (const t of naturalSentences(p, 50)) {
        expect(all.has(t), t).toBe(true);
        expect(decides(decideTyped(siege, attack, t)), t).toBe(true);
      }
    }
  });

  it('reports an answer no sentence can reach', () => {
    const json = JSON.parse(readFileSync('fixtures/stories/lantern-keeper/story.json', 'utf8')) as { moments: { name: { en: string }; answers: { id: string; match: { en: string[] } }[]; say?: unknown }[] };
    const m = json.moments.find((x) => x.name.en === "The Keeper's Log");
    if (!m) throw new Error('no moment');
    // A second rule with the very phrases of the first can never win: the engine accepts it, no player can say it.
    m.answers.push({ ...structuredClone(m.answers[0] as { id: string; match: { en: string[] } }), id: 'shadowed' });
    const story = Story.parse(json);
    const s = statesByStage(story, { runs: 5 }).find((x) => x.moment.name.en === "The Keeper's Log");
    if (!s) throw new Error('no state');
    expect(acceptedActions(story, s.state).map((a) => a.label)).toContain("answer 'shadowed'");
    expect(speakableCoverage(story, s.state, 'english').filter((c) => !c.sentence).map((c) => c.action)).toEqual(["answer 'shadowed'"]);
  });
});

describe('language model corpus', () => {
  it('holds the story sentences, carriers and everyday speech that decides nothing here', () => {
    const s = stage('Three Hands on the Crank', '');
    const c = listenCorpus(siege, s, 'english');
    expect(c.sentences).toContain('Pull the crank');
    expect(c.sentences).toContain('i think Pull the crank');
    expect(c.sentences).toContain("i don't know");
    // "turn it off" is an order at a crank: not offered as everyday speech here.
    expect(c.sentences).not.toContain('turn it off');
    expect(c.deciding.every((t) => decides(decideTyped(siege, s, t)))).toBe(true);
  });
});
