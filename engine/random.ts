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


/** Char codes of the hex digits 0-f. */
const HEX_CODES: readonly number[] = Array.from('0123456789abcdef', (ch) => ch.charCodeAt(0));
/** The char code of the hex digit of bits `shift`..`shift + 3` of `w`. */
function hx(w: number, shift: number): number {
  return HEX_CODES[(w >>> shift) & 15] as number;
}

export class SeededRandom implements Random {
  /** Kept as int32 (the same bits as the uint32 state): values above 2^31 would otherwise be doubles. */
  #s: number;

  constructor(seed: number) {
    this.#s = seed | 0;
  }

  get state(): number {
    return this.#s >>> 0;
  }

  nextUint32(): number {
    this.#s = (this.#s + 0x6d2b79f5) | 0;
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
    // One flat string, made in one call with the 36 codes as arguments (about 3x faster than from an array with apply).
    // Joined from pieces (+ or a template) it would be a rope, and V8 compares ropes by walking their pieces on every
    // ===: ids are compared all the time (rows found by id), so that cost ~1 us per compare.
    return String.fromCharCode(
      hx(w0, 28), hx(w0, 24), hx(w0, 20), hx(w0, 16), hx(w0, 12), hx(w0, 8), hx(w0, 4), hx(w0, 0), 45,
      hx(w1, 28), hx(w1, 24), hx(w1, 20), hx(w1, 16), 45,
      hx(w1, 12), hx(w1, 8), hx(w1, 4), hx(w1, 0), 45,
      hx(w2, 28), hx(w2, 24), hx(w2, 20), hx(w2, 16), 45,
      hx(w2, 12), hx(w2, 8), hx(w2, 4), hx(w2, 0),
      hx(w3, 28), hx(w3, 24), hx(w3, 20), hx(w3, 16), hx(w3, 12), hx(w3, 8), hx(w3, 4), hx(w3, 0),
    );
  }
}

/** Derives a 32-bit seed from any string (FNV-1a), e.g. to seed the brain per input id. */
export function hashSeed(text: string, salt = 0): number {
  // int32 arithmetic: the same bits as `>>> 0` after each step, without uint32 values carried as doubles.
  let h = (0x811c9dc5 ^ salt) | 0;
  const n = text.length;
  for (let i = 0; i < n; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
