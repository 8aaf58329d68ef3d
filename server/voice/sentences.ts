// Splits a character's line into sentences so the first one can be spoken while the rest are still being made.

const ABBREVIATIONS = new Set(['mr', 'mrs', 'ms', 'dr', 'st', 'mt', 'm', 'mme', 'mlle', 'messrs', 'prof', 'sr', 'jr', 'vs', 'etc', 'no', 'p']);
/** Sentences are cut near this length at a comma or semicolon, so no single chunk takes long to make. */
const MAX_CHARS = 220;

export function splitSentences(text: string): string[] {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean === '') return [];
  const out: string[] = [];
  // A sentence ends with . ! ? … (possibly repeated, possibly followed by closing quotes, the French » after a space)
  // and then a space.
  const re = /[.!?…]+(?: ?»)?["'»”’)]*(?=\s|$)/g;
  let start = 0;
  for (let m = re.exec(clean); m; m = re.exec(clean)) {
    const end = m.index + m[0].length;
    const before = clean.slice(start, m.index).split(/\s+/).pop()?.toLowerCase() ?? '';
    if (m[0] === '.' && (ABBREVIATIONS.has(before) || /^[a-z]$/i.test(before))) continue;
    out.push(clean.slice(start, end).trim());
    start = end;
  }
  if (start < clean.length) out.push(clean.slice(start).trim());
  return mergeShort(out.flatMap(splitLong).filter((s) => /[\p{L}\p{N}]/u.test(s)));
}

/**
 * The chunks eSpeak speaks a line in: its sentences, the first cut at its first clause boundary when at least three
 * words come before it and two after. The first chunk is what the player waits for (its MP3 encoding costs ~37 ms per
 * second of speech here): "Always at high tide, | near midnight." starts playing after about half the work. (HTTP
 * providers get whole sentences: there a request's round trip costs more than the audio's length.)
 */
export function speechChunks(text: string): string[] {
  return splitFirstClause(splitSentences(text));
}

function splitFirstClause(sentences: string[]): string[] {
  const [first, ...rest] = sentences;
  if (first === undefined) return sentences;
  const m = /^(\S+(?:\s+\S+){2,}?[,;:])\s+(\S+(?:\s+\S+)+)$/u.exec(first);
  if (!m?.[1] || !m[2]) return sentences;
  return [m[1], m[2], ...rest];
}

function splitLong(sentence: string): string[] {
  if (sentence.length <= MAX_CHARS) return [sentence];
  const parts: string[] = [];
  let rest = sentence;
  while (rest.length > MAX_CHARS) {
    const window = rest.slice(0, MAX_CHARS);
    const cut = Math.max(window.lastIndexOf('; '), window.lastIndexOf(', '), window.lastIndexOf(' — '));
    const at = cut > MAX_CHARS / 3 ? cut + 1 : Math.max(window.lastIndexOf(' '), MAX_CHARS / 2);
    parts.push(rest.slice(0, at).trim());
    rest = rest.slice(at).trim();
  }
  if (rest) parts.push(rest);
  return parts;
}

/** "Oh! Yes." is better spoken in one go than as two tiny chunks. */
function mergeShort(sentences: string[]): string[] {
  const out: string[] = [];
  for (const s of sentences) {
    const prev = out[out.length - 1];
    if (prev !== undefined && (prev.length < 12 || s.length < 6) && prev.length + s.length < MAX_CHARS) out[out.length - 1] = `${prev} ${s}`;
    else out.push(s);
  }
  return out;
}
