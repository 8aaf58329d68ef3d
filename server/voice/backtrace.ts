// pocketsphinx's `-backtrace yes` log: for each utterance, the hypothesis, its path score and a table of the words on
// the best path with their frames (10 ms, relative to the utterance) and acoustic and language scores. What the
// verification of a hypothesis (verify.ts) compares with a free phone-loop decode of the same audio.
//
//   INFO: pocketsphinx.c(1168): down to the tide caves (-10730)
//   word                 start end   pprob ascr       lscr       lback
//   <sil>                0     51    1.000 -1212      -337       1
//   down                 52    70    1.000 -1902      0          1

export type BtWord = { word: string; start: number; end: number; ascr: number; lscr: number };
export type BtUtterance = { hyp: string; score: number; words: BtWord[]; cmn?: number[] };

// The live feature normalisation's mean after an utterance (its own cepstral mean): `cmn_live.c(138): Update to < ... >`.
const CMN = /cmn_live\.c\(\d+\): Update to\s+<([-\d.\s]+)>/;
const HEAD = /^INFO: pocketsphinx\.c\(\d+\): (.*) \((-?\d+)\)$/;
// A grammar's path may begin with a null transition, listed as `(NULL) -1 -1 ...`: read, then left out.
const ROW = /^(\S+)\s+(-?\d+)\s+(-?\d+)\s+(-?[\d.]+)\s+(-?\d+)\s+(-?\d+)\s+(-?\d+)\s*$/;

export function parseBacktrace(log: string): BtUtterance[] {
  const lines = log.split('\n');
  const out: BtUtterance[] = [];
  let cmn: number[] | null = null;
  for (let i = 0; i < lines.length; i++) {
    const c = CMN.exec(lines[i] ?? '');
    if (c) {
      // The first utterance's (later ones repeat or follow it); printed before the utterance's hypothesis.
      cmn ??= (c[1] ?? '').trim().split(/\s+/).map(Number);
      continue;
    }
    const m = HEAD.exec(lines[i] ?? '');
    if (!m || !(lines[i + 1] ?? '').startsWith('word ')) continue;
    const u: BtUtterance = { hyp: (m[1] ?? '').trim(), score: Number(m[2]), words: [], ...(cmn && out.length === 0 ? { cmn } : {}) };
    for (let j = i + 2; j < lines.length; j++) {
      const r = ROW.exec(lines[j] ?? '');
      if (!r) break;
      i = j;
      if (Number(r[2]) < 0 || r[1] === '(NULL)') continue;
      u.words.push({ word: r[1] ?? '', start: Number(r[2]), end: Number(r[3]), ascr: Number(r[5]), lscr: Number(r[6]) });
    }
    out.push(u);
  }
  // No hypothesis (the normalisation pass's grammar, cmn.ts): the mean alone.
  if (out.length === 0 && cmn) out.push({ hyp: '', score: 0, words: [], cmn });
  return out;
}

/** Fillers and silences on a path (<sil>, [NOISE], ++BREATH++...): not words of the sentence. */
export function isFiller(word: string): boolean {
  return /^[<[+]/.test(word);
}
