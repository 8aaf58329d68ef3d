// The characters' voices (AUDIO_ANSWER chunks, MP3): played one after another through an installed player, and/or
// saved with --save-audio DIR as one .mp3 per chunk named by turn, input and sequence.
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { AudioChunk } from '../../engine/client/api/socket.js';

export type PlayerName = 'mpg123' | 'ffplay' | 'afplay' | 'aplay';
export const PLAYERS: readonly PlayerName[] = ['mpg123', 'ffplay', 'afplay', 'aplay'];

/** An executable on PATH, found without running anything. */
export function findExecutable(name: string, path = process.env.PATH ?? ''): string | null {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

export function detectPlayer(path?: string): PlayerName | null {
  return PLAYERS.find((p) => findExecutable(p, path) !== null) ?? null;
}

/** mpg123 and ffplay read MP3 on stdin; afplay needs a file; aplay plays WAV, decoded here. */
async function spawnPlayer(player: PlayerName, mp3: Uint8Array, tmp: () => string): Promise<ChildProcess> {
  switch (player) {
    case 'mpg123': return pipe(spawn('mpg123', ['-q', '-'], { stdio: ['pipe', 'ignore', 'ignore'] }), mp3);
    case 'ffplay': return pipe(spawn('ffplay', ['-nodisp', '-autoexit', '-loglevel', 'quiet', '-i', '-'], { stdio: ['pipe', 'ignore', 'ignore'] }), mp3);
    case 'afplay': {
      const file = join(tmp(), `chunk-${Date.now()}.mp3`);
      writeFileSync(file, mp3);
      return spawn('afplay', [file], { stdio: 'ignore' });
    }
    case 'aplay': {
      // Loaded only here: the MP3 decoder is WASM, and most players take MP3 themselves.
      const [{ decodeMp3 }, { encodeWav }] = await Promise.all([import('../../server/voice/mp3.js'), import('../../server/voice/wav.js')]);
      const r = await decodeMp3(mp3);
      if (!r.ok) throw new Error(r.message);
      const mono = r.audio.channels[0] ?? new Float32Array();
      const pcm = Int16Array.from(mono, (v) => Math.max(-32768, Math.min(32767, Math.round(v * 32767))));
      return pipe(spawn('aplay', ['-q', '-'], { stdio: ['pipe', 'ignore', 'ignore'] }), encodeWav(pcm, r.audio.sampleRate));
    }
  }
}

function pipe(child: ChildProcess, bytes: Uint8Array): ChildProcess {
  child.stdin?.on('error', () => undefined); // the player may exit before reading everything
  child.stdin?.end(bytes);
  return child;
}

export type AudioOutOptions = {
  player: PlayerName | null;
  saveDir: string | null;
  /** Turn number of an input, for file names. */
  turnOf: (inputId: string) => number;
  warn: (message: string) => void;
  /** Said once, at the first chunk, when audio is neither played nor saved. */
  unplayedNote: string | null;
};

/**
 * Plays what the game's voice loop (engine/client/voice-loop.ts, run by the controller) tells it to: `accept` keeps a
 * chunk under an id for the loop to queue, `run` carries out the loop's play, stop and discard effects, and
 * `onEnded` reports an id played to its end. Skipping, the queue and discarding while recording are the loop's rules.
 */
export class AudioOut {
  #stored = new Map<string, Uint8Array>();
  #current: { id: string; child: ChildProcess } | null = null;
  #player: PlayerName | null;
  #seq = new Map<string, number>();
  #lastActivity = 0;
  #tmp: string | null = null;
  #idle: (() => void)[] = [];
  #unplayed: string | null;
  #next = 0;
  saved = 0;
  onEnded: ((id: string) => void) | null = null;

  constructor(readonly opts: AudioOutOptions) {
    this.#player = opts.player;
    this.#unplayed = opts.unplayedNote;
    if (opts.saveDir) mkdirSync(opts.saveDir, { recursive: true });
  }

  /** Audio playing or waiting to be played (or discarded). */
  get busy(): boolean {
    return this.#current !== null || this.#stored.size > 0;
  }

  /** A turn was answered: its audio is on its way. */
  noteTurn(): void {
    this.#lastActivity = performance.now();
  }

  /** Saves a chunk when asked to; returns the id to hand to the voice loop, or null when audio is not played. */
  accept(chunk: AudioChunk): string | null {
    this.#lastActivity = performance.now();
    const inputId = chunk.header.input_id;
    const seq = (this.#seq.get(inputId) ?? 0) + 1;
    this.#seq.set(inputId, seq);
    if (this.#unplayed) {
      this.opts.warn(this.#unplayed);
      this.#unplayed = null;
    }
    if (this.opts.saveDir) {
      const name = `turn-${String(this.opts.turnOf(inputId)).padStart(3, '0')}-${inputId.slice(0, 8)}-${String(seq).padStart(2, '0')}.mp3`;
      writeFileSync(join(this.opts.saveDir, name), chunk.audio);
      this.saved++;
    }
    if (!this.#player) return null;
    const id = `a${++this.#next}`;
    this.#stored.set(id, chunk.audio);
    return id;
  }

  /** Carries out one of the voice loop's effects (others are ignored). */
  run(effect: { readonly type: string; readonly audio?: { readonly id: string }; readonly ids?: readonly string[] }): void {
    switch (effect.type) {
      case 'play_audio':
        if (effect.audio) void this.#play(effect.audio.id);
        return;
      case 'stop_audio':
        this.#current?.child.kill();
        return;
      case 'discard_audio':
        for (const id of effect.ids ?? []) this.#stored.delete(id);
        this.#settleIdle();
    }
  }

  async #play(id: string): Promise<void> {
    const mp3 = this.#stored.get(id);
    this.#stored.delete(id);
    if (!mp3 || !this.#player) {
      this.onEnded?.(id);
      this.#settleIdle();
      return;
    }
    try {
      const child = await spawnPlayer(this.#player, mp3, () => (this.#tmp ??= mkdtempSync(join(tmpdir(), 'looptale-audio-'))));
      this.#current = { id, child };
      await new Promise<void>((resolve) => {
        child.once('error', (e) => {
          this.opts.warn(`audio playback failed (${this.#player ?? ''}): ${e.message}; audio is no longer played`);
          this.#player = null;
          resolve();
        });
        child.once('close', () => resolve());
      });
    } catch (e) {
      this.opts.warn(`audio playback failed: ${(e as Error).message}`);
    }
    if (this.#current?.id === id) this.#current = null;
    this.onEnded?.(id);
    this.#settleIdle();
  }

  #settleIdle(): void {
    if (!this.busy) for (const f of this.#idle.splice(0)) f();
  }

  /**
   * Waits until the last chunks have come and been played: audio follows the GAME_OUTPUT it belongs to, so after the
   * last turn it may still be on its way. `quietMs` without a new chunk (since the last turn) counts as the end.
   */
  async drain(quietMs: number): Promise<void> {
    if (!this.#player && !this.opts.saveDir) return;
    for (;;) {
      const wait = this.#lastActivity + quietMs - performance.now();
      if (wait <= 0) break;
      await new Promise((r) => setTimeout(r, wait));
    }
    if (this.busy) await new Promise<void>((r) => this.#idle.push(r));
  }

  close(): void {
    this.#stored.clear();
    this.#current?.child.kill();
    if (this.#tmp) rmSync(this.#tmp, { recursive: true, force: true });
    this.#settleIdle();
  }
}
