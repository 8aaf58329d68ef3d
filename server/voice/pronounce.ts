// Pronunciations for pocketsphinx: the CMU dictionary that ships with pocketsphinx-en-us, and for words it lacks
// (character names, invented places) eSpeak's spelling-to-sound rules, turned from IPA into CMU phones.
import { readFile } from 'node:fs/promises';
import { ESPEAK_LANGUAGE_VOICE, EspeakEngine } from './espeak-engine.js';

export const CMU_PHONES = [
  'AA', 'AE', 'AH', 'AO', 'AW', 'AY', 'B', 'CH', 'D', 'DH', 'EH', 'ER', 'EY', 'F', 'G', 'HH', 'IH', 'IY', 'JH', 'K', 'L',
  'M', 'N', 'NG', 'OW', 'OY', 'P', 'R', 'S', 'SH', 'T', 'TH', 'UH', 'UW', 'V', 'W', 'Y', 'Z', 'ZH',
] as const;

/** word -> its pronunciations (phones separated by spaces), the first being the most common. */
export type Lexicon = ReadonlyMap<string, readonly string[]>;

const lexicons = new Map<string, Promise<Lexicon>>();

/** Reads a CMU-format dictionary once per path ("word(2)" lines are alternative pronunciations). */
export function loadLexicon(path: string): Promise<Lexicon> {
  let p = lexicons.get(path);
  if (!p) {
    p = readFile(path, 'utf8').then((text) => {
      const map = new Map<string, string[]>();
      for (const line of text.split('\n')) {
        const sp = line.indexOf(' ');
        if (sp <= 0) continue;
        const word = line.slice(0, sp).replace(/\(\d+\)$/, '');
        const phones = line.slice(sp + 1).trim();
        const list = map.get(word);
        if (list) list.push(phones);
        else map.set(word, [phones]);
      }
      return map;
    });
    p.catch(() => lexicons.delete(path));
    lexicons.set(path, p);
  }
  return p;
}

// eSpeak's en-us IPA symbols (stress marks removed) to CMU phones. Longer symbols are tried first.
const IPA: ReadonlyArray<readonly [string, string]> = ([
  ['aɪɚ', 'AY ER'], ['aɪə', 'AY ER'], ['ɑːɹ', 'AA R'], ['ɔːɹ', 'AO R'], ['oːɹ', 'AO R'], ['ɛɹ', 'EH R'], ['ɪɹ', 'IH R'],
  ['ʊɹ', 'UH R'], ['iə', 'IY AH'], ['aɪ', 'AY'], ['aʊ', 'AW'], ['eɪ', 'EY'], ['oʊ', 'OW'], ['ɔɪ', 'OY'], ['tʃ', 'CH'],
  ['dʒ', 'JH'], ['ɑː', 'AA'], ['ɔː', 'AO'], ['ɜː', 'ER'], ['iː', 'IY'], ['uː', 'UW'], ['oː', 'OW'], ['əl', 'AH L'],
  ['n̩', 'AH N'], ['l̩', 'AH L'], ['m̩', 'AH M'], ['ɑ', 'AA'], ['æ', 'AE'], ['ʌ', 'AH'], ['ə', 'AH'], ['ɐ', 'AH'],
  ['ɔ', 'AO'], ['ɛ', 'EH'], ['ɜ', 'ER'], ['ɚ', 'ER'], ['ɪ', 'IH'], ['ᵻ', 'IH'], ['i', 'IY'], ['o', 'OW'], ['ʊ', 'UH'],
  ['u', 'UW'], ['e', 'EY'], ['a', 'AA'], ['b', 'B'], ['d', 'D'], ['ð', 'DH'], ['f', 'F'], ['ɡ', 'G'], ['g', 'G'],
  ['h', 'HH'], ['k', 'K'], ['l', 'L'], ['m', 'M'], ['n', 'N'], ['ŋ', 'NG'], ['p', 'P'], ['ɹ', 'R'], ['r', 'R'],
  ['s', 'S'], ['ʃ', 'SH'], ['t', 'T'], ['θ', 'TH'], ['v', 'V'], ['w', 'W'], ['j', 'Y'], ['z', 'Z'], ['ʒ', 'ZH'],
  ['ɾ', 'T'], ['ʔ', 'T'], ['x', 'K'], ['ç', 'HH'],
] as const).slice().sort((a, b) => b[0].length - a[0].length);

/** IPA as eSpeak writes it ('k_ˈɑːɹ_d_uː') to CMU phones ('K AA R D UW'); null when a symbol is unknown. */
export function ipaToCmu(ipa: string): string | null {
  const clean = ipa.replace(/[ˈˌ_\s'ˑ‿]/g, '');
  const out: string[] = [];
  let i = 0;
  while (i < clean.length) {
    const hit = IPA.find(([sym]) => clean.startsWith(sym, i));
    if (!hit) return null;
    out.push(hit[1]);
    i += hit[0].length;
  }
  return out.length > 0 ? out.join(' ') : null;
}

/** Spells a word the CMU dictionary lacks, with eSpeak's English rules (one engine, loaded on first use). */
export type Speller = (word: string) => Promise<string | null>;

let espeak: Promise<EspeakEngine> | null = null;

export const espeakSpeller: Speller = async (word) => {
  espeak ??= EspeakEngine.create();
  const engine = await espeak;
  return ipaToCmu(engine.ipa(word, ESPEAK_LANGUAGE_VOICE.english));
};
