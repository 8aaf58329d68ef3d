// One pocketsphinx_continuous run over one utterance's audio, with a grammar and its dictionary, returning every
// utterance's best path with its scores (the `-backtrace yes` log, see backtrace.ts). A fresh process per request: the
// result depends on nothing but the audio and the grammar (a long-lived process adapts its feature normalisation to
// what it heard before, so the same clip can be heard differently a minute later). Starting one costs 25-40 ms with a
// small dictionary; at most `limit` run at once.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseBacktrace, type BtUtterance } from './backtrace.js';

/** Decoder flags for every recognition, and the default beams. Wider beams than the defaults (1e-48): with a grammar of whole sentences the
 *  narrow ones dropped the right sentence before its end. Dither: pocketsphinx's features break on runs of exact
 *  zeros (digital silence around synthetic or trimmed speech): "Down to the tide caves" was heard as "rain" without it
 *  and right with it; the seed keeps the dither, and so the result, the same from run to run. */
export const RECOGNITION_ARGS = ['-dither', 'yes', '-seed', '1'] as const;
export const WIDE_BEAMS = ['-beam', '1e-80', '-wbeam', '1e-60', '-pbeam', '1e-80'] as const;

/** A grammar (JSGF) or, with `lm`, a language model (ARPA), and its dictionary. */
export type DecodeFiles = { gram: string; dict: string };

export class DecodeLimiter {
  #running = 0;
  readonly #waiting: (() => void)[] = [];
  constructor(readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    while (this.#running >= this.limit) await new Promise<void>((r) => this.#waiting.push(r));
    this.#running++;
    try {
      return await task();
    } finally {
      this.#running--;
      this.#waiting.shift()?.();
    }
  }
}

/** Utterances heard in `pcm` (16 kHz mono): null when the process failed or passed its deadline. The audio goes through
 *  a temporary raw file: spawned directly (no shell, no `cat`), the process dies with its deadline. */
export async function decodeOnce(modelDir: string, files: DecodeFiles, pcm: Int16Array, opts: { timeoutMs: number; args?: readonly string[]; dir: string; lm?: boolean }): Promise<BtUtterance[] | null> {
  const raw = join(opts.dir, `${randomUUID()}.raw`);
  await writeFile(raw, Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
  try {
    return await new Promise<BtUtterance[] | null>((resolve) => {
      const args = ['-infile', raw, '-hmm', join(modelDir, 'en-us'), opts.lm ? '-lm' : '-jsgf', files.gram, '-dict', files.dict, '-backtrace', 'yes', ...RECOGNITION_ARGS, ...(opts.args ?? WIDE_BEAMS)];
      // The log (and so the backtrace) goes to stderr: -logfn cannot open a pipe.
      const p = spawn('pocketsphinx_continuous', args, { stdio: ['ignore', 'ignore', 'pipe'] });
      let log = '';
      p.stderr.setEncoding('utf8');
      p.stderr.on('data', (c: string) => {
        log += c;
      });
      const timer = setTimeout(() => p.kill('SIGKILL'), opts.timeoutMs);
      p.on('close', (code) => {
        clearTimeout(timer);
        resolve(code === 0 ? parseBacktrace(log) : null);
      });
      p.on('error', () => {
        clearTimeout(timer);
        resolve(null);
      });
    });
  } finally {
    await rm(raw, { force: true });
  }
}
