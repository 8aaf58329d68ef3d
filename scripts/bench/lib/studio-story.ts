// A generated story for the studio's bench and tests: lantern-keeper with `moments` moments in all and about
// `transitions` transitions, branching forward (a few loops back), so the flow graph has the shape of a big branching
// story rather than a chain. Seeded: the same arguments give the same story.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Json = Record<string, unknown>;

/** A small seeded generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A version-4 UUID from the generator. */
function uuid(r: () => number): string {
  const h = Array.from({ length: 32 }, () => Math.floor(r() * 16).toString(16));
  h[12] = '4';
  h[16] = ((Math.floor(r() * 4)) + 8).toString(16);
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

export function branchingStory(moments: number, transitions: number, seed = 7): Json {
  const doc = JSON.parse(readFileSync(join(import.meta.dirname, '../../../fixtures/stories/lantern-keeper/story.json'), 'utf8')) as Json;
  const own = doc.moments as Json[];
  const first = own.find((m) => m.id === doc.first_moment_id) as Json;
  const r = rng(seed);
  const n = Math.max(0, moments - own.length);
  const ids = Array.from({ length: n }, () => uuid(r));
  // Every generated moment leads on to the next (the last to the fixture's first moment); the rest of the budget
  // goes to extra branches a little further on, and one in twenty back to an earlier moment.
  const targets: string[][] = ids.map((_, i) => [ids[i + 1] ?? String(doc.first_moment_id)]);
  let count = n;
  for (let k = 0; count < transitions && n > 1 && k < transitions * 4; k++) {
    const i = Math.floor(r() * n);
    const back = r() < 0.05;
    const j = back ? Math.max(0, i - 1 - Math.floor(r() * 20)) : i + 2 + Math.floor(r() * 30);
    const to = ids[j] ?? String(doc.first_moment_id);
    const list = targets[i] as string[];
    if (list.includes(to)) continue;
    list.push(to);
    count++;
  }
  const made: Json[] = ids.map((id, i) => ({
    ...first,
    id,
    name: { en: `Fog, part ${i + 1}`, fr: `Brume, partie ${i + 1}` },
    transitions: (targets[i] as string[]).map((to, b) => (b === 0 ? { next_moment_id: to } : { next_moment_id: to, label: { en: `Way ${b}`, fr: `Chemin ${b}` } })),
  }));
  return { ...doc, first_moment_id: ids[0] ?? doc.first_moment_id, moments: [...made, ...own] };
}
