// The pure parts of voice understanding: pocketsphinx's backtrace log, the ARPA language model, the comparison with
// the phone loop, and the key words a decision rests on.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Story } from '../../engine/story/format.js';
import { statesByStage, type StageState } from '../../engine/sim/moment-states.js';
import { decideTyped, expand, speakable } from '../../engine/brain/speakable.js';
import { parseBacktrace } from './backtrace.js';
import { arpaScorer, buildArpa } from './lm.js';
import { verify } from './verify.js';
import { endsRun, keyWords, soundAlikes } from './understanding.js';
import { agreesElsewhere, articlesDropped, DEFAULT_THRESHOLDS, disputeHolds, grammarBounds, heardMostly, heardWhole, isBrief, namesAnother, oneWordSwapped, ownWords, elsewhere, keyWordsHeard, namesUnheard, neededMargin, partOf, rescuable } from './policy.js';

// The fixture stories, parsed once, and their states by stage (statesByStage plays seeded runs: once per story).
const KEEPER = Story.parse(JSON.parse(readFileSync('fixtures/stories/lantern-keeper/story.json', 'utf8')));
const SIEGE = Story.parse(JSON.parse(readFileSync('fixtures/stories/clockwork-siege/story.json', 'utf8')));
const stagesByStory = new Map<Story, StageState[]>();
/** The first state of the story where `pick` holds. */
function stage(story: Story, pick: (x: StageState) => boolean): StageState {
  let all = stagesByStory.get(story);
  if (!all) stagesByStory.set(story, (all = statesByStage(story, { runs: 5 })));
  const st = all.find(pick);
  if (!st) throw new Error('no such stage');
  return st;
}

const LOG = `INFO: fsg_search.c(853): 261 frames, 2127 HMMs (8/fr), 8983 senones (34/fr), 364 history entries (1/fr)
INFO: pocketsphinx.c(1168): go forward ten meters (-2661)
word                 start end   pprob ascr       lscr       lback
<sil>                0     45    1.000 -390       -337       1
go                   46    63    1.000 -146       0          1
forward(2)           64    116   1.000 -396       0          1
ten                  117   152   1.000 -281       0          1
meters               153   211   1.000 -608       0          1
<sil>                212   260   1.000 -166       -337       1
INFO: fsg_search.c(263): TOTAL fsg 0.03 CPU 0.011 xRT`;

describe('backtrace', () => {
  it('reads each utterance: hypothesis, score and the words with frames and scores', () => {
    const [u, ...rest] = parseBacktrace(LOG);
    expect(rest).toEqual([]);
    expect(u).toMatchObject({ hyp: 'go forward ten meters', score: -2661 });
    expect(u?.words).toHaveLength(6);
    expect(u?.words[2]).toEqual({ word: 'forward(2)', start: 64, end: 116, ascr: -396, lscr: 0 });
  });

  it('reads a path that begins with a null transition (a grammar of sentences and names), leaving it out', () => {
    const [u] = parseBacktrace(LOG.replace('<sil>                0     45', '(NULL)               -1    -1    1.000 0          0          1\n<sil>                0     45'));
    expect(u?.words.map((w) => w.word)).toEqual(['<sil>', 'go', 'forward(2)', 'ten', 'meters', '<sil>']);
  });

  const CMN = `INFO: cmn_live.c(120): Update from < 41.00 -5.29 -0.12  5.09  2.48 -4.07 -1.37 -1.78 -5.08 -2.05 -6.45 -1.42  1.17 >
INFO: cmn_live.c(138): Update to   < 42.92 -6.21 -7.12 16.61 -4.55 -1.11 -6.18 -18.76  0.25 -3.75  6.11  0.42 -8.49 >
`;
  it('reads the utterance\'s own cepstral mean (printed before its hypothesis), and keeps it when nothing was heard', () => {
    const mean = [42.92, -6.21, -7.12, 16.61, -4.55, -1.11, -6.18, -18.76, 0.25, -3.75, 6.11, 0.42, -8.49];
    expect(parseBacktrace(CMN + LOG)[0]?.cmn).toEqual(mean);
    expect(parseBacktrace(CMN + LOG)[0]?.hyp).toBe('go forward ten meters');
    expect(parseBacktrace(`${CMN}ERROR: "fsg_search.c", line 343: Frame 215: No active HMM!!\n`)).toEqual([{ hyp: '', score: 0, words: [], cmn: mean }]);
    expect(parseBacktrace(LOG)[0]?.cmn).toBeUndefined();
  });
});

describe('verification against the phone loop', () => {
  const loop = parseBacktrace(`INFO: pocketsphinx.c(1168): SIL G OW F AO R SIL (-5000)
word                 start end   pprob ascr       lscr       lback
SIL                  0     45    1.000 -400       0          0
G                    46    55    1.000 -100       -200       0
OW                   56    63    1.000 -40        -200       0
F                    64    116   1.000 -300       -200       0
AO                   117   211   1.000 -700       -200       0
SIL                  212   260   1.000 -160       -200       0`);
  it('gives each word its margin per frame over the loop on the same frames', () => {
    const v = verify(parseBacktrace(LOG), loop);
    expect(v?.words.map((w) => w.word)).toEqual(['go', 'forward', 'ten', 'meters']);
    // go: -146 against the loop's G and OW (-140) over 18 frames.
    expect(v?.words[0]?.margin).toBeCloseTo((-146 - -140) / 18, 2);
    expect(v?.frames).toBe(211 - 46 + 1);
  });
  it('compares nothing when the two decodes split the audio differently', () => {
    expect(verify(parseBacktrace(LOG), [])).toBeNull();
  });
});

describe('language model', () => {
  it('writes a well-formed ARPA model whose probabilities sum to one', () => {
    const arpa = buildArpa([['the', 'market'], ['the', 'tide', 'caves'], ['the', 'market', 'please']]);
    expect(arpa.startsWith('\\data\\\nngram 1=7\nngram 2=')).toBe(true);
    expect(arpa).toContain('\\3-grams:');
    expect(arpa.trim().endsWith('\\end\\')).toBe(true);
    const uni = arpa.split('\\1-grams:\n')[1]?.split('\n\n')[0]?.split('\n').map((l) => l.split(' ')) ?? [];
    const total = uni.filter(([, w]) => w !== '<s>').reduce((n, [p]) => n + 10 ** Number(p), 0);
    expect(total).toBeCloseTo(1, 3);
    // After "the", the seen words and the back-off mass make one.
    const bi = arpa.split('\\2-grams:\n')[1]?.split('\n\n')[0]?.split('\n').map((l) => l.split(' ')) ?? [];
    const afterThe = bi.filter(([, u]) => u === 'the');
    const backoff = 10 ** Number(uni.find(([, w]) => w === 'the')?.[2] ?? 0);
    const seen = new Set(afterThe.map(([, , w]) => w));
    const rest = uni.filter(([, w]) => w !== '<s>' && !seen.has(w ?? '')).reduce((n, [p]) => n + 10 ** Number(p), 0);
    expect(afterThe.reduce((n, [p]) => n + 10 ** Number(p), 0) + backoff * rest).toBeCloseTo(1, 3);
  });
});

describe('how likely the model finds words (arpaScorer)', () => {
  it('scores the sentences it was built from above the same words strung otherwise, and a word it lacks at -99', () => {
    const corpus = ['cover the side facing the rocks', 'so the seals can sleep', 'what do you think'].map((s) => s.split(' '));
    const score = arpaScorer(buildArpa(corpus));
    const said = score('cover the side facing the rocks'.split(' '));
    expect(said).toBeLessThan(0);
    expect(said).toBeGreaterThan(score('rocks the facing side the cover'.split(' ')));
    expect(score('the seals think'.split(' '))).toBeLessThan(score('so the seals can sleep'.split(' ')));
    expect(score(['banana'])).toBeLessThanOrEqual(-99 / 2);
  });
});

describe('key words', () => {
  const lantern = KEEPER;
  const s = stage(lantern, (x) => x.moment.name.en === 'Three Ways from the Quay');
  it('are the words a decision rests on', () => {
    const words = "let's go down to the tide caves please".split(' ');
    const d = decideTyped(lantern, s.state, words.join(' '));
    // Those whose removal changes the decision (the default); `content`: also every word but the small carrying words.
    expect(keyWords(lantern, s.state, words, d).map((i) => words[i])).toEqual(['caves']);
    expect(keyWords(lantern, s.state, words, d, 'content').map((i) => words[i])).toEqual(['down', 'tide', 'caves']);
    // The caves lead to a Dead End: such a decision ends the run (and needs a stricter check).
    expect(endsRun(lantern, d)).toBe(true);
    expect(endsRun(lantern, decideTyped(lantern, s.state, 'the market'))).toBe(false);
  });

  it('include a name or style the decision would fall back to anyway, or that decides nothing on its own', () => {
    const siege = SIEGE;
    const attack = stage(siege, (x) => x.moment.type === 'Battle' && x.stage === 'attack');
    const defence = stage(siege, (x) => x.moment.type === 'Battle' && x.stage === 'defend:Ferrule');
    // Heard where "Orla, strike the knight precisely!" was said: the hound is the default target, so "dog" changes
    // nothing, yet it is what must fit the audio.
    const words = 'orla strike dog with precisely'.split(' ');
    const d = decideTyped(siege, attack.state, words.join(' '));
    expect(keyWords(siege, attack.state, words, d, 'changes').map((i) => words[i])).not.toContain('dog');
    expect(keyWords(siege, attack.state, words, d, 'naming').map((i) => words[i])).toEqual(expect.arrayContaining(['dog', 'precisely']));
    expect(keyWords(siege, attack.state, words, d, 'content').map((i) => words[i])).toEqual(['orla', 'strike', 'dog', 'precisely']);
    // Heard where "Ferrule, brace, mighty as thunder!" was said: "elegant" is no style of this battle and decides nothing.
    const heard = 'ferrule brace elegant'.split(' ');
    const e = decideTyped(siege, defence.state, heard.join(' '));
    expect(keyWords(siege, defence.state, heard, e, 'naming').map((i) => heard[i])).not.toContain('elegant');
    expect(keyWords(siege, defence.state, heard, e, 'content').map((i) => heard[i])).toContain('elegant');
    // No single word carries a generated battle move ("vance crush dog lunge", heard where "Vance crush The Bellows
    // Knight like lunge" was said: Orla and the hound are the defaults): every content word is a key word, not none.
    const twice = 'vance crush dog lunge'.split(' ');
    const t = decideTyped(siege, attack.state, twice.join(' '));
    expect(keyWords(siege, attack.state, twice, t, 'changes')).toEqual([]);
    expect(keyWordsHeard(siege, attack.state, twice, t, 'changes', false).map((i) => twice[i])).toEqual(['vance', 'crush', 'dog', 'lunge']);
    expect(keyWordsHeard(siege, attack.state, twice, t, 'changes', true)).toEqual([]);
    // A generated move's names the model did not say are checked too, the default target's: "dog" where "the knight"
    // was said and the model heard "orla strike precisely"; none the model said, none of a story sentence.
    expect(namesUnheard(siege, attack.state, words, d, false, 'orla strike precisely').map((i) => words[i])).toEqual(['dog']);
    expect(namesUnheard(siege, attack.state, words, d, false, 'orla strike dog precisely')).toEqual([]);
    expect(namesUnheard(siege, attack.state, words, d, true, 'orla strike precisely')).toEqual([]);
    // Named by the model in another of its names: "tam" where the grammar spelled the alias "tamme".
    const tam = 'tamme strike the hound from the shadows'.split(' ');
    const td = decideTyped(siege, attack.state, tam.join(' '));
    expect(namesUnheard(siege, attack.state, tam, td, false, 'tam strike from the shadows').map((i) => tam[i])).toEqual(['hound']);
  });

  it('of other generated sentences may be none: a name said twice over is no doubt', () => {
    const lantern = KEEPER;
    const st = stage(lantern, (x) => x.moment.type === 'Reward' && speakable(lantern, x.state, 'english').some((p) => p.kind === 'reward' && expand(p).some((t) => t.toLowerCase() === 'knotted rope bracelet')));
    const w = 'knotted rope bracelet'.split(' ');
    expect(keyWordsHeard(lantern, st.state, w, decideTyped(lantern, st.state, w.join(' ')), 'changes', false)).toEqual([]);
  });

  it('of a listed wrong guess at a riddle are the guess', () => {
    const siege = SIEGE;
    const hard = stage(siege, (x) => x.stage === 'riddle:hard');
    const words = 'it is the spring'.split(' ');
    expect(keyWords(siege, hard.state, words, decideTyped(siege, hard.state, words.join(' '))).map((i) => words[i])).toEqual(['spring']);
  });
});

describe('sound-alike words', () => {
  it('map to one spelling, so a story sentence is known whichever spelling the grammar took', () => {
    const m = soundAlikes('ferrule F EH R AH L\nferule F EH R AH L\nferule(2) F EH R UW L\nferrul F EH R UW L\nhammer HH AE M ER\n');
    expect(m.get('ferule')).toBe('ferrule');
    expect(m.get('ferrul')).toBe('ferrule');
    expect(m.has('hammer')).toBe(false);
  });
});

describe('what the model heard', () => {
  it('is elsewhere when its words share none of the sentence heard, and then a story sentence needs a closer fit', () => {
    expect(elsewhere('when does the light go dark', 'was it to the was i')).toBe(true);
    expect(elsewhere('clear the scrap out of the gears', 'gears')).toBe(false);
    // The small carrying words are no evidence.
    expect(elsewhere('it is the escapement', 'it is the')).toBe(true);
    const s = { strict: false, source: 'grammar' as const, authored: true };
    expect(neededMargin(DEFAULT_THRESHOLDS, { ...s, model: 'elsewhere' })).toBeGreaterThan(neededMargin(DEFAULT_THRESHOLDS, { ...s, model: 'none' }));
  });

  it('is talk when those words are its own, and then a story sentence needs a closer fit still, unless it is a move', () => {
    expect(ownWords('can you speak louder')).toBe(true);
    expect(ownWords('i mean um is it')).toBe(true);
    // What it made of "Is anything missing?" at 50 words a minute: small words only.
    expect(ownWords('is that it the is it a')).toBe(false);
    expect(ownWords('')).toBe(false);
    const s = { strict: false, source: 'grammar' as const, authored: true };
    expect(neededMargin(DEFAULT_THRESHOLDS, { ...s, model: 'talk' })).toBeGreaterThan(neededMargin(DEFAULT_THRESHOLDS, { ...s, model: 'elsewhere' }));
    // A riddle's one-word answer ("Spring", the fixture voice m7: the model heard "really") is held as elsewhere.
    expect(neededMargin(DEFAULT_THRESHOLDS, { ...s, model: 'talk', move: true, brief: false })).toBe(neededMargin(DEFAULT_THRESHOLDS, { ...s, model: 'elsewhere' }));
  });

  it('heard briefly, a move the model missed needs less: a short answer, not a longer sentence forced into it', () => {
    expect(isBrief('spring', 'hmm a')).toBe(true);
    expect(isBrief('it is the escapement', 'it is a')).toBe(true);
    // "The sound is too quiet" (held-out, us voice), heard "it is the escapement" by the grammar: a non-answer.
    expect(isBrief('it is the escapement', 'the so it is to can i have')).toBe(false);
    const s = { strict: false, source: 'grammar' as const, authored: true, move: true };
    const t = DEFAULT_THRESHOLDS;
    for (const model of ['talk', 'elsewhere'] as const) {
      expect(neededMargin(t, { ...s, model, brief: true })).toBe(t.authored_move_elsewhere);
      expect(neededMargin(t, { ...s, model, brief: false })).toBe(t.authored_elsewhere);
    }
    expect(t.authored_move_elsewhere).toBeLessThan(t.authored_elsewhere);
    // Not a move: brevity changes nothing.
    expect(neededMargin(t, { ...s, move: false, model: 'elsewhere', brief: true })).toBe(t.authored_elsewhere);
    // Before the model is decoded, the grammar's bounds allow the looser margin.
    expect(grammarBounds(t, { strict: false, authored: true, move: true }).never).toBeLessThanOrEqual(t.authored_move_elsewhere);
  });

  it('counts a story sentence said with some articles swallowed as the story\'s own, but not with one changed', () => {
    // Fixture m7 at 200 words a minute: "tam strike hound from the shadows".
    expect(articlesDropped('tam strike the hound from the shadows', 'tam strike hound from the shadows')).toBe(true);
    expect(articlesDropped('tam strike the hound from the shadows', 'tam strike hound from shadows')).toBe(true);
    expect(articlesDropped('tam strike the hound from the shadows', 'tam strike the hound from the shadows')).toBe(true);
    // Small talk on the held-out half was heard "it is a escapement".
    expect(articlesDropped('it is the escapement', 'it is a escapement')).toBe(false);
    expect(articlesDropped('tam strike the hound', 'tam strike hound now')).toBe(false);
    expect(articlesDropped('tam strike the hound', 'strike the hound')).toBe(false);
  });

  it('in part, for a story sentence, needs its own margin (`authored_partial`), looser than hearing nothing', () => {
    // Fixture m7 "Orla, strike the knight precisely!": the model heard "orla strike let's precisely", -38.5.
    const s = { strict: false, source: 'grammar' as const, authored: true };
    expect(neededMargin(DEFAULT_THRESHOLDS, { ...s, model: 'partial' })).toBe(DEFAULT_THRESHOLDS.authored_partial);
    expect(DEFAULT_THRESHOLDS.authored_partial).toBeLessThan(neededMargin(DEFAULT_THRESHOLDS, { ...s, model: 'none' }));
    expect(DEFAULT_THRESHOLDS.authored_partial).toBeGreaterThanOrEqual(DEFAULT_THRESHOLDS.authored_agreed);
  });

  it('alone is taken when its words are speech the stage\'s model knows (model_fluent), never ending the run', () => {
    const lm = { strict: false, source: 'lm' as const, authored: false, model: 'unknown' as const };
    const t = DEFAULT_THRESHOLDS;
    expect(neededMargin(t, lm)).toBe(Infinity);
    expect(neededMargin(t, { ...lm, fluency: t.fluent })).toBe(t.model_fluent);
    expect(Number.isFinite(t.model_fluent)).toBe(true);
    expect(neededMargin(t, { ...lm, fluency: t.fluent - 0.01 })).toBe(Infinity);
    expect(neededMargin(t, { ...lm, fluency: -0.5, strict: true })).toBe(Infinity);
  });

  it('alone is taken when its words are one of the story\'s own sentences (model_sentence), never ending the run', () => {
    const lm = { strict: false, source: 'lm' as const, authored: false, model: 'unknown' as const };
    const t = DEFAULT_THRESHOLDS;
    expect(neededMargin(t, { ...lm, sentence: true })).toBe(t.model_sentence);
    expect(t.model_sentence).toBe(t.authored_agreed);
    expect(neededMargin(t, { ...lm, sentence: false })).toBe(Infinity);
    expect(neededMargin(t, { ...lm, sentence: true, strict: true })).toBe(Infinity);
  });

  it('alone, with `model_unopposed` set, is taken only when the exact grammar heard nothing at all, never ending the run', () => {
    const lm = { strict: false, source: 'lm' as const, authored: false, model: 'unknown' as const };
    // Off by default (policy.ts: it takes more non-answers).
    expect(neededMargin(DEFAULT_THRESHOLDS, lm)).toBe(Infinity);
    expect(neededMargin(DEFAULT_THRESHOLDS, { ...lm, unopposed: true })).toBe(Infinity);
    const on = { ...DEFAULT_THRESHOLDS, model_unopposed: -15 };
    expect(neededMargin(on, { ...lm, unopposed: true })).toBe(-15);
    expect(neededMargin(on, lm)).toBe(Infinity);
    expect(neededMargin(on, { ...lm, unopposed: true, strict: true })).toBe(Infinity);
    // Never stricter than the model's words alone in general.
    expect(neededMargin({ ...on, model: -30 }, { ...lm, unopposed: true })).toBe(-30);
  });

  it('agrees elsewhere when the model decides the same in none of the sentence\'s words: no agreement then', () => {
    expect(agreesElsewhere('we should run away', 'flee city to the let\'s to')).toBe(true);
    expect(agreesElsewhere('pull the crank', 'pull then')).toBe(false);
    // A sentence of small words only keeps its agreement.
    expect(agreesElsewhere('yes i\'ll take it', 'yes take it')).toBe(false);
  });

  it('holds a sentence heard whole only when every word of it fits, not only its key words', () => {
    // "four queen of clubs" (a person, Debian's testdata) heard "was it a ghost": "ghost" at +18.4, "a" at -45.7.
    expect(heardWhole([-28.57, -2.53, -45.71, 18.38], DEFAULT_THRESHOLDS.authored_small_talk_words)).toBe(false);
    // "Yes, gladly" heard "yes thank you" (held-out us-f1): every word within -30.
    expect(heardWhole([1.98, -17.76, 4.1], DEFAULT_THRESHOLDS.authored_small_talk_words)).toBe(true);
    expect(heardWhole([-30], -30)).toBe(true);
    // Not verified word by word: not held whole.
    expect(heardWhole([], -30)).toBe(false);
  });

  it('agrees on a decision that ends the run only when it holds most of the sentence\'s content words', () => {
    // Small talk at the Lantern Keeper's crossroad, heard by the model with one word of the branch (tuning, f2).
    expect(heardMostly('down to the tide caves', 'how are you the cave')).toBe(false);
    expect(heardMostly('down to the tide caves', 'i have the like the is')).toBe(false);
    // Players who mean it (held-out paraphrases), the singular or plural counting as the word.
    expect(heardMostly('down to the tide caves', 'i want to the the tide caves')).toBe(true);
    expect(heardMostly('down to the tide caves', 'the tide cave')).toBe(true);
    expect(heardMostly('open the gates', 'free give of open the gates')).toBe(true);
    expect(heardMostly('open the gates', 'open the it\'s')).toBe(true);
    expect(heardMostly('open the gates', 'the gate')).toBe(true);
    expect(heardMostly('open the gates', 'okay then')).toBe(false);
    // "glass" is no plural of "glas".
    expect(heardMostly('the glass', 'the glas')).toBe(false);
  });

  it('holds a dispute only when the model\'s words fit at least as well as the grammar\'s', () => {
    expect(disputeHolds(-28.2, -38.6)).toBe(false);
    expect(disputeHolds(-22.8, -7.9)).toBe(true);
    expect(disputeHolds(-10, -10)).toBe(true);
    // Unknown: it holds.
    expect(disputeHolds(null, -5)).toBe(true);
    expect(disputeHolds(-5, null)).toBe(true);
  });

  it('sees a story sentence with one content word said otherwise, never a small word', () => {
    expect(oneWordSwapped('tam dodge into the shadows', 'tam guard into the shadows')).toBe(true);
    expect(oneWordSwapped('tam strike the hound from the shadows', 'tam strike the dog from the shadows')).toBe(true);
    // An article changed: held-out small talk won the riddle so.
    expect(oneWordSwapped('it is the escapement', 'it is a escapement')).toBe(false);
    // Two words, a word more or less, or none changed.
    expect(oneWordSwapped('orla strike the knight precisely', 'orla hit the dog precisely')).toBe(false);
    expect(oneWordSwapped('orla strike the knight precisely', 'orla strike the knight')).toBe(false);
    expect(oneWordSwapped('orla strike the knight precisely', 'orla strike the knight precisely')).toBe(false);
    // A stake is a small word here: another decision anyway.
    expect(oneWordSwapped('ferrule easy i bet one', 'ferrule easy i bet two')).toBe(false);
  });

  it('finds a word of another decision among the model\'s words (a branch or an answer, not a move)', () => {
    const keeper = KEEPER;
    const quay = stage(keeper, (x) => x.moment.name.en === 'Three Ways from the Quay');
    const caves = decideTyped(keeper, quay.state, 'down to the tide caves');
    // Counting at the crossroad (held-out, us-m6): the model heard the caves, and "bram", the ferryman's.
    expect(namesAnother(keeper, quay.state, 'bram tide caves seven caves', caves)).toBe(true);
    expect(namesAnother(keeper, quay.state, 'cave ferryman cave time sand', caves)).toBe(true);
    // A player who means the caves.
    expect(namesAnother(keeper, quay.state, 'i want to the the tide caves', caves)).toBe(false);
    expect(namesAnother(keeper, quay.state, 'let\'s go to the cave', caves)).toBe(false);
    // A move: one word of it decides a move with the brain's defaults, which is no other decision.
    const siege = SIEGE;
    const attack = stage(siege, (x) => x.stage === 'attack');
    expect(namesAnother(siege, attack.state, 'tam strike the dog', decideTyped(siege, attack.state, 'orla strike the dog'))).toBe(false);
  });

  it('is part of the grammar\'s decision when it names a part the same and leaves the others to the defaults', () => {
    const siege = SIEGE;
    const at = (name: string) => {
      const st = stage(siege, (x) => x.stage === name);
      return (model: string, grammar: string): boolean => partOf(siege, st.state, model.split(' '), decideTyped(siege, st.state, model), decideTyped(siege, st.state, grammar));
    };
    const attack = at('attack');
    // Vance named, no target heard: the brain's default (the hound) is no other decision.
    expect(attack('vance crush the like like lunge', 'vance crush the bellows like lunge')).toBe(true);
    expect(attack('okay to the dog heroic', 'ferule hit the dog heroic')).toBe(true);
    // Some attack, no part named: not enough.
    expect(attack('strike does are you', 'strike commander as lunge')).toBe(false);
    // The hound named where the grammar heard the knight: another decision, though the hound is the default.
    expect(attack('ferrule hit the dog heroic', 'ferule hit the knight heroic')).toBe(false);
    expect(attack('strike commander as lunge', 'strike commander as lunge')).toBe(false);
    const bet = at('bet');
    expect(bet('orla we to', 'orla vance medium i bet two')).toBe(true);
    expect(bet('the orla easy i bet one', 'tam easy i bet one')).toBe(false);
    // Not a team: the grammar's extra member is where it goes wrong.
    const team = stage(siege, (x) => (decideTyped(siege, x.state, 'holt wick and tam wick').selection?.length ?? 0) === 2);
    expect(partOf(siege, team.state, 'go wick and tam wick'.split(' '), decideTyped(siege, team.state, 'go wick and tam wick'), decideTyped(siege, team.state, 'holt wick and tam wick'))).toBe(false);
    const s = { strict: false, source: 'grammar' as const, authored: false };
    expect(neededMargin(DEFAULT_THRESHOLDS, { ...s, model: 'partial' })).toBeLessThan(neededMargin(DEFAULT_THRESHOLDS, { ...s, model: 'other' }));
    // Heard in part never needs less than heard whole (a bet: `agreed`; a move: `partial` is the stricter).
    for (const move of [false, true]) expect(neededMargin(DEFAULT_THRESHOLDS, { ...s, move, model: 'partial' })).toBeGreaterThanOrEqual(neededMargin(DEFAULT_THRESHOLDS, { ...s, move, model: 'same' }));
  });
});

describe('rescuable', () => {
  it('takes the second pass\'s sentence only when the speech is not much longer than its phones', () => {
    // Tuning: "Spring" (5 phones) in 44 frames of speech was an answer; "the market" (8 phones) for "Speak more slowly
    // please" (168 frames) was small talk.
    expect(rescuable(44, 5)).toBe(true);
    expect(rescuable(168, 8)).toBe(false);
    expect(rescuable(10, 0)).toBe(false);
  });
});
