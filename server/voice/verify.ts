// Is the grammar's best sentence really what was said? A grammar always finds its nearest sentence, whatever is said
// ("Can you repeat that?" comes out as "the market"). So the same audio is also decoded with a free loop of phones,
// which can follow any sound; the acoustic score of the sentence is compared with the loop's over the same frames.
// Speech that is the sentence scores close to the loop (or above it: the loop's phones carry no word context); other
// speech forced into a sentence scores well below it. Scores are per 10 ms frame, in pocketsphinx's acoustic units.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isFiller, type BtUtterance } from './backtrace.js';
import type { DecodeFiles } from './decode.js';
import { CMU_PHONES } from './pronounce.js';

let files: Promise<DecodeFiles> | null = null;

/** The phone loop's grammar and dictionary: every CMU phone as a one-phone word, any number of them. */
export function phoneLoopFiles(): Promise<DecodeFiles> {
  files ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'looptale-phone-loop-'));
    const words = CMU_PHONES.map((p) => `ph${p.toLowerCase()}`);
    const gram = join(dir, 'loop.gram');
    const dict = join(dir, 'loop.dict');
    await writeFile(gram, `#JSGF V1.0;\ngrammar loop;\npublic <loop> = <ph>+;\n<ph> = ${words.join(' | ')};\n`);
    await writeFile(dict, `${CMU_PHONES.map((p, i) => `${words[i] ?? ''} ${p}`).join('\n')}\n`);
    return { gram, dict };
  })();
  files.catch(() => (files = null));
  return files;
}

export type WordFit = { word: string; frames: number; margin: number };

export type Verification = {
  /** Frames of speech (the hypothesis's words, without silences and fillers). */
  frames: number;
  /** (hypothesis acoustic score - loop score) per frame over the words. */
  speech: number;
  /** The same over the whole utterance, silences included. */
  utterance: number;
  /** Each word of the hypothesis in order (fillers left out): its margin over the loop per frame. */
  words: WordFit[];
  /** The silences and fillers on the path, in order: where speech the sentence left out would hide ("Ferrule" fit as
   *  silence before "hit the dog"), each with its margin over the loop per frame. */
  gaps: WordFit[];
};

/** The loop's acoustic score over frames [start, end] of an utterance, each phone counted for its share inside. */
function loopScore(loop: BtUtterance, start: number, end: number): number {
  let s = 0;
  for (const w of loop.words) {
    const lo = Math.max(start, w.start);
    const hi = Math.min(end, w.end);
    if (hi < lo) continue;
    s += (w.ascr * (hi - lo + 1)) / (w.end - w.start + 1);
  }
  return s;
}

const r2 = (v: number): number => Math.round(v * 100) / 100;

/** Compares the hypothesis's path with the loop's, utterance by utterance (the same audio splits the same way). */
export function verify(said: readonly BtUtterance[], loop: readonly BtUtterance[]): Verification | null {
  if (said.length === 0 || said.length !== loop.length) return null;
  let frames = 0;
  let diff = 0;
  let allFrames = 0;
  let allDiff = 0;
  const words: WordFit[] = [];
  const gaps: WordFit[] = [];
  said.forEach((u, k) => {
    const l = loop[k];
    if (!l) return;
    for (const w of u.words) {
      const n = w.end - w.start + 1;
      const d = w.ascr - loopScore(l, w.start, w.end);
      allFrames += n;
      allDiff += d;
      if (isFiller(w.word) || w.word === '<s>' || w.word === '</s>') {
        gaps.push({ word: w.word, frames: n, margin: r2(d / n) });
        continue;
      }
      frames += n;
      diff += d;
      words.push({ word: w.word.replace(/\(\d+\)$/, ''), frames: n, margin: r2(d / n) });
    }
  });
  if (frames === 0) return null;
  return { frames, speech: r2(diff / frames), utterance: r2(allDiff / Math.max(1, allFrames)), words, gaps };
}
