// A seeded pseudo-random source (mulberry32) whose whole state is one uint32, so it saves to JSON with the game
// state and replays identically. The engine never calls Math.random().

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, maxExclusive). */
  int(maxExclusive: number): number;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** A version-4 UUID drawn from this source. */
  uuid(): string;
  /** The current state, to store back after use. */
  readonly state: number;
}


const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** A 32-bit word as 8 hex digits (a byte table: Number#toString(16) is several times slower). */
function hex8(v: number): string {
  return (HEX[v >>> 24] as string) + (HEX[(v >>> 16) & 255] as string) + (HEX[(v >>> 8) & 255] as string) + (HEX[v & 255] as string);
}

export class SeededRandom implements Random {
  #s: number;

  constructor(seed: number) {
    this.#s = seed >>> 0;
  }

  get state(): number {
    return this.#s;
  }

  nextUint32(): number {
    this.#s = (this.#s + 0x6d2b79f5) >>> 0;
    let t = this.#s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  next(): number {
    return this.nextUint32() / 4294967296;
  }

  int(maxExclusive: number): number {
    if (maxExclusive <= 1) return 0;
    return Math.floor(this.next() * maxExclusive);
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick() on an empty array');
    return items[this.int(items.length)] as T;
  }

  /**
   * `salt` (four uint32) is mixed into the 122 random bits: the engine salts with its user and story, so two states
   * that happen to share a 32-bit seed still never produce the same row ids.
   */
  uuid(salt?: readonly number[]): string {
    // Four words, big-endian bytes, version and variant nibbles set: written straight to hex (the hot path of a run).
    const w0 = (this.nextUint32() ^ (salt?.[0] ?? 0)) >>> 0;
    const w1 = (((this.nextUint32() ^ (salt?.[1] ?? 0)) >>> 0) & 0xffff0fff | 0x4000) >>> 0;
    const w2 = (((this.nextUint32() ^ (salt?.[2] ?? 0)) >>> 0) & 0x3fffffff | 0x80000000) >>> 0;
    const w3 = (this.nextUint32() ^ (salt?.[3] ?? 0)) >>> 0;
    const b = hex8(w1);
    const c = hex8(w2);
    return `${hex8(w0)}-${b.slice(0, 4)}-${b.slice(4)}-${c.slice(0, 4)}-${c.slice(4)}${hex8(w3)}`;
  }
}

/** Derives a 32-bit seed from any string (FNV-1a), e.g. to seed the brain per input id. */
export function hashSeed(text: string, salt = 0): number {
  let h = (0x811c9dc5 ^ salt) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
