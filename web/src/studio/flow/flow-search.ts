// The flow graph's search: the moments whose words match, in list order. It reads every text a moment holds in both
// languages (name, opening, goal, hint, replies, labels), the sentences players can say and the answers' and branches'
// phrases; not ids, dates, types, urls or other settings.
import type { Json } from '../../../../engine/authoring/apply.js';
import { momentsOf } from './flow-model.js';

/** Keys whose strings are settings, not words. */
const NOT_WORDS = new Set(['id', 'type', 'date', 'url', 'kind', 'emotion', 'default_emotion', 'goal_type', 'outcome', 'position', 'facts']);

function collect(x: unknown, key: string, out: string[]): void {
  if (NOT_WORDS.has(key) || key.endsWith('_id')) return;
  if (typeof x === 'string') out.push(x);
  else if (Array.isArray(x)) for (const v of x) collect(v, key, out);
  else if (typeof x === 'object' && x !== null) for (const [k, v] of Object.entries(x)) collect(v, k, out);
}

/** Lower case without accents, so "cafe" finds "Café". */
export const fold = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** Every searchable text of a moment, folded and joined. */
export function momentWords(m: Json): string {
  const out: string[] = [];
  for (const [k, v] of Object.entries(m)) collect(v, k, out);
  return fold(out.join('\n'));
}

/** Ids of the moments holding the query, as a phrase, case and accents aside (empty query: none). */
export function searchMoments(doc: Json, query: string, words: (m: Json) => string = momentWords): string[] {
  const q = fold(query).replace(/\s+/g, ' ').trim();
  if (q === '') return [];
  return momentsOf(doc).filter((m) => words(m).replace(/\s+/g, ' ').includes(q)).map((m) => String(m.id));
}
