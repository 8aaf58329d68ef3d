// Where a process's resident anonymous memory is, by mapping (/proc/PID/smaps): a snapshot, and what grew between
// two snapshots, in the kinds that tell the server's memory apart: WebAssembly memories (PGlite's: V8 reserves each
// one with guard regions, over 4 GiB of address space), the main thread's C heap ([heap]) and the rest (V8's heap
// spaces, other threads' malloc arenas, buffers). Linux only; the server bench's idle-memory part reports it.

import { readFileSync } from 'node:fs';

export type Mapping = { start: string; sizeKiB: number; name: string; anonKiB: number };
export type MemoryKind = 'wasm' | 'c_heap' | 'other_anon';
export type Growth = Record<MemoryKind, number>;

/** Mappings of 4 GiB or more of address space are WebAssembly memories (V8 reserves 8-10 GiB with guard pages). */
const WASM_RESERVATION_KIB = 4 * 1024 * 1024;

export function parseSmaps(text: string): Mapping[] {
  const out: Mapping[] = [];
  let cur: Mapping | null = null;
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const [, start = '0', end = '0', name = ''] = head;
      cur = { start, sizeKiB: Number((BigInt(`0x${end}`) - BigInt(`0x${start}`)) / 1024n), name: name.trim(), anonKiB: 0 };
      out.push(cur);
      continue;
    }
    const anon = /^Anonymous:\s+(\d+) kB/.exec(line);
    if (anon && cur) cur.anonKiB = Number(anon[1]);
  }
  return out;
}

export function readSmaps(pid: number): Mapping[] {
  return parseSmaps(readFileSync(`/proc/${pid}/smaps`, 'utf8'));
}

export function kindOf(m: Mapping): MemoryKind {
  if (m.sizeKiB >= WASM_RESERVATION_KIB) return 'wasm';
  if (m.name === '[heap]') return 'c_heap';
  return 'other_anon';
}

/** Each mapping of `after` with the anonymous KiB it gained since `before` (matched on start address; new ones whole). */
function deltas(before: readonly Mapping[], after: readonly Mapping[]): { m: Mapping; d: number }[] {
  const was = new Map(before.map((m) => [m.start, m.anonKiB]));
  return after.map((m) => ({ m, d: m.anonKiB - (was.get(m.start) ?? 0) }));
}

/** Anonymous KiB gained (or lost) by kind from `before` to `after`, mappings gone since `before` included. */
export function growth(before: readonly Mapping[], after: readonly Mapping[]): Growth {
  const g: Growth = { wasm: 0, c_heap: 0, other_anon: 0 };
  for (const { m, d } of deltas(before, after)) g[kindOf(m)] += d;
  const now = new Set(after.map((m) => m.start));
  for (const m of before) if (!now.has(m.start)) g[kindOf(m)] -= m.anonKiB;
  return g;
}

/** The `n` mappings that gained the most anonymous KiB, as 'size name: +KiB'. */
export function topGrowers(before: readonly Mapping[], after: readonly Mapping[], n = 5): string[] {
  return deltas(before, after)
    .filter((x) => x.d > 0)
    .sort((a, b) => b.d - a.d)
    .slice(0, n)
    .map(({ m, d }) => `${m.sizeKiB} KiB ${m.name || 'anon'}: +${d} KiB`);
}

/** Anonymous KiB gained by the mappings of `after`, summed by name or else size (KiB): what `growth` calls other_anon. */
export function growthBySize(before: readonly Mapping[], after: readonly Mapping[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const { m, d } of deltas(before, after)) {
    if (d === 0) continue;
    const key = m.name || String(m.sizeKiB);
    out[key] = (out[key] ?? 0) + d;
  }
  return out;
}
