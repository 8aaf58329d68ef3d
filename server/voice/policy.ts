// When heard words become an answer: the understanding policy (understanding.ts decodes, this file decides). A
// decision is taken when the words it rests on fit the audio well enough against a free phone loop (verify.ts), by a
// margin that depends on the evidence: who heard it (the exact grammar of the stage, or the stage's language model
// alone), whether it is one of the story's own sentences, what the other decoder heard, and whether it ends the run.
// Thresholds chosen on the tuning half of `npm run bench -- voice-understanding` (never the held-out half); the
// figures are in the notes of #13 (BENCH_VU_OPTS='{"keyWords":"content","thresholds":{...}}' tries others).
import type { Decision } from '../../engine/brain/decision.js';
import { decides, decidesHeard, decideTyped, decisionKey, foldWords as fold } from '../../engine/brain/speakable.js';
import type { GameState } from '../../engine/run/state.js';
import type { Story } from '../../engine/story/format.js';

/**
 * The least per-frame margin (key words over the phone loop) a decision needs, by its evidence:
 *   - `authored_agreed`: the exact grammar heard one of the story's own sentences and the model the same decision;
 *   - `authored`: the story's sentence, the model heard no decision (or was not decoded);
 *   - `authored_partial`: the story's sentence, the model heard part of its decision (`partOf`);
 *   - `authored_elsewhere`: the story's sentence, the model heard words deciding nothing and none of the sentence's
 *     own ("you are really" where the grammar heard "you are a naughty thief": small talk forced into a sentence);
 *   - `authored_small_talk`: the same, the model having heard words of its own (`talk`: content words, none of the
 *     sentence's, deciding nothing): small talk the model heard as such ("good morning", "can you speak louder",
 *     "okay okay" where the grammar heard "the market", "through the foundry");
 *   - `authored_small_talk_words`: with `talk`, the least margin of every word of the sentence, not only its key words
 *     (heardWhole): the model heard talk of its own, so the grammar's sentence must have been said whole ("four queen
 *     of clubs", a person in Debian's testdata, heard "was it a ghost" with "ghost" at +18.4 and "a" at -45.7);
 *   - `authored_move_elsewhere`: the story's sentence is a move (isMove) the model heard as talk or elsewhere, in no
 *     more words than the sentence has plus one (isBrief): a short answer the model missed;
 *   - `authored_disputed`: the story's sentence, the model heard another decision;
 *   - `agreed`: a generated sentence (names x verbs x targets...) both decoders heard;
 *   - `agreed_move`: the same for a move, one of a few short answers: a battle move (an attack or a defence) or a
 *     riddle's answer;
 *   - `partial`: a generated move or bet the model heard in part (`partOf`): a part named the same, the others left to
 *     the brain's defaults ("okay to the dog heroic" where the grammar heard "ferule hit the dog heroic": no fighter
 *     named, the brain filled one in; before, "another decision");
 *   - `alone`: a generated sentence the grammar heard alone (never, by default);
 *   - `model`: the model's words alone (the grammar heard no decision), by their fit on the model's own path;
 *   - `model_unopposed`: the same when the exact grammar heard nothing at all (no sentence, and no decoy either: nothing
 *     outside the story fit better); never more than `model`;
 *   - `model_fluent`: the same when the model's words are speech its corpus knows: a mean log10 probability per word
 *     under the stage's model (lm.ts arpaScorer) of at least `fluent` (not a margin); never more than `model`;
 *   - `model_sentence`: the model's words alone when they are one of the story's own sentences here (as the grammar's
 *     are held to be: the same words, some articles left out, or one content word said otherwise, deciding the same),
 *     and the exact grammar's decision was none, or another not taken: the model's key words' margin on its own path
 *     (a free decode rarely strings a whole story sentence together by chance: "ferrule crush the margravine" where
 *     the grammar heard "ferrul crush the molosse with mighty");
 *   - `run_ending`: a decision that ends the run (a Dead End, surrender), only when both decoders agree.
 */
export type Thresholds = { authored_agreed: number; authored: number; authored_partial: number; authored_elsewhere: number; authored_move_elsewhere: number; authored_small_talk: number; authored_small_talk_words: number; authored_disputed: number; agreed: number; agreed_move: number; partial: number; alone: number; model: number; model_unopposed: number; model_fluent: number; fluent: number; model_sentence: number; run_ending: number };

/** Chosen in session 5 on the tuning half of the voice-understanding bench and the fixture clips, with the features of
 *  the utterance's own normalisation (cmn.ts), by a grid over six of them (the notes of #13): the most right story
 *  sentences with 0 wrong (tuning and fixtures), 0 run-ending, then the fewest wrong paraphrases and non-answers taken.
 *  Battle moves apart: a generated sentence both decoders heard as a battle move mostly means that move in other words
 *  ("tam guard into the shadows" for "Tam, dodge into the shadows!", both at -8 to -15: tests/ws-voice's spoken
 *  defences), while elsewhere such a sentence at -7 was a wrong answer ("give the storm lantern to marrow" for "... to
 *  Nell", both decoders). Tuning: story sentences 204/232, 0 wrong; paraphrases 113/540, 17 wrong (3.1%); non-answers
 *  6/318 taken, none ending the run; fixture clips 113/128, 0 wrong. (Session 3's { -30, -30, -30, -20, never, never,
 *  -20 } with the same features: 209/232, 1 wrong; 120/540, 27 wrong; 11/318. With live normalisation: 181/232, 1 wrong;
 *  89/540, 28 wrong; 7/318.)
 *  Session 6 (same decoder; tuning measured, not simulated): `authored_elsewhere` -10 (was `authored`'s -30): story
 *  sentences 207 -> 205/232, paraphrases 111 -> 108 right and 18 -> 16 wrong, non-answers taken 6 -> 3 of 318 (counted
 *  5 -> 2); lint-speech unchanged. `agreed_battle` -25 -> -20 (now `agreed_move`): Clockwork's lint confusion "vance
 *  crush dog lunge" (m7, -24.5, for an attack on the knight) is a miss; every right battle move of the lint is above
 *  -19; tuning paraphrases -1 right (-21.0) and -1 wrong (-20.5).
 *  Session 7: `partial` -18 (a move or bet the model heard in part was "another decision", never taken). Chosen on
 *  lint-speech (fixture voices), the tuning half and the human recordings with it at -40: right ones at -2.1 to -17.2
 *  (lint: a bet, 2 attacks; tuning: a defence twice, 2 paraphrases), the nearest wrong one at -21.7 (lint: "captain
 *  strike hound from the shadows" for "Tam, strike the hound...").
 *  Session 10: `model_unopposed` measured, off (Infinity, as before). Where the grammar heard no decision and the model
 *  heard one, the model's fit does not tell paraphrases from small talk (tuning, every voice: at a `model` of +2, 15
 *  more paraphrases right for 23 more non-answers taken; at -10, 52 for 65; with the same decision heard again at
 *  -lw 7 required: 15 for 19). Only when the grammar heard nothing at all, not even a decoy, were the model's decisions
 *  nearly all right: 8 tuning paraphrases at -13.6 to +9.5 against 2 non-answers (+5.8 and -19.7). At -15 (chosen on
 *  the tuning half): tuning paraphrases 119 -> 127 of 540 right, 18 -> 18 wrong, non-answers 79 -> 80 of 3,212 taken;
 *  held-out (measured) paraphrases 418 -> 459 of 1,240 right, 42 -> 46 wrong, non-answers 109 -> 117 of 3,208 taken
 *  (quick: 6 -> 8 of 318), story sentences and fixture clips unchanged. Off because it takes more non-answers.
 *  Session 10: `model_fluent` -10 with `fluent` -1.0 (a mean log10 probability per word under the stage's model,
 *  lm.ts arpaScorer): the model's words alone where the grammar heard no decision, when they are speech its corpus
 *  knows ("go on my own", "is it haunted") rather than words strung together for want of any ("so the i what gone").
 *  By their fit alone they take one non-answer per paraphrase gained (above); as fluent words, two or three. Chosen on
 *  the tuning half (the most right paraphrases with no more wrong and at most 5 more non-answers of 3,212): tuning
 *  (every voice) paraphrases 119 -> 131 of 540 right, 18 -> 18 wrong, non-answers 79 -> 84 taken (ambiguous ones
 *  0 -> 4 of 116), story sentences 208/232 unchanged; held-out (measured) paraphrases 418 -> 433 of 1,240 right,
 *  42 -> 42 wrong, non-answers 109 -> 113 of 3,208, story sentences 206/232 unchanged; quick: held-out non-answers
 *  6 -> 6 of 318; fixture clips 129/140 unchanged. (-1.1: tuning +22 right for +14 non-answers.)
 *  Tried with it and dropped: `authored_elsewhere` -5 (a story sentence the model heard elsewhere was mostly small talk
 *  the model heard as such, "can you speak louder" where the grammar heard "the market": tuning non-answers 79 -> 59,
 *  held-out 109 -> 87, story sentences -1 each); but the sentences fitting at -10 to -5 then wait for the model, and
 *  the voice bench's own clips fit there ("When does the light go dark?" at 80 words a minute: -9.7; "Is anything
 *  missing?" at 50, -9.9, then a miss): 1 talker's first reply audio p50 188-200 -> 219-234 ms.
 *  Session 11: a decision ending the run is agreed only when the model heard most of its sentence's content words
 *  (heardMostly; the tuning half's one run-ending non-answer, f2's "How are you today?" heard "how are you the cave").
 *  Tuning (every voice): non-answers taken 84 -> 83 of 3,212 (run-ending 1 -> 0), nothing else changed; held-out
 *  (measured): run-ending 2 -> 1 (counting, "eight seven" fitting "tide caves" at +8.5 over the phone loop, the model
 *  hearing "bram tide caves seven caves"), paraphrases 433 -> 429 of 1,240 right (4 of "let's go down to the caves"
 *  and "let's check the caves", the model hearing only "cave"). `authored_elsewhere` -5 measured again and left at
 *  -10: beside the latency, it loses slow speech ("Is anything missing?" at 50 words a minute, the voice bench's
 *  clip, a miss: the model heard "is that it the is it a"); gating it on the model's words being fluent (the
 *  arpaScorer at -1.1) kept the slow clip but gave back all but 1 of the non-answers it rejected ("can you speak
 *  louder" heard as such scores -2.07 a word). Instead `authored_small_talk` 0: a story sentence the model heard
 *  elsewhere in words of its own (`talk`: "can you speak louder" where the grammar heard "the market" at -9.4), not a
 *  move (the riddle's "Spring", fixture m7, the model hearing "really", stays at -10). Chosen on the tuning half and the
 *  fixture clips (the most non-answers rejected with no right answer lost: -5 rejects 9, -2.5 14, 0 16, never 17 and
 *  loses 2 paraphrases): tuning non-answers taken 83 -> 67 of 3,212 (counted 81 -> 65), nothing else changed;
 *  held-out (measured) non-answers 112 -> 89 of 3,208 (counted 108 -> 87), paraphrases 429 -> 422 of 1,240 right and
 *  42 -> 39 wrong, story sentences 206/232 unchanged; fixture clips 129/140 unchanged. A story sentence fitting below 0
 *  now waits for the model (before: below -10).
 *  Session 12, for the fixture clips (#12 goal 3: 129/140, 7 of the 11 misses the right sentence below its margin):
 *  `authored_partial` -40 (a story sentence the model heard in part needed `authored`'s -30: m7 "Orla, strike the
 *  knight precisely!" at -38.5, the model hearing "orla strike let's precisely"; "Ferrule, hard, I bet one" at -31.5)
 *  and `authored_move_elsewhere` -20 for a move the model heard as talk or elsewhere in no more words than the answer
 *  plus one (isBrief; before, -10: the riddle's "Spring" at -18.6 and -11.8, the model hearing "hmm a" and "we"). On
 *  the tuning half, -35 to -50 and -15 to -20 change nothing else; -25 takes a non-answer ("Speak more slowly please",
 *  "the really"), and without isBrief -20 took one held-out non-answer ("The sound is too quiet" as the riddle's "it is
 *  the escapement", the model hearing "the so it is to can i have"). Tuning (every voice): story sentences 208 -> 209
 *  of 232 (wrong 1), paraphrases 131 -> 132 of 540 (wrong 18), non-answers 67 of 3,212 unchanged; held-out
 *  (measured): 206 -> 207 of 232 (wrong 0), 422 -> 423 of 1,240 (wrong 39), non-answers 89 of 3,208 unchanged (run-ending
 *  1); fixture clips 129 -> 133 of 140, 0 confusions. The other 7 misses: a run-ending branch the model did not hear
 *  (2, "Down to the tide caves"), the model hearing another decision (1), the grammar hearing other words (2), and a
 *  battle move the model heard in part at -23.6 (the nearest wrong one at -21.7: `partial`). Then a sentence heard is
 *  the story's own also when it is one with some articles left out, deciding the same (articlesDropped; m7's "tam
 *  strike hound from the shadows" at -23.6, before a generated move the model was not even decoded for): fixture clips
 *  133 -> 134, tuning and held-out unchanged (with articles changed as well as dropped, held-out small talk heard "it is
 *  a escapement" won the riddle 3 times).
 *  Session 13, for non-answers and wrong answers (#13 goals 2 and 3): `authored_elsewhere` -2 (was -10) and
 *  `authored_disputed` 0 (was -10). Each chosen on the tuning half and the fixture clips as the loosest value with the
 *  most non-answers rejected and no story sentence lost (`authored_elsewhere` -5 / -2 / 0: non-answers taken 67 -> 56 /
 *  54 / 53 of 3,212, story sentences 209 / 209 / 208; then `authored_disputed` -5 / 0 / +10: 51 / 50 / 50, 209 each;
 *  fixture clips 134/140 throughout). Tuning: story sentences 209/232 (1 wrong), paraphrases 132 -> 130 of 540 right
 *  and 18 -> 14 wrong, non-answers taken 67 -> 50 (counted 65 -> 49); held-out (measured): story sentences 207 -> 206
 *  of 232 (0 wrong; "Tick tock, heave together!", the model hearing "the help heave the have the"), paraphrases 423 ->
 *  417 of 1,240 right and 39 -> 30 wrong, non-answers 89 -> 78 of 3,208. Session 11's latency cost of
 *  `authored_elsewhere` is gone: since `authored_small_talk` 0 a story sentence fitting below 0 waits for the model
 *  anyway. And a run-ending decision is agreed only when none of the model's words alone decides something else
 *  (namesAnother): the held-out half's one run-ending non-answer, "Ten, nine, eight, seven, six" heard "bram tide caves
 *  seven caves" ("bram" is the ferryman's), is refused; nothing else changed on either half. That rule was found on the
 *  held-out half, which for it is no longer unseen; on the tuning half the same pattern ("cave ferryman cave time
 *  sand" for "Six, seven, eight, nine, ten") was a branch that does not end the run, and the rule is not applied there:
 *  for answers and branches in general it lost 5 story sentences of 232 (a word of another answer, "found" or
 *  "stolen", in a player's own words, or one name of a team).
 *  Then a sentence heard is the story's own also when it is one with one content word said otherwise, deciding the
 *  same (oneWordSwapped: "tam guard into the shadows" for "Tam, dodge into the shadows!", m7 at -7.0, the model hearing
 *  "to dodge into the shadows"; fixture m3 WAV "tamme strike the dog from the shadows" at -28.5): tuning story
 *  sentences 209 -> 211 of 232 (wrong 1), paraphrases 130 -> 131 (wrong 14), non-answers 50 unchanged; fixture clips
 *  134 -> 135 of 140; held-out (measured) story sentences 206 -> 210 of 232 (wrong 0), paraphrases 417 -> 431 of 1,240
 *  (wrong 30), non-answers 77 -> 79 of 3,208 ("Good evening everyone" as "robot easy i bet one" at -33.9, the model
 *  hearing part of it; counting as "tam dodge into the silently", -17.5). With a changed article allowed too, 3 more
 *  held-out non-answers won the riddle as "it is a escapement", as in session 12.
 *  Then a story's bet or move the model heard with another part is disputed only when the model's key words fit the
 *  audio at least as well as the grammar's (disputeHolds; else as if the model had heard no decision: `authored`):
 *  fixture m7 "Ferrule, easy, I bet one" at -28.2, the model's "the orla easy i bet one" at -38.6. No constant to
 *  tune. Tuning half unchanged; held-out 431 -> 432 paraphrases right ("Ferrule, difficult, I bet one", the model
 *  hearing "ferrule the middle i bet one"), nothing else changed; fixture clips 135 -> 136 of 140 (97.1%), 0
 *  confusions.
 *  Session 14: `authored_small_talk_words` -30 (`authored`'s value, not tuned): a story sentence the model heard as
 *  talk of its own must be heard whole, every word within -30, not only its key words (heardWhole). Found on the human
 *  set (Debian's pocketsphinx-testdata, now installed by .ci/run; missing on the machine of sessions 10-13): people's
 *  cards and audiobook lines were heard "was it a ghost" with "ghost" at +18.4 and +3.7, "a" at -45.7, "it" at -57.3.
 *  Human non-answers taken 14 -> 11 of 341 (ambiguous 2 -> 1 of 23), human answers 10/12 unchanged. Tuning: non-answers
 *  50 -> 49 of 3,212 ("Good morning" as "pull the crank", "crank" at -49), paraphrases 131 -> 129 of 540 (two the
 *  grammar snapped to a story sentence with a word at -89 and -139: "When did the light stop shining?" as "when does
 *  the light go dark"), story sentences 211/232 unchanged; held-out (measured): non-answers 79 -> 74 of 3,208,
 *  paraphrases 432/1,240 (30 wrong) and story sentences 210/232 unchanged; fixture clips 136/140 unchanged. A story
 *  sentence above `sure` with a word below -30 now waits for the model: 1 talker's first reply audio p50 215.6 / 219.7
 *  / 219.7 ms before, 219.1 / 216.2 / 221.7 after (interleaved).
 *  Then `model_sentence` -45 (`authored_agreed`'s value: the model heard a story sentence as an agreement would, and no
 *  value from -20 to -1000 changes the tuning half): the model's words are taken when they are one of the story's own
 *  sentences and the grammar heard none or another not taken. Tuning: story sentences 211 -> 212 of 232 (m3 "Orla,
 *  strike the knight precisely!", the grammar hearing "... the dog ...", the model the sentence at -38.3), nothing else
 *  changed; fixture clips 136 -> 137 of 140 (m7 "Orla, Tam and Ferrule", the grammar hearing "orla captain and tam");
 *  held-out (measured): story sentences 210 -> 213 of 232 (0 wrong), paraphrases 432 -> 433 of 1,240 (30 wrong),
 *  non-answers 74 of 3,208 unchanged; human recordings unchanged. With any sentence of the stage (generated ones too: a
 *  name or an item the decoders dispute, "hand the lens to marrow" for "Hand the lamp to Nell") held-out wrong
 *  paraphrases rose 30 -> 36: kept to the story's own.
 */
export const DEFAULT_THRESHOLDS: Thresholds = { authored_agreed: -45, authored: -30, authored_partial: -40, authored_elsewhere: -2, authored_move_elsewhere: -20, authored_small_talk: 0, authored_small_talk_words: -30, authored_disputed: 0, agreed: -5, agreed_move: -20, partial: -18, alone: Infinity, model: Infinity, model_unopposed: Infinity, model_fluent: -10, fluent: -1.0, model_sentence: -45, run_ending: -25 };

/**
 * A stricter profile (UnderstandingOptions { thresholds: STRICT_THRESHOLDS, keyWords: 'content' }), tuned in session 4
 * with pocketsphinx's live normalisation (UnderstandingOptions cmn: 'live'; figures of that time), best on the tuning
 * set for wrong answers: story sentences 0 wrong (default 1), paraphrases 3.0% wrong (5.2%) and 25% right (16.5%),
 * non-answers 5 of 318 taken (7); but story sentences 73% right (78%) and lint-speech on The Lantern Keeper 68/93
 * (83/93), under the CI's 85% floor. Not the default: it trades too many right answers.
 */
export const STRICT_THRESHOLDS: Thresholds = { authored_agreed: -45, authored: -30, authored_partial: -30, authored_elsewhere: -30, authored_move_elsewhere: -30, authored_small_talk: -30, authored_small_talk_words: -30, authored_disputed: -20, agreed: -10, agreed_move: -10, partial: Infinity, alone: Infinity, model: -15, model_unopposed: Infinity, model_fluent: Infinity, fluent: 0, model_sentence: Infinity, run_ending: -20 };

/** The most speech (10 ms frames from the first voiced one to the last) per phone of a sentence heard by the exact
 *  grammar's second pass without decoys (understanding.ts), run when a decoy won the first. A short answer whose first
 *  sounds fit silence better than its own phones loses to silence and a shorter decoy ("tea" for "Spring", m3; with
 *  only the two to choose from, the decoy still wins: not a search error). Without decoys small talk lands on a
 *  sentence too, but mostly on one much shorter than what was said ("the market" for "Speak more slowly please": 21
 *  frames a phone). Chosen on the tuning half: the answers so heard span 4.0 to 8.9 frames a phone, the nearest
 *  non-answers 9.6 (a human recording) and 10.1 ("I'm hungry, what's for lunch" as "when does the light go dark"). */
export const RESCUE_FRAMES_PER_PHONE = 9.2;

/** Whether the second pass's sentence (its phones) can be what was said in `speechFrames` of speech. */
export function rescuable(speechFrames: number, phones: number): boolean {
  return phones > 0 && speechFrames <= RESCUE_FRAMES_PER_PHONE * phones;
}

/** What the other decoder made of the audio: the same decision, none, none and none of the sentence's words
 *  (`elsewhere`; `talk` when they are words of its own, see `ownWords`), part of the same decision (`partial`, see
 *  `partOf`), another one, or not decoded. */
export type ModelView = 'same' | 'none' | 'elsewhere' | 'talk' | 'partial' | 'other' | 'unknown';

/** `unopposed`: the model's words alone, the exact grammar having heard nothing at all (no sentence, no decoy);
 *  `fluency`: how likely the stage's model finds its own words (lm.ts arpaScorer); `sentence`: the model's words are
 *  one of the story's own sentences (`model_sentence`). */
export type Standing = { strict: boolean; source: 'grammar' | 'lm'; authored: boolean; model: ModelView; move?: boolean; unopposed?: boolean; fluency?: number; brief?: boolean; sentence?: boolean };

/** `brief`: the model heard at most one word more than the grammar's sentence has, so no more was said than the
 *  answer ("hmm a", "we" for "Spring"; "it is a" for "It is the escapement"), not a longer sentence the grammar
 *  forced into it ("the so it is to can i have" for "The sound is too quiet", heard "it is the escapement"). */
export function isBrief(sentence: string, modelHeard: string): boolean {
  const count = (t: string): number => t.split(' ').filter(Boolean).length;
  return count(modelHeard) <= count(sentence) + 1;
}

/** A move: a battle move, or an answer to a riddle (right or a listed wrong guess): one of a few short answers of the
 *  stage, which both decoders seldom agree on by chance (tuning: riddle answers agreed at -16 to +2, all right; lint:
 *  "second hand" agreed at -10 to -15 in every voice, missed at `agreed`'s -5). */
export function isMove(d: Decision): boolean {
  return Boolean(d.battle) || d.upgrade?.stage === 'answer';
}

/** The margin a decision needs with this evidence (Infinity: never taken). */
export function neededMargin(t: Thresholds, s: Standing): number {
  if (s.strict) return s.source === 'grammar' && s.model === 'same' ? t.run_ending : Infinity;
  if (s.source === 'lm') return Math.min(t.model, s.unopposed ? t.model_unopposed : Infinity, s.fluency !== undefined && s.fluency >= t.fluent ? t.model_fluent : Infinity, s.sentence ? t.model_sentence : Infinity);
  if (s.authored) {
    // A move the model heard as talk or elsewhere, in no more words than the answer: a short answer the model missed
    // (`authored_move_elsewhere`). In more words, as `authored_elsewhere` (a move is never held as small talk: the
    // riddle's "Spring", the model hearing "really"). Unknown (before the model is decoded): the looser.
    if (s.move && (s.model === 'talk' || s.model === 'elsewhere')) return s.brief === false ? t.authored_elsewhere : t.authored_move_elsewhere;
    const byView: Partial<Record<ModelView, number>> = { same: t.authored_agreed, other: t.authored_disputed, partial: t.authored_partial, elsewhere: t.authored_elsewhere, talk: t.authored_small_talk };
    return byView[s.model] ?? t.authored;
  }
  // Heard in part is never less than heard whole: a bet the model heard in part needs at least a full agreement's
  // margin (`agreed`; before session 8 a partial bet needed -18 where an agreed one needed -5: lint-speech, m7, "orla
  // easy i bet one" for "Orla Vance medium I bet one", the model's "orla bet one" naming no level, taken at -9.6).
  const same = s.move ? t.agreed_move : t.agreed;
  return s.model === 'same' ? Math.min(same, t.alone) : s.model === 'partial' ? Math.min(Math.max(t.partial, same), t.alone) : t.alone;
}

/** Whether every word of the sentence fits the audio (its margins over the phone loop, verify.ts) at least `least`:
 *  what a story sentence needs when the model heard talk of its own (`authored_small_talk_words`). A sentence without
 *  word margins (not verified) is not held whole. */
export function heardWhole(margins: readonly number[], least: number): boolean {
  return margins.length > 0 && margins.every((m) => m >= least);
}

/** For a decision of the exact grammar before the model is decoded: at or above `sure` it is taken whatever the model
 *  hears; below `never` it is a miss whatever the model hears; in between the model decides. */
export function grammarBounds(t: Thresholds, s: { strict: boolean; authored: boolean; move?: boolean; parts?: boolean }): { sure: number; never: number } {
  // Only a decision with parts (hasParts) can be heard in part: the others never decode the model for it.
  const views: ModelView[] = ['same', 'none', 'elsewhere', 'talk', ...(s.parts ? (['partial'] as const) : []), 'other'];
  const needs = views.map((model) => neededMargin(t, { ...s, source: 'grammar', model }));
  return { sure: Math.max(...needs), never: Math.min(...needs) };
}

/** Which words a decision rests on: `changes`, each word whose removal changes what the brain decides; `naming`,
 *  those and each word that decides something on its own (a name, a verb: "orla strike dog" targets the hound with or
 *  without "dog", the default target, yet "dog" may have been heard where "the knight" was said); `content`, those
 *  and every word but the small words that carry a sentence ("ferrule brace elegant": "elegant" decides nothing and
 *  changes nothing, yet it was heard where "mighty as thunder", a thematic defence, was said). */
export type KeyWordRule = 'changes' | 'naming' | 'content';

/** The rule by kind of sentence: `mixed` is `changes` for the story's own sentences and `content` for generated ones
 *  (names x verbs x targets x styles, where a wrong target or style rests on words `changes` never checks). */
export type KeyWordPolicy = KeyWordRule | 'mixed';

/** The rule that applies to a sentence heard (authored: one of the story's own). */
export function keyWordRule(policy: KeyWordPolicy, authored: boolean): KeyWordRule {
  return policy === 'mixed' ? (authored ? 'changes' : 'content') : policy;
}

/** Words that carry a sentence rather than decide it (the generated sentences' and the carriers' small words). */
const CARRIER_WORDS = new Set(['a', 'an', 'the', 'and', 'to', 'into', 'from', 'like', 'with', 'as', 'of', 'on', 'at', 'in', 'i', "i'll", 'it', 'is', "it's", 'we', 'me', 'my', 'you', 'your', 'please', 'now', 'so', 'okay', 'yes', 'go', "let's", 'think', 'want', 'should', 'take', 'choose', 'give', 'hand', 'carry', 'answer', 'bet']);

/** Everyday function words: no evidence that the model heard the sentence ("what do we was i" shares "do" with "how do
 *  the walls work"). */
const FUNCTION_WORDS = new Set([...CARRIER_WORDS, 'do', 'does', 'did', 'what', 'how', 'who', 'where', 'when', 'why', 'which', 'was', 'were', 'are', 'be', 'am', 'can', 'will', 'would', 'could', 'that', 'this', 'there', 'here', 'not', 'no', 'us', 'he', 'she', 'they', 'him', 'her', 'them', 'have', 'has', 'for', 'out', 'up', 'all', 'one', 'two', 'three']);

const ARTICLES = new Set(['a', 'an', 'the']);

/** A sentence without its articles, the small words fast speech swallows first ("tam strike hound from the shadows"
 *  for "Tam, strike the hound from the shadows!", fixture m7 at 200 words a minute). */
export const withoutArticles = (text: string): string => text.split(' ').filter((w) => !ARTICLES.has(w)).join(' ');

/** Whether `heard` is `sentence` with some of its articles left out (none changed: "it is a escapement" is not "it is
 *  the escapement", which small talk was heard as on the held-out half). */
export function articlesDropped(sentence: string, heard: string): boolean {
  const want = sentence.split(' ');
  const got = heard.split(' ');
  let i = 0;
  for (const w of want) {
    if (got[i] === w) i++;
    else if (!ARTICLES.has(w)) return false;
  }
  return i === got.length;
}

/** Whether `heard` is `sentence` with one content word said otherwise, in the same place: a verb or a name the
 *  grammar holds beside the story's own ("tam guard into the shadows" for "Tam, dodge into the shadows!", "tamme strike
 *  the dog from the shadows" for "... the hound ...", which the brain reads as the same move). Not a small word ("it
 *  is a escapement" for "it is the escapement": held-out small talk won the riddle so, session 12). Whether it decides
 *  the same is the caller's to check. */
export function oneWordSwapped(sentence: string, heard: string): boolean {
  const want = sentence.split(' ');
  const got = heard.split(' ');
  if (want.length !== got.length) return false;
  const at = want.flatMap((w, i) => (w === got[i] ? [] : [i]));
  const i = at[0];
  return at.length === 1 && i !== undefined && !FUNCTION_WORDS.has(want[i] ?? '') && !FUNCTION_WORDS.has(got[i] ?? '');
}

/** Whether none of the content words of the sentence the grammar heard is among the model's words (deciding nothing). */
export function elsewhere(sentence: string, model: string): boolean {
  const heard = new Set(model.split(' '));
  return !contentWords(sentence).some((w) => heard.has(w));
}

/** The words of a text other than everyday function words. */
function contentWords(text: string): string[] {
  return text.split(' ').filter((w) => w && !FUNCTION_WORDS.has(w));
}

/** Whether the model heard words of its own: a word other than the small words that carry a sentence ("good morning",
 *  "i mean um is it"; not "is that it the is it a", what it made of "Is anything missing?" said at 50 words a minute). */
export function ownWords(model: string): boolean {
  return contentWords(model).length > 0;
}

/** Whether the model's same decision rests on words of its own: none of the content words of the story's sentence the
 *  grammar heard is among them ("to the obey go to" read as "you are a naughty thief", "flee city to the let's to" as
 *  "we should run away": small talk both decoders fit to a sentence, the brain's loose reading agreeing). Such an
 *  agreement counts as the model hearing no decision (`authored`, not `authored_agreed`). A sentence without content
 *  words ("yes i'll take it") keeps its agreement. */
export function agreesElsewhere(sentence: string, model: string): boolean {
  return contentWords(sentence).length > 0 && elsewhere(sentence, model);
}

/** Whether the model's words hold most of the content words of the sentence the grammar heard (at least half; a word
 *  heard in the singular or the plural counts: "cave" for "caves"). What a decision that ends the run needs of the
 *  model's agreement: the brain reads a single word as the branch ("how are you the cave" for "down to the tide caves",
 *  small talk at the Lantern Keeper's crossroad that lost the run: tuning, f2), while a player who means it says most
 *  of its words ("let's go down to the caves", "i want to see the tide caves"). */
export function heardMostly(sentence: string, model: string): boolean {
  const stem = (w: string): string => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);
  const heard = new Set(model.split(' ').map(stem));
  const content = contentWords(sentence);
  return content.length === 0 || 2 * content.filter((w) => heard.has(stem(w))).length >= content.length;
}

/** Whether one of the model's words alone decides something other than `heard`, a decision without parts (a branch,
 *  an answer): the model heard words of two decisions, and the grammar's is disputed. Small talk both decoders fit to
 *  a sentence often comes out so ("bram tide caves seven caves" for "Ten, nine, eight, seven, six", read as the tide
 *  caves, a branch that ends the run, though "bram" alone is the ferryman's; "cave ferryman cave time sand" for "Six,
 *  seven, eight, nine, ten"), a player meaning one branch seldom names another. Moves and bets are left out: one word of
 *  theirs ("tam") decides a move with the brain's defaults, which is not another decision. */
export function namesAnother(story: Story, state: GameState, model: string, heard: Decision): boolean {
  if (hasParts(heard)) return false;
  const key = decisionKey(heard);
  return [...new Set(contentWords(model))].some((w) => {
    const d = decideTyped(story, state, w);
    return decides(d) && decisionKey(d) !== key;
  });
}

/** Whether the model's other decision disputes the grammar's story sentence: only when the model's key words fit the
 *  audio (`modelMargin`, over the phone loop) at least as well as the grammar's (`grammarMargin`); unknown, it does.
 *  For a bet or a move of the story's own (understanding.ts), where the two differ in a part: fixture m7 "Ferrule,
 *  easy, I bet one", the grammar hearing it with "ferrule" at -28.2 a frame, the model "the orla easy i bet one" with
 *  its key words at -38.6. Then the sentence needs `authored`'s margin, as if the model had heard no decision. */
export function disputeHolds(grammarMargin: number | null, modelMargin: number | null): boolean {
  return grammarMargin === null || modelMargin === null || modelMargin >= grammarMargin;
}

/** The parts of a decision a partial hearing is compared on: a battle move's fighter, target and style; a bet's
 *  fighter, level and stake. */
function partsOf(d: Decision): Record<string, string | number | boolean | null> | null {
  if (d.battle) return { actor: d.battle.actor_id ?? null, target: d.battle.target_id ?? null, thematic: d.battle.thematic };
  if (d.upgrade?.stage === 'bet') return { character: d.upgrade.character_id ?? null, level: d.upgrade.level ?? null, bet: d.upgrade.bet ?? null };
  return null;
}

/** Whether a decision has parts the model may hear some of (`partOf`): a battle move or a bet. */
export function hasParts(d: Decision): boolean {
  return Boolean(d.battle) || d.upgrade?.stage === 'bet';
}

/** Whether the model's decision `heard` (from `words`) is part of the grammar's `full` one: the same kind of battle move
 *  or a bet, with at least one part the model's words name the same (the fighter, the target, a style, the level or
 *  the stake) and every other part left to the brain's defaults (no fighter or target named, no style, no stake):
 *  "orla we to" for "orla vance medium i bet two", "tam dodge into little the" for "tam block into the shadows". A
 *  part the model names otherwise is another decision ("ferrule hit the dog heroic" where the grammar heard "... the
 *  knight ...", though the hound is the default target); a model naming no part heard only some move ("seven up boat
 *  smash", a human's "seven of clubs", where the grammar heard "stab the knight with lunge"). Not a team: the grammar's
 *  extra member is where it goes wrong ("captain holt orla and tam" for "Captain Holt, Orla and Ferrule"). */
export function partOf(story: Story, state: GameState, words: readonly string[], heard: Decision, full: Decision): boolean {
  if (Boolean(heard.battle) !== Boolean(full.battle) || heard.battle?.kind !== full.battle?.kind) return false;
  if ((heard.upgrade?.stage === 'bet') !== (full.upgrade?.stage === 'bet')) return false;
  const a = partsOf(heard);
  const b = partsOf(full);
  if (!a || !b) return false;
  const said = ` ${fold(words.join(' '))} `;
  // Whether the words name this fighter or opponent of the run (its name, its story character's name or aliases).
  const named = (id: string): boolean => namesOf(story, state, id)?.some((n) => fold(n) !== '' && said.includes(` ${fold(n)} `)) ?? true;
  const isName = (k: string): boolean => k === 'actor' || k === 'target' || k === 'character';
  // A default: no name (a fighter or target the words name), no style (false), no stake or level (null).
  const unnamed = (k: string, v: string | number | boolean | null): boolean => v === null || v === false || (isName(k) && typeof v === 'string' && !named(v));
  const keys = Object.keys(a);
  const differ = keys.filter((k) => a[k] !== b[k]);
  const same = keys.filter((k) => a[k] === b[k] && !unnamed(k, a[k] ?? null));
  return differ.length > 0 && same.length > 0 && differ.every((k) => unnamed(k, a[k] ?? null));
}

/** The default rule: `changes`. `content` catches the tuning set's wrong story sentences (a target and a style heard
 *  where others were said rested on words `changes` never checks) but loses right ones (see STRICT_THRESHOLDS). */
export const DEFAULT_KEY_WORDS: KeyWordRule = 'changes';

/** The key words of a sentence heard: by `rule`; for a generated battle move that no single word carries (its words say
 *  it twice over: "vance crush dog lunge" is Orla's attack on the hound whichever word is left out, Orla and the hound
 *  being the defaults), all its content words, else it would be checked on none (lint-speech: "Vance crush The Bellows
 *  Knight like lunge" and "Ferule hit the dog heroic" were taken so, as another target or fighter). Not for other
 *  kinds: a reward's or an item's name says it twice over too, rightly ("knotted rope bracelet": Lantern lint 86 -> 73
 *  of 93 with the fallback for every generated sentence). */
export function keyWordsHeard(story: Story, state: GameState, words: readonly string[], decision: Decision, rule: KeyWordRule, authored: boolean): number[] {
  const out = keyWords(story, state, words, decision, rule);
  return out.length === 0 && !authored && decision.battle && rule !== 'content' ? keyWords(story, state, words, decision, 'content') : out;
}

/** The words of a generated battle move heard by the exact grammar that name its fighter or target and that the model
 *  did not say: the brain's defaults included, they are key words too once the model is decoded. "orla strike dog like
 *  precisely" (lint-speech, m7, for "Orla, strike the knight precisely!") is an attack on the hound, the default
 *  target, so "dog" changes nothing and was never checked (-25.2, where the key word "precisely" fit at -2.9), and the
 *  model's "orla strike precisely" agreed only through the same default. A name the model said too rests on both
 *  decoders ("madame vance strike hound as gears": "hound" at -27.9, also in the model's words, stays no key word). */
export function namesUnheard(story: Story, state: GameState, words: readonly string[], decision: Decision, authored: boolean, model: string): number[] {
  if (authored || !decision.battle) return [];
  const said = model.split(' ');
  // A fighter the model named in any of its names ("tam" where the grammar spelled the alias "tamme") is no doubt.
  return [decision.battle.actor_id, decision.battle.target_id].filter((id) => nameIndexes(story, state, said, [id]).length === 0).flatMap((id) => nameIndexes(story, state, words, [id]));
}

/** The names of a fighter or opponent of the run: its name in the run, its story character's name and aliases; null
 *  when the run has no such row. */
function namesOf(story: Story, state: GameState, id: string): string[] | null {
  const row = state.characters.find((x) => x.id === id) ?? state.opponents.find((x) => x.id === id);
  if (!row) return null;
  const c = row.blueprint_character_id ? story.characters.find((x) => x.id === row.blueprint_character_id) : undefined;
  return [row.name, ...(c ? [c.name, ...c.aliases] : [])];
}

/** The indexes of the words that say one of these fighters' or opponents' names (its name in the run, its story
 *  character's name or an alias). */
export function nameIndexes(story: Story, state: GameState, words: readonly string[], ids: readonly (string | null | undefined)[]): number[] {
  const out = new Set<number>();
  const folded = words.map(fold);
  for (const id of ids) {
    for (const n of (id ? namesOf(story, state, id) : null) ?? []) {
      const parts = fold(n).split(' ').filter(Boolean);
      if (parts.length === 0) continue;
      for (let i = 0; i + parts.length <= folded.length; i++) {
        // The small words of a name ("the hound") carry it, not name it.
        if (parts.every((p, j) => folded[i + j] === p)) parts.forEach((p, j) => CARRIER_WORDS.has(p) || out.add(i + j));
      }
    }
  }
  return [...out];
}

/** The words a decision rests on (indexes into `words`), by `rule`. */
export function keyWords(story: Story, state: GameState, words: readonly string[], decision: Decision, rule: KeyWordRule = DEFAULT_KEY_WORDS): number[] {
  // A listed wrong guess at a riddle decides only while its words are there (decidesHeard).
  const keyOf = (text: string, d: Decision): string => `${decisionKey(d)}|${decidesHeard(story, state, text, d)}`;
  const want = keyOf(words.join(' '), decision);
  const out: number[] = [];
  words.forEach((w, i) => {
    if (rule === 'content' && !CARRIER_WORDS.has(w)) {
      out.push(i);
      return;
    }
    const without = words.filter((__, j) => j !== i).join(' ');
    if (keyOf(without, decideTyped(story, state, without)) !== want || (rule === 'naming' && decides(decideTyped(story, state, w)))) out.push(i);
  });
  return out;
}
