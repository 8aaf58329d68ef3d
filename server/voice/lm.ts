// A small n-gram language model in the ARPA format, built from a few hundred sentences: what pocketsphinx listens with
// when players may put what matters in their own words. Absolute discounting with back-off (D = 0.5), trigrams at
// most; every word of the sentences is in the model, so any word can follow any other at a cost, and the sentences'
// own word orders are cheap.

export type LmOptions = { order?: 2 | 3; discount?: number };

const log10 = (x: number): number => Math.log10(x);
const fmt = (x: number): string => (Number.isFinite(x) ? x.toFixed(4) : '-99.0000');

/** `sentences` as word lists (already normalised: lower case, one word per dictionary entry). */
export function buildArpa(sentences: readonly (readonly string[])[], opts: LmOptions = {}): string {
  const order = opts.order ?? 3;
  const D = opts.discount ?? 0.5;
  const counts: Map<string, number>[] = [new Map<string, number>(), new Map<string, number>(), new Map<string, number>()];
  const bump = (n: number, key: string, by = 1): void => {
    const m = counts[n - 1];
    if (m) m.set(key, (m.get(key) ?? 0) + by);
  };
  for (const s of sentences) {
    const w = ['<s>', ...s, '</s>'];
    for (let i = 0; i < w.length; i++) {
      bump(1, w[i] ?? '');
      if (i >= 1) bump(2, `${w[i - 1] ?? ''} ${w[i] ?? ''}`);
      if (order >= 3 && i >= 2) bump(3, `${w[i - 2] ?? ''} ${w[i - 1] ?? ''} ${w[i] ?? ''}`);
    }
  }
  const uni = counts[0] ?? new Map<string, number>();
  const bi = counts[1] ?? new Map<string, number>();
  const tri = counts[2] ?? new Map<string, number>();
  const vocab = [...uni.keys()].sort();
  const tokens = [...uni.entries()].filter(([w]) => w !== '<s>').reduce((n, [, c]) => n + c, 0);
  const V = vocab.length - 1;
  // Unigrams: add-one, so every word is possible anywhere.
  const pUni = new Map<string, number>();
  for (const w of vocab) pUni.set(w, w === '<s>' ? 0 : ((uni.get(w) ?? 0) + 1) / (tokens + V));

  // Contexts of higher orders: their total count and how many distinct words followed.
  const ctx = (m: Map<string, number>): Map<string, { total: number; types: number; seen: string[] }> => {
    const out = new Map<string, { total: number; types: number; seen: string[] }>();
    for (const [k, c] of m) {
      const parts = k.split(' ');
      const h = parts.slice(0, -1).join(' ');
      const e = out.get(h) ?? { total: 0, types: 0, seen: [] };
      e.total += c;
      e.types++;
      e.seen.push(parts[parts.length - 1] ?? '');
      out.set(h, e);
    }
    return out;
  };
  const biCtx = ctx(bi);
  const triCtx = ctx(tri);
  const pBi = new Map<string, number>();
  for (const [k, c] of bi) {
    const [u = ''] = k.split(' ');
    const e = biCtx.get(u);
    if (e) pBi.set(k, (c - D) / e.total);
  }
  const bowUni = new Map<string, number>();
  for (const [u, e] of biCtx) {
    const left = (D * e.types) / e.total;
    const lower = e.seen.reduce((n, w) => n + (pUni.get(w) ?? 0), 0);
    bowUni.set(u, left / Math.max(1e-9, 1 - lower));
  }
  // The back-off probability of w after u (bigram level).
  const biProb = (u: string, w: string): number => pBi.get(`${u} ${w}`) ?? (bowUni.get(u) ?? 1) * (pUni.get(w) ?? 0);
  const pTri = new Map<string, number>();
  for (const [k, c] of tri) {
    const parts = k.split(' ');
    const h = parts.slice(0, 2).join(' ');
    const e = triCtx.get(h);
    if (e) pTri.set(k, (c - D) / e.total);
  }
  const bowBi = new Map<string, number>();
  for (const [h, e] of triCtx) {
    const [, v = ''] = h.split(' ');
    const left = (D * e.types) / e.total;
    const lower = e.seen.reduce((n, w) => n + biProb(v, w), 0);
    bowBi.set(h, left / Math.max(1e-9, 1 - lower));
  }

  const lines: string[] = ['\\data\\', `ngram 1=${vocab.length}`, `ngram 2=${bi.size}`];
  if (order >= 3) lines.push(`ngram 3=${tri.size}`);
  lines.push('', '\\1-grams:');
  for (const w of vocab) {
    const p = w === '<s>' ? -99 : log10(pUni.get(w) ?? 1e-9);
    const b = bowUni.get(w);
    lines.push(`${fmt(p)} ${w}${b !== undefined && w !== '</s>' ? ` ${fmt(log10(b))}` : ''}`);
  }
  lines.push('', '\\2-grams:');
  for (const k of [...bi.keys()].sort()) {
    const b = order >= 3 ? bowBi.get(k) : undefined;
    lines.push(`${fmt(log10(pBi.get(k) ?? 1e-9))} ${k}${b !== undefined ? ` ${fmt(log10(b))}` : ''}`);
  }
  if (order >= 3) {
    lines.push('', '\\3-grams:');
    for (const k of [...tri.keys()].sort()) lines.push(`${fmt(log10(pTri.get(k) ?? 1e-9))} ${k}`);
  }
  lines.push('', '\\end\\', '');
  return lines.join('\n');
}

/** How likely a model finds a word sequence: the mean log10 probability per word of `<s> words </s>` under an ARPA
 *  model's text (back-off as the format defines it; a word the model lacks scores -99). Not how well the words fit
 *  the audio (verify.ts): whether they are speech the stage's model knows, or words strung together for want of any
 *  ("so the i what gone" for "Honey, I'm on a call"). */
export function arpaScorer(arpa: string): (words: readonly string[]) => number {
  const logp = new Map<string, number>();
  const backoff = new Map<string, number>();
  let n = 0;
  for (const line of arpa.split('\n')) {
    const section = /^\\(\d)-grams:$/.exec(line);
    if (section) {
      n = Number(section[1]);
      continue;
    }
    if (n === 0 || line === '' || line.startsWith('\\')) continue;
    const parts = line.split(' ');
    const gram = parts.slice(1, 1 + n).join(' ');
    logp.set(gram, Number(parts[0]));
    if (parts.length > 1 + n) backoff.set(gram, Number(parts[1 + n]));
  }
  const prob = (ws: readonly string[]): number => {
    const p = logp.get(ws.join(' '));
    if (p !== undefined) return p;
    if (ws.length <= 1) return -99;
    return (backoff.get(ws.slice(0, -1).join(' ')) ?? 0) + prob(ws.slice(1));
  };
  return (words) => {
    const w = ['<s>', ...words, '</s>'];
    let sum = 0;
    for (let i = 1; i < w.length; i++) sum += prob(w.slice(Math.max(0, i - 2), i + 1));
    return sum / (w.length - 1);
  };
}
