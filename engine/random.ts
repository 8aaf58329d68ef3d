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
    const b: number[] = [];
    for (let i = 0; i < 4; i++) {
      const v = (this.nextUint32() ^ (salt?.[i] ?? 0)) >>> 0;
      b.push(v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255);
    }
    b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
    b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
    const h = b.map((x) => HEX[x] as string).join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
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
