// --mic: records one answer from the default input through an installed recorder (arecord, or sox's rec) as raw
// 16 kHz 16-bit mono PCM, and stops on the game's silence rule (engine/client/silence.ts: RMS < 0.01 on 4096-sample
// blocks, more than 3000 ms of it stops; only non-silent blocks are kept).
import { spawn } from 'node:child_process';
import { INITIAL_SILENCE, observeBlock, SILENCE_BLOCK_SAMPLES } from '../../engine/client/silence.js';
import { CliError } from '../lib/story-file.js';
import { findExecutable } from './audio-out.js';

export type RecorderName = 'arecord' | 'rec';
export const MIC_SAMPLE_RATE = 16000;
export const MIC_INSTALL_HINT = '--mic needs a recorder: install sox (rec) or alsa-utils (arecord), e.g. `sudo apt-get install sox` or `brew install sox`.';

export function detectRecorder(path?: string): RecorderName | null {
  if (findExecutable('arecord', path)) return 'arecord';
  if (findExecutable('rec', path)) return 'rec';
  return null;
}

export function requireRecorder(path?: string): RecorderName {
  const r = detectRecorder(path);
  if (!r) throw new CliError(MIC_INSTALL_HINT, 1);
  return r;
}

function recorderArgs(r: RecorderName): [string, string[]] {
  const rate = String(MIC_SAMPLE_RATE);
  return r === 'arecord'
    ? ['arecord', ['-q', '-t', 'raw', '-f', 'S16_LE', '-r', rate, '-c', '1']]
    : ['rec', ['-q', '-t', 'raw', '-b', '16', '-e', 'signed-integer', '-L', '-c', '1', '-r', rate, '-']];
}

export type Recording = { pcm: Uint8Array; seconds: number };

/** Folds raw PCM bytes through the silence rule: what a recorder hands over, block by block. */
export class SilenceCutter {
  #detector = INITIAL_SILENCE;
  #pending = new Uint8Array(0);
  #kept: Uint8Array[] = [];
  stopped = false;

  /** Feeds bytes; true once the silence rule says stop. */
  feed(bytes: Uint8Array): boolean {
    const all = new Uint8Array(this.#pending.length + bytes.length);
    all.set(this.#pending);
    all.set(bytes, this.#pending.length);
    const blockBytes = SILENCE_BLOCK_SAMPLES * 2;
    let at = 0;
    while (!this.stopped && all.length - at >= blockBytes) {
      const raw = all.subarray(at, at + blockBytes);
      at += blockBytes;
      const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
      const block = Array.from({ length: SILENCE_BLOCK_SAMPLES }, (_, i) => view.getInt16(i * 2, true) / 32768);
      const d = observeBlock(this.#detector, block, MIC_SAMPLE_RATE);
      this.#detector = d.detector;
      if (d.keep) this.#kept.push(raw.slice());
      if (d.stop) this.stopped = true;
    }
    this.#pending = all.slice(at);
    return this.stopped;
  }

  result(): Recording {
    const total = this.#kept.reduce((n, b) => n + b.length, 0);
    const pcm = new Uint8Array(total);
    let at = 0;
    for (const b of this.#kept) {
      pcm.set(b, at);
      at += b.length;
    }
    return { pcm, seconds: total / 2 / MIC_SAMPLE_RATE };
  }
}

/** Records until the silence rule stops it, or `stop()` is called; an empty recording means nothing was heard. */
export function record(recorder: RecorderName): { done: Promise<Recording>; stop: () => void } {
  const [cmd, args] = recorderArgs(recorder);
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const cutter = new SilenceCutter();
  let stderr = '';
  const done = new Promise<Recording>((resolve, reject) => {
    child.stdout.on('data', (b: Buffer) => {
      if (cutter.feed(new Uint8Array(b.buffer, b.byteOffset, b.byteLength))) child.kill();
    });
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.once('error', (e) => reject(new CliError(`Cannot record with ${cmd}: ${e.message}`, 1)));
    child.once('close', (code) => {
      const r = cutter.result();
      if (!cutter.stopped && code !== 0 && code !== null && r.pcm.length === 0) {
        reject(new CliError(`Cannot record with ${cmd} (exit ${code}): ${stderr.trim() || 'no input device?'}`, 1));
      } else resolve(r);
    });
  });
  return { done, stop: () => child.kill() };
}
