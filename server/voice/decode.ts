// One pocketsphinx_continuous run over one utterance's audio, with a grammar and its dictionary, returning every
// utterance's best path with its scores (the `-backtrace yes` log, see backtrace.ts). A fresh process per request: the
// result depends on nothing but the audio and the grammar (a long-lived process adapts its feature normalisation to
// what it heard before, so the same clip can be heard differently a minute later). Starting one costs 10-15 ms of CPU
// with a small dictionary (measured: a 3 s clip then costs ~50 ms with the exact grammar, ~130 ms with the stage's
// language model, ~150 ms with the phone loop); at most `limit` run at once, the decodes of an utterance already
// under way before a new utterance's first one (see DecodeLimiter).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { Socket } from 'node:net';
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

/**
 * At most `limit` tasks at once. A waiting task with a higher priority starts first (equal priorities in arrival
 * order): the second and third decodes of an utterance whose first is done go before the first decode of a newer
 * utterance, so a busy server finishes the turns it started instead of making every turn wait in the queue twice.
 */
export class DecodeLimiter {
  #running = 0;
  readonly #waiting: { priority: number; go: () => void }[] = [];
  constructor(readonly limit: number) {}

  /** Tasks running now. */
  get running(): number {
    return this.#running;
  }

  /** Tasks waiting for a slot. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Whether a task started now would leave at least `spare` slots free (for work done ahead of need). */
  hasRoom(spare = 0): boolean {
    return this.#waiting.length === 0 && this.#running + 1 + spare <= this.limit;
  }

  async run<T>(task: () => Promise<T>, priority = 0): Promise<T> {
    if (this.#running >= this.limit || this.#waiting.length > 0) {
      // Woken with a slot handed over by a finishing task (#release): it is already counted as running.
      await new Promise<void>((go) => {
        const entry = { priority, go };
        const at = this.#waiting.findIndex((w) => w.priority < priority);
        if (at < 0) this.#waiting.push(entry);
        else this.#waiting.splice(at, 0, entry);
      });
    } else this.#running++;
    try {
      return await task();
    } finally {
      this.#release();
    }
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next.go();
    else this.#running--;
  }
}

/** One utterance's audio, written once for all the decodes of it (a raw file of 16 kHz mono samples). */
export class DecodeAudio {
  #raw: Promise<string> | null = null;
  constructor(readonly pcm: Int16Array, private readonly dir: string) {}

  file(): Promise<string> {
    this.#raw ??= (async () => {
      const raw = join(this.dir, `${randomUUID()}.raw`);
      await writeFile(raw, Buffer.from(this.pcm.buffer, this.pcm.byteOffset, this.pcm.byteLength));
      return raw;
    })();
    return this.#raw;
  }

  async dispose(): Promise<void> {
    const raw = this.#raw;
    this.#raw = null;
    if (raw) await rm(await raw.catch(() => ''), { force: true });
  }
}

/** A decode of 16 kHz mono samples (decodeOnce, or the bench's cache of decodes). */
export type DecodeFn = (modelDir: string, files: DecodeFiles, pcm: Int16Array, opts: { timeoutMs: number; args?: readonly string[]; dir: string; lm?: boolean }) => Promise<BtUtterance[] | null>;

/** Utterances heard in `pcm` (16 kHz mono): null when the process failed or passed its deadline. The audio goes through
 *  a temporary raw file: spawned directly (no shell, no `cat`), the process dies with its deadline. */
export async function decodeOnce(modelDir: string, files: DecodeFiles, pcm: Int16Array | DecodeAudio, opts: { timeoutMs: number; args?: readonly string[]; dir: string; lm?: boolean }): Promise<BtUtterance[] | null> {
  const audio = pcm instanceof DecodeAudio ? pcm : new DecodeAudio(pcm, opts.dir);
  const raw = await audio.file();
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
    if (audio !== pcm) await audio.dispose();
  }
}

/** One decode: a grammar or language model and its dictionary, the decoder flags (WIDE_BEAMS by default), and another
 *  model directory than the decoder's (cmn.ts: the utterance's own normalisation; never decoded by a standby process). */
export type DecodeJob = { files: DecodeFiles; lm?: boolean; args?: readonly string[]; modelDir?: string };

function decoderArgs(modelDir: string, job: DecodeJob): string[] {
  return ['-hmm', join(modelDir, 'en-us'), job.lm ? '-lm' : '-jsgf', job.files.gram, '-dict', job.files.dict, '-backtrace', 'yes', ...RECOGNITION_ARGS, ...(job.args ?? WIDE_BEAMS)];
}

/** A pocketsphinx process started ahead of its audio: it loads its model, then waits for the audio on stdin. */
class Standby {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  log = '';
  dead = false;
  readonly born = Date.now();

  constructor(readonly key: string, args: readonly string[]) {
    // pocketsphinx reads a file: Node's stdin is a socket, which /dev/stdin cannot open, so `cat` turns it into a pipe.
    // When the server dies (even by SIGKILL) the socket closes, cat and pocketsphinx see the end of the audio and exit.
    this.child = spawn('sh', ['-c', 'cat | exec pocketsphinx_continuous "$@"', 'sh', '-infile', '/dev/stdin', ...args], { stdio: ['pipe', 'ignore', 'pipe'], detached: true });
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (c: string) => {
      this.log += c;
    });
    this.child.stdin?.on('error', () => undefined);
    // A process waiting for audio does not keep the server (or a command) alive; ref() once it has work.
    this.child.unref();
    for (const io of this.#pipes()) io.unref();
    this.exited = new Promise((resolve) => {
      this.child.on('error', () => {
        this.dead = true;
        resolve(null);
      });
      this.child.on('close', (code) => {
        this.dead = true;
        resolve(code);
      });
    });
  }

  /** The child's stdin and stderr: sockets (spawn's 'pipe'), which can be unref'd. */
  #pipes(): Socket[] {
    return [this.child.stdin, this.child.stderr].filter((x): x is Socket => x instanceof Socket);
  }

  ref(): void {
    this.child.ref();
    for (const io of this.#pipes()) io.ref();
  }

  /** Kills the whole group (sh, cat, pocketsphinx). */
  kill(): void {
    this.dead = true;
    this.child.stdin?.destroy();
    try {
      if (this.child.pid !== undefined) process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

export type StandbyOptions = {
  modelDir: string;
  /** Processes kept waiting, over all configurations (each ~15 MB). */
  size: number;
  /** A waiting process unused this long is stopped (its memory back). */
  idleMs?: number;
  /** Whether to start processes ahead now (default: always). The server starts none while its decoders are all busy:
   *  then a process started ahead would only take CPU from decodes under way. */
  ahead?: () => boolean;
};

/**
 * Fresh pocketsphinx processes started ahead of need, one per decode: a decode takes a process of its configuration
 * that has already loaded its model (~25 ms on an idle machine, more when busy) and sends it the audio; another is
 * started for the next decode of that configuration. A process is never given a second utterance: its features
 * would be normalised by what it heard before (see the top of this file), so the outcome is exactly a fresh decode's.
 * At most `size` processes wait, the configuration used longest ago stopped first; a process that died waiting is
 * replaced; close() kills them all.
 */
export class StandbyDecoders {
  readonly #waiting: Standby[] = [];
  readonly #running = new Set<Standby>();
  /** Configurations by last use (oldest first), with their flags. */
  readonly #recent = new Map<string, readonly string[]>();
  #closed = false;
  #sweep: NodeJS.Timeout | null = null;
  /** Processes started, decodes served by a process already waiting, and by one started on demand. */
  spawned = 0;
  ready = 0;
  cold = 0;

  constructor(readonly opts: StandbyOptions) {}

  /** pocketsphinx processes alive (waiting or decoding). */
  get processes(): number {
    return this.#waiting.filter((s) => !s.dead).length + this.#running.size;
  }

  /** Process ids (of each process group's `sh`) of the processes waiting now, for tests. */
  waitingPids(): number[] {
    return this.#waiting.filter((s) => !s.dead).flatMap((s) => (s.child.pid === undefined ? [] : [s.child.pid]));
  }

  async decode(job: DecodeJob, pcm: Int16Array, timeoutMs: number): Promise<BtUtterance[] | null> {
    if (this.#closed) return null;
    const args = decoderArgs(this.opts.modelDir, job);
    const key = args.join('\0');
    this.#recent.delete(key);
    this.#recent.set(key, args);
    let s = this.#take(key);
    if (s) this.ready++;
    else {
      this.cold++;
      s = this.#start(key, args);
    }
    s.ref();
    this.#running.add(s);
    this.#fill();
    const timer = setTimeout(() => s.kill(), timeoutMs);
    try {
      s.child.stdin?.end(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
      const code = await s.exited;
      return code === 0 ? parseBacktrace(s.log) : null;
    } finally {
      clearTimeout(timer);
      this.#running.delete(s);
    }
  }

  #take(key: string): Standby | null {
    for (let i = this.#waiting.length - 1; i >= 0; i--) if (this.#waiting[i]?.dead) this.#waiting.splice(i, 1);
    const at = this.#waiting.findIndex((s) => s.key === key);
    if (at < 0) return null;
    const [s] = this.#waiting.splice(at, 1);
    return s ?? null;
  }

  #start(key: string, args: readonly string[]): Standby {
    this.spawned++;
    const s = new Standby(key, args);
    // A waiting process that dies (killed, out of memory) leaves the queue at the next take.
    void s.exited.then(() => {
      const at = this.#waiting.indexOf(s);
      if (at >= 0) this.#waiting.splice(at, 1);
    });
    return s;
  }

  /** One waiting process for each of the most recently used configurations, as many as fit. */
  #fill(): void {
    if (this.#closed || this.opts.ahead?.() === false) return;
    const keys = [...this.#recent.keys()].reverse().slice(0, this.opts.size);
    for (const k of [...this.#recent.keys()]) if (!keys.includes(k)) this.#recent.delete(k);
    // Stop waiting processes of configurations no longer among the recent ones.
    for (const s of [...this.#waiting]) {
      if (!keys.includes(s.key)) {
        s.kill();
        this.#waiting.splice(this.#waiting.indexOf(s), 1);
      }
    }
    for (const k of keys) {
      if (this.#waiting.length >= this.opts.size) break;
      if (this.#waiting.some((s) => s.key === k && !s.dead)) continue;
      const args = this.#recent.get(k);
      if (args) this.#waiting.push(this.#start(k, args));
    }
    this.#sweep ??= setInterval(() => this.#expire(), Math.max(1000, (this.opts.idleMs ?? 60_000) / 2)).unref();
  }

  #expire(): void {
    const limit = Date.now() - (this.opts.idleMs ?? 60_000);
    for (const s of [...this.#waiting]) {
      if (s.born < limit || s.dead) {
        s.kill();
        this.#waiting.splice(this.#waiting.indexOf(s), 1);
      }
    }
    if (this.#waiting.length === 0 && this.#sweep) {
      clearInterval(this.#sweep);
      this.#sweep = null;
    }
  }

  /** Kills every process, waiting or decoding; later decodes answer null. */
  close(): void {
    this.#closed = true;
    if (this.#sweep) clearInterval(this.#sweep);
    this.#sweep = null;
    for (const s of [...this.#waiting, ...this.#running]) s.kill();
    this.#waiting.length = 0;
  }
}
