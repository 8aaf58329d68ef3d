// The sentences a speech recogniser's language model is built from at one stage of a moment: what decides something
// here (the story's `say` sentences, its answer and branch phrases, names, generated moves: speakable.ts), those words
// in everyday carriers ("I think it's...", "let's go to the..."), and everyday speech that decides nothing (thinking
// aloud, asking to repeat, small talk). A player's other words then come out as words, not as the nearest answer:
// the brain reads paraphrases, and finds nothing in small talk.
import type { PlayLanguage } from '../schema/enums.js';
import { LANG_CODE } from '../schema/enums.js';
import type { GameState } from '../run/state.js';
import type { Story } from '../story/format.js';
import { sampleSentences } from './coverage.js';
import { decides, decideTyped, speakable } from './speakable.js';

/** Everyday frames a player puts around what matters; {p} is the phrase. */
export const CARRIERS = {
  en: ['{p}', 'the {p}', 'i think {p}', "i think it's {p}", "it's {p}", 'it was {p}', 'is it {p}', "let's go to the {p}",
    "let's {p}", 'we should {p}', 'i want {p}', "i'd like the {p}", 'can i have the {p}', 'what about the {p}', '{p} please',
    'tell me about {p}', "i'll take the {p}", 'go to the {p}', 'yes {p}', 'to the {p}', 'okay {p}', '{p} now', 'so {p}'],
  fr: ['{p}', 'le {p}', 'la {p}', 'je pense {p}', "c'est {p}", 'allons {p}', 'je veux {p}', '{p} s\'il vous plaît', 'oui {p}',
    'alors {p}'],
} as const;

/** Everyday speech that decides nothing in a story: written for this model, not taken from any test set. */
export const EVERYDAY = {
  en: ["what do you think", "i don't know", 'can you tell me', 'let me think', 'i think so', 'what is it', 'where is it',
    'how does it work', 'what did you say', 'i want to go', "let's go", "okay let's do it", "i'm not sure", 'what happened',
    'who is there', 'no thank you', 'i like it', 'one two three', 'what about you', 'is it here', 'we should go now',
    'can we go', 'tell me more', 'i need help', 'this is fun', 'hello there', 'good morning', 'how are you',
    'wait a second', 'say it again', "i can't hear you", "that's right", "that's it", 'maybe later', 'i guess so',
    'what time is it', 'where are we going', 'it was me', 'i have no idea', 'um', 'uh', 'hmm', 'well', 'okay',
    'sorry', 'what', 'really', 'oh no', 'good night', 'thank you so much', 'i am here', 'can you help me', 'is that it',
    'what should i do', 'let me see', 'hold on', 'four five six', 'seven eight nine ten', 'speak up', 'a little louder',
    'not now', 'come on', 'you know', 'i mean', 'and then', 'so what', 'me too', 'how about that', 'what is this',
    'who are you', 'where am i', 'what is going on', 'give me a minute', 'just a second', 'this is hard',
    'the weather is bad', 'i am hungry', 'i am tired', 'my phone is ringing', 'turn it off', 'is anybody there',
    'repeat please', 'again please', 'pardon', 'excuse me', 'huh', 'yeah', 'nope', 'i forgot', 'never mind'],
  fr: ['je ne sais pas', 'attends', 'tu peux répéter', 'je réfléchis', 'euh', 'bon', "qu'est-ce que tu as dit", 'pardon',
    'comment ça marche', "je n'entends rien", 'un deux trois', 'bonjour', 'merci beaucoup', 'je ne suis pas sûr'],
} as const;

export type ListenCorpus = {
  /** Sentences of the model, as plain text (one sentence each). */
  sentences: string[];
  /** The sentences that decide something here (say, generated), for weighting and checks. */
  deciding: string[];
};

/** The language-model corpus of the current stage. `samples` caps the sentences drawn from one large pattern. */
export type CorpusWeights = {
  /** Copies of each story sentence (say), of each generated sentence, of each carrier sentence, of everyday speech. */
  authored?: number;
  generated?: number;
  carried?: number;
  everyday?: number;
};

export function listenCorpus(story: Story, state: GameState, language: PlayLanguage, opts: { samples?: number; decoys?: readonly string[]; weights?: CorpusWeights } = {}): ListenCorpus {
  // Story sentences weigh most (tuning: 4 -> 20 copies took 1 more sentence and 5 more paraphrases of 356).
  const w = { authored: 20, generated: 3, carried: 1, everyday: 1, ...opts.weights };
  const lang = LANG_CODE[language];
  const sentences: string[] = [];
  const deciding: string[] = [];
  const samples = opts.samples ?? 60;
  for (const p of speakable(story, state, language, { allPhrases: true })) {
    const said = sampleSentences(p, samples);
    deciding.push(...said);
    // The story's own sentences weigh most; every other one once.
    for (let k = 0; k < (p.authored ? w.authored : w.generated); k++) sentences.push(...said);
    for (let k = 0; k < w.carried; k++) for (const s of said.slice(0, 6)) for (const c of CARRIERS[lang]) sentences.push(c.replace('{p}', s));
  }
  // Everyday speech and the story's decoys, where they decide nothing ("turn it off" is an order at a crank).
  for (const e of [...EVERYDAY[lang], ...(opts.decoys ?? [])]) {
    if (decides(decideTyped(story, state, e))) continue;
    for (let k = 0; k < w.everyday; k++) sentences.push(e);
  }
  return { sentences, deciding };
}
