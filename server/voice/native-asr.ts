// A pool of persistent pocketsphinx decoders (looptale-asr, server/voice/native/looptale-asr.c): each loads the
// acoustic model once at start-up and then decodes one utterance at a time, sent over its stdin as one line (the
// search file, its dictionary, the decoder flags, base64 audio) and answered with one JSON line (what
// parseBacktrace gives from pocketsphinx_continuous's log). No process is started per decode: starting one forks the
// whole server (Node's spawn), which blocked the event loop ~71 ms each with PGlite's heap in the process.
// A process that dies or passes a decode's deadline is killed and replaced, and that decode is tried once more on the
// new one. The processes are started at once (when the server's memory is still small), unref'd while idle.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { access, readFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';
import { Socket } from 'node:net';
import type { Logger } from '../log.js';
import type { BtUtterance, BtWord } from './backtrace.js';
import { RECOGNITION_ARGS, WIDE_BEAMS, type DecodeJob } from './decode.js';

const ROOT = join(import.meta.dirname, '../..');
export const NATIVE_SOURCE = join(ROOT, 'server/voice/native/looptale-asr.c');
export const BUILD_COMMAND = 'npm run build:asr';

/** Where scripts/build-asr.sh puts the binary built from the current source, and whether it is there. */
export async function nativeAsrBinary(): Promise<{ ok: true; path: string } | { ok: false; reason: string }> {
  let source: Buffer;
  try {
    source = await readFile(NATIVE_SOURCE);
  } catch {
    return { ok: false, reason: `${NATIVE_SOURCE} is missing` };
  }
  const path = join(ROOT, '.cache/asr', `looptale-asr-${createHash('sha256').update(source).digest('hex').slice(0, 16)}`);
  return (await access(path, constants.X_OK).then(() => true, () => false))
    ? { ok: true, path }
    : { ok: false, reason: `looptale-asr is not built for this source (${BUILD_COMMAND}; needs gcc, pkg-config, libpocketsphinx-dev, libsphinxbase-dev)` };
}

/** Builds the binary when it is missing (tests and benches; the server never compiles): scripts/build-asr.sh. */
export async function buildNativeAsr(): Promise<{ ok: true; path: string } | { ok: false; reason: string }> {
  const have = await nativeAsrBinary();
  if (have.ok) return have;
  const built = await new Promise<string | null>((resolve) => {
    execFile('bash', [join(ROOT, 'scripts/build-asr.sh')], { timeout: 120_000 }, (err, _out, stderr) => resolve(err ? stderr || err.message : null));
  });
  const after = await nativeAsrBinary();
  return after.ok || built === null ? after : { ok: false, reason: built.trim() };
}

/** The understanding engine as the server picks it (POCKETSPHINX_ENGINE: auto = native when built), for benches. */
export async function engineOption(env: Readonly<Record<string, string | undefined>> = process.env): Promise<{ binary: string } | null> {
  if (env.POCKETSPHINX_ENGINE === 'continuous') return null;
  const bin = await nativeAsrBinary();
  if (!bin.ok && env.POCKETSPHINX_ENGINE === 'native') throw new Error(bin.reason);
  return bin.ok ? { binary: bin.path } : null;
}

type Answer = { id: string; ok: true; utts: BtUtterance[]; frames: number; cpu_ms: number; search: 'built' | 'cached' } | { id: string; ok: false; error: string };
type Pending = { id: string; done: (a: Answer | null) => void; timer: NodeJS.Timeout };

/** One looptale-asr process: one decode at a time. */
class NativeDecoder {
  readonly child: ChildProcess;
  readonly ready: Promise<boolean>;
  /** Resolves once the process has exited. */
  readonly exited: Promise<void>;
  dead = false;
  busy = false;
  #buffer = '';
  #pending: Pending | null = null;
  #onReady: ((ok: boolean) => void) | null = null;

  constructor(binary: string, args: readonly string[], private readonly log: Logger | undefined) {
    this.child = spawn(binary, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    this.ready = new Promise((resolve) => (this.#onReady = resolve));
    this.child.stdout?.setEncoding('utf8');
    this.child.stdout?.on('data', (c: string) => this.#data(c));
    this.child.stdin?.on('error', () => undefined);
    const gone = (): void => {
      this.dead = true;
      this.#onReady?.(false);
      this.#onReady = null;
      this.#settle(null);
    };
    this.exited = new Promise((resolve) => {
      this.child.on('error', () => {
        gone();
        resolve();
      });
      this.child.on('exit', () => {
        gone();
        resolve();
      });
    });
    // Kept referenced until the model is loaded: a start-up awaiting ready() must not see an empty event loop.
    void this.ready.then(() => {
      if (!this.busy) this.idle();
    });
  }

  #pipes(): Socket[] {
    return [this.child.stdin, this.child.stdout].filter((x): x is Socket => x instanceof Socket);
  }

  /** A process waiting for work does not keep the server (or a command) alive. */
  idle(): void {
    this.child.unref();
    for (const p of this.#pipes()) p.unref();
  }

  #data(chunk: string): void {
    this.#buffer += chunk;
    for (let nl = this.#buffer.indexOf('\n'); nl >= 0; nl = this.#buffer.indexOf('\n')) {
      const line = this.#buffer.slice(0, nl);
      this.#buffer = this.#buffer.slice(nl + 1);
      let msg: unknown;
      try {
        msg = JSON.parse(line);
      } catch {
        this.log?.warn({ line: line.slice(0, 200) }, 'looptale-asr printed a line that is not JSON');
        continue;
      }
      if (this.#onReady && typeof msg === 'object' && msg !== null && 'ready' in msg) {
        const ok = msg.ready === true;
        if (!ok) this.log?.error({ msg }, 'looptale-asr could not start');
        this.#onReady(ok);
        this.#onReady = null;
        continue;
      }
      const a = msg as Answer;
      if (this.#pending && a.id === this.#pending.id) this.#settle(a);
      else if (!a.ok) this.log?.warn({ error: a.error }, 'looptale-asr refused a request');
    }
  }

  #settle(a: Answer | null): void {
    const p = this.#pending;
    if (!p) return;
    this.#pending = null;
    clearTimeout(p.timer);
    p.done(a);
  }

  /** Sends one request line; null when the process died or passed the deadline (it is then killed). */
  request(id: string, line: string, timeoutMs: number): Promise<Answer | null> {
    return new Promise((resolve) => {
      if (this.dead || !this.child.stdin) return resolve(null);
      this.child.ref();
      for (const p of this.#pipes()) p.ref();
      const timer = setTimeout(() => {
        this.log?.warn({ pid: this.child.pid, timeoutMs }, 'looptale-asr passed its deadline: replaced');
        this.kill();
        this.#settle(null);
      }, timeoutMs);
      this.#pending = { id, done: resolve, timer };
      this.child.stdin.write(line);
    });
  }

  kill(): void {
    this.dead = true;
    // Referenced until it has exited: whoever awaits `exited` must not see an empty event loop (Node exits, code 13).
    this.child.ref();
    this.child.stdin?.destroy();
    this.child.kill('SIGKILL');
  }
}

export type NativeOptions = {
  binary: string;
  modelDir: string;
  /** Decoder processes (each ~25-40 MB with its searches). */
  size: number;
  log?: Logger;
  /** Extra looptale-asr arguments before the model (e.g. ['--cmn=batch']), for comparisons. */
  mode?: readonly string[];
};

let requestIds = 0;

/**
 * A fixed number of persistent decoders; a decode goes to an idle one, else waits for one (first come, first
 * served: the caller's DecodeLimiter orders the decodes by priority). The same audio and job give the same answer on
 * any process at any time (looptale-asr.c: the utterance's own normalisation, the dither reseeded).
 */
export class NativeDecoders {
  readonly #decoders: NativeDecoder[] = [];
  readonly #waiting: (() => void)[] = [];
  #closed = false;
  /** A process could not load the model: every decode answers null (the server then uses pocketsphinx_continuous). */
  #broken = false;
  /** Processes started (the first `size` plus replacements), decodes tried again on a new process, and decodes. */
  spawned = 0;
  retries = 0;
  decodes = 0;
  /** CPU time the decoders reported for their decodes (ms): the work of recognition alone. */
  cpuMs = 0;

  constructor(readonly opts: NativeOptions) {
    for (let i = 0; i < Math.max(1, opts.size); i++) this.#decoders.push(this.#start());
  }

  /** Processes alive. */
  get processes(): number {
    return this.#decoders.filter((d) => !d.dead).length;
  }

  /** Process ids of the decoders alive (for tests). */
  pids(): number[] {
    return this.#decoders.filter((d) => !d.dead).flatMap((d) => (d.child.pid === undefined ? [] : [d.child.pid]));
  }

  /** Whether the first decoder loaded its model (false: the binary or the model does not work). */
  async ready(): Promise<boolean> {
    const d = this.#decoders[0];
    return d ? d.ready : false;
  }

  #start(): NativeDecoder {
    this.spawned++;
    return new NativeDecoder(this.opts.binary, [...(this.opts.mode ?? []), join(this.opts.modelDir, 'en-us'), ...RECOGNITION_ARGS], this.opts.log);
  }

  async #take(): Promise<NativeDecoder | null> {
    for (;;) {
      if (this.#closed || this.#broken) return null;
      for (let i = 0; i < this.#decoders.length; i++) {
        if (this.#decoders[i]?.dead) this.#decoders[i] = this.#start();
      }
      const free = this.#decoders.find((d) => !d.busy);
      if (free) {
        free.busy = true;
        return free;
      }
      await new Promise<void>((go) => this.#waiting.push(go));
    }
  }

  #give(d: NativeDecoder): void {
    d.busy = false;
    d.idle();
    this.#waiting.shift()?.();
  }

  /** The utterances heard in `pcm` (16 kHz mono) with this job's search; null when it could not be decoded. */
  async decode(job: DecodeJob, pcm: Int16Array, timeoutMs: number): Promise<BtUtterance[] | null> {
    const flags = [...(job.args ?? WIDE_BEAMS)];
    const fields = [job.lm ? 'lm' : 'jsgf', job.files.gram, job.files.dict, flags.join(' ')];
    if (fields.some((f) => /[\t\n\r]/.test(f)) || flags.some((f) => f.includes(' '))) {
      this.opts.log?.warn({ files: job.files }, 'a decode with a tab, a new line or a space in its files or flags was not sent');
      return null;
    }
    const audio = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength).toString('base64');
    this.decodes++;
    for (let attempt = 0; attempt < 2; attempt++) {
      const d = await this.#take();
      if (!d) return null;
      let answer: Answer | null;
      try {
        if (!(await d.ready)) {
          // A process that cannot load the model will not do better on a second try.
          this.#broken = true;
          d.kill();
          return null;
        }
        const id = `r${++requestIds}`;
        answer = await d.request(id, `${id}\t${fields.join('\t')}\t${audio}\n`, timeoutMs);
      } finally {
        this.#give(d);
      }
      if (answer === null) {
        if (this.#closed) return null;
        if (attempt === 0) this.retries++;
        continue;
      }
      if (!answer.ok) {
        this.opts.log?.warn({ error: answer.error }, 'looptale-asr refused a decode');
        return null;
      }
      this.cpuMs += answer.cpu_ms;
      return answer.utts.map((u) => ({ hyp: u.hyp, score: u.score, words: u.words.map((w): BtWord => ({ word: w.word, start: w.start, end: w.end, ascr: w.ascr, lscr: w.lscr })) }));
    }
    return null;
  }

  /** Kills every process (waiting until they are gone); later decodes answer null. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const d of this.#decoders) d.kill();
    for (const go of this.#waiting.splice(0)) go();
    await Promise.all(this.#decoders.map((d) => d.exited));
  }
}
