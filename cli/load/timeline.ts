// What a virtual player went through, so that a stall explains itself: each player keeps its recent events (sends,
// answers, socket closes, reconnect attempts and their delays), and a wait over the stall threshold carries the
// events of that wait, its input id (for the server's stage timings of that turn, looked up at the end) and the
// server restarts that overlapped it.

/** One event of a player, at `at_s` seconds since the load started. */
export type PlayerEvent = { at_s: number; what: string };

/** A stall: a wait of one player over the threshold, with what happened during it. */
export type Stall = {
  player: number;
  what: string;
  waited_ms: number;
  /** When the wait ended (seconds since the load started). */
  at_s: number;
  /** The turn's input id (turns only). */
  input_id?: string;
  /** The player's events during the wait (at most 40, the first and last kept). */
  timeline?: PlayerEvent[];
  /** The server's stage timings of the turn that answered (from its transcript line), when there is one. */
  server_stages?: Record<string, number>;
};

const KEEP = 200;
const SHOWN = 40;

/** A player's recent events. */
export class PlayerLog {
  readonly #events: PlayerEvent[] = [];
  /** The repeated event the last one stands for: its key, count and first time. */
  #repeat: { key: string; count: number; from_s: number } | null = null;

  constructor(readonly clock: () => number) {}

  add(what: string): void {
    this.#repeat = null;
    this.#push({ at_s: round1(this.clock()), what });
  }

  /**
   * An event that repeats (a failed connection attempt while the server is down): a run of them with the same key is
   * one line, "<what> (n times from <first> s)", so that a long outage does not push out what came before and after.
   */
  again(key: string, what: string): void {
    const at = round1(this.clock());
    const last = this.#events.at(-1);
    if (this.#repeat?.key === key && last) {
      this.#repeat.count++;
      last.at_s = at;
      last.what = `${what} (${this.#repeat.count} times from ${this.#repeat.from_s} s)`;
      return;
    }
    this.#repeat = { key, count: 1, from_s: at };
    this.#push({ at_s: at, what });
  }

  #push(e: PlayerEvent): void {
    this.#events.push(e);
    if (this.#events.length > KEEP) this.#events.splice(0, this.#events.length - KEEP);
  }

  /** The events since `fromS` (seconds since the load started), at most SHOWN: the first and last halves. */
  since(fromS: number): PlayerEvent[] {
    // Copies: the last event of a run of repeats changes in place as the run goes on.
    const all = this.#events.filter((e) => e.at_s >= round1(fromS) - 0.05).map((e) => ({ ...e }));
    if (all.length <= SHOWN) return all;
    return [...all.slice(0, SHOWN / 2), { at_s: all[SHOWN / 2]?.at_s ?? 0, what: `... ${all.length - SHOWN} more ...` }, ...all.slice(-SHOWN / 2)];
  }
}

function round1(s: number): number {
  return Math.round(s * 10) / 10;
}

/** One line per event for the text report, the server's stages last. */
export function formatStall(x: Stall, restarts: { at_s: number; down_ms: number }[] = []): string[] {
  const from = x.at_s - x.waited_ms / 1000;
  const overlapping = restarts.filter((r) => r.at_s <= x.at_s && r.at_s + r.down_ms / 1000 >= from);
  const lines = [`  player ${x.player} waited ${round1(x.waited_ms / 1000)} s for ${x.what} at ${x.at_s} s (from ${round1(from)} s)`];
  for (const r of overlapping) lines.push(`      server killed at ${r.at_s} s, serving again at ${round1(r.at_s + r.down_ms / 1000)} s`);
  for (const e of x.timeline ?? []) lines.push(`      ${e.at_s} s ${e.what}`);
  if (x.server_stages) lines.push(`      server stages (ms): ${Object.entries(x.server_stages).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  return lines;
}
