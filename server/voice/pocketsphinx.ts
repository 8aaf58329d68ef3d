// Offline English speech recognition with Debian's pocketsphinx (apt: pocketsphinx pocketsphinx-en-us). Each moment
// gets a small JSGF grammar and dictionary (see grammar.ts), built once and cached (least recently used dropped).
//
// Mode 'per-request': one `pocketsphinx_continuous` per request, fed raw 16 kHz PCM through `cat` (Node's stdin is a
// socket, which `-infile /dev/stdin` cannot read); the result is complete when the process exits, an utterance split
// by a pause is simply two lines, and "nothing matched" is an immediate empty answer. At most `poolSize` run at once;
// each has a deadline.
// Mode 'long-lived': a pool of `poolSize` processes, one grammar each, the least recently used idle one replaced when
// another grammar is needed. A process prints one line per utterance and nothing when nothing matches, so a request's
// words are told apart by their time stamps (`-time yes`), pauses are shortened so a request is one utterance, and a
// request that gets no words by its deadline kills its process.
// Mode 'hybrid' (default): long-lived first, with a short deadline; what it does not catch (a decoy, or nothing) is
// decoded once more by a fresh per-request process. Measured on the 128 fixture clips: long-lived alone 123/128 right
// in p50 53 ms (its 5 misses were all "not caught", never another answer), per-request 126/128 in p50 92 ms; hybrid
// keeps the long-lived speed and the per-request accuracy.
import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Logger } from '../log.js';
import { DEFAULT_MAX_SECONDS, decodeSpeech, STT_RATE } from './audio.js';
import { buildGrammar, cleanHypothesis, type Grammar } from './grammar.js';
import { espeakSpeller, loadLexicon, type Speller } from './pronounce.js';
import type { TranscribeRequest, TranscribeResult, Transcriber } from './transcriber.js';
import { compactSpeech, quiet } from './vad.js';
import { NOT_CAUGHT_TEXT } from '../../engine/protocol/turn-errors.js';

export type PocketsphinxMode = 'hybrid' | 'long-lived' | 'per-request';
/** Hybrid mode: the long-lived recogniser's deadline before the per-request one takes over (plus 100 ms per second). */
const HYBRID_FIRST_MS = 1500;

export const DEFAULT_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
/** The recogniser's miss: engine/protocol/turn-errors.ts gives it the protocol code stt/not_caught. */
export const NOT_CAUGHT = NOT_CAUGHT_TEXT;
const BINARY = 'pocketsphinx_continuous';
const LEAD = 0.3;
/** Wider beams than the defaults (1e-48, 1e-48, 1e-48): with a grammar of whole sentences the narrow ones dropped the
 *  right sentence before its end on 5 of 32 fixture clips, which then printed nothing (31/32 with these). */
const DECODER_ARGS = ['-beam', '1e-80', '-wbeam', '1e-60', '-pbeam', '1e-80'];
const TRAIL = 1.0;

export type PocketsphinxOptions = {
  modelDir?: string;
  /** Recogniser processes at most, running or kept (each ~15-20 MB). */
  poolSize?: number;
  /** 'hybrid' (default), 'per-request' or 'long-lived' (see above). */
  mode?: PocketsphinxMode;
  /** Deadline of one request once its audio is sent; longer audio gets 100 ms more per second. */
  timeoutMs?: number;
  maxSeconds?: number;
  /** Grammars kept (files on disk and their processes). */
  maxGrammars?: number;
  /** Spells words missing from the CMU dictionary (eSpeak by default; null drops them). */
  speller?: Speller | null;
  /** Per-request mode: false sends the audio as recorded instead of with long silences shortened. */
  compact?: boolean;
  /** Extra decoder flags, e.g. ['-wip', '0.2']. */
  decoderArgs?: readonly string[];
  log?: Logger;
};

/** The binary on PATH and the en-us model files, or what is missing. */
export async function isPocketsphinxAvailable(modelDir = DEFAULT_MODEL_DIR): Promise<{ ok: boolean; missing: string[] }> {
  const missing: string[] = [];
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  const found = await Promise.all(dirs.map((d) => access(join(d, BINARY), constants.X_OK).then(() => true, () => false)));
  if (!found.some(Boolean)) missing.push(`${BINARY} (apt-get install pocketsphinx)`);
  for (const f of ['en-us/mdef', 'en-us/means', 'en-us/feat.params', 'cmudict-en-us.dict']) {
    if (!(await access(join(modelDir, f)).then(() => true, () => false))) missing.push(`${join(modelDir, f)} (apt-get install pocketsphinx-en-us)`);
  }
  return { ok: missing.length === 0, missing };
}

type GrammarFiles = Grammar & { gram: string; dictPath: string };
type Word = { word: string; start: number; end: number };
/** `word start end probability`, as printed by -time yes; hypothesis lines never hold numbers like these. */
const WORD_LINE = /^(\S+) (\d+\.\d+) (\d+\.\d+) (\S+)$/;

function parseWords(text: string): Word[] {
  const out: Word[] = [];
  for (const line of text.split('\n')) {
    const m = WORD_LINE.exec(line.trim());
    if (m?.[1] !== undefined) out.push({ word: m[1], start: Number(m[2]), end: Number(m[3]) });
  }
  return out;
}

/** The words heard when they hold one of the grammar's sentences; null for nothing or only decoys. */
function heardSentence(grammar: Grammar, words: Word[] | null): string | null {
  const text = words ? cleanHypothesis(words.map((w) => w.word).join(' ')) : '';
  return text && grammar.sentences.some((x) => ` ${text} `.includes(` ${x} `)) ? text : null;
}

const pcmBytes = (s: Int16Array): Buffer => Buffer.from(s.buffer, s.byteOffset, s.byteLength);

type Job = {
  start: number; speechEnd: number; end: number; words: Word[]; done: (words: Word[] | null) => void; timer: NodeJS.Timeout;
  settle: NodeJS.Timeout | null;
};
/** Once a request has words but its speech is not yet covered, more utterances get this long (a split utterance whose
 *  tail matched nothing prints nothing). */
const SETTLE_MS = 250;

/** One long-lived recogniser for one grammar; one request at a time. */
class Recogniser {
  readonly proc: ChildProcess;
  fed = 0; // samples written so far: the time base of -time yes
  busy = false;
  dead = false;
  lastUsed = Date.now();
  #job: Job | null = null;
  #buffer = '';

  constructor(readonly grammar: GrammarFiles, args: readonly string[], private readonly log: Logger | undefined) {
    this.proc = spawn('sh', ['-c', `cat | exec ${BINARY} "$@"`, 'sh', '-infile', '/dev/stdin', '-time', 'yes', ...args], { stdio: ['pipe', 'pipe', 'ignore'] });
    this.proc.stdout?.setEncoding('utf8');
    this.proc.stdout?.on('data', (chunk: string) => this.#onData(chunk));
    this.proc.stdin?.on('error', () => undefined);
    this.proc.on('exit', () => {
      this.dead = true;
      this.#finish(null);
    });
  }

  #onData(chunk: string): void {
    this.#buffer += chunk;
    const cut = this.#buffer.lastIndexOf('\n');
    if (cut < 0) return;
    const lines = this.#buffer.slice(0, cut);
    this.#buffer = this.#buffer.slice(cut + 1);
    const job = this.#job;
    for (const w of parseWords(lines)) {
      if (!job || w.start < job.start - 0.05 || w.start >= job.end) {
        this.log?.debug({ word: w.word, at: w.start }, 'pocketsphinx word outside any request ignored');
        continue;
      }
      job.words.push(w);
    }
    // The utterance that reaches the end of the speech closes the request (its final silence ends after it).
    if (job && job.words.some((w) => w.end >= job.speechEnd - 0.3)) this.#finish(job.words);
    else if (job && job.words.length > 0 && !job.settle) job.settle = setTimeout(() => this.#finish(job.words), SETTLE_MS);
  }

  #finish(words: Word[] | null): void {
    const job = this.#job;
    if (!job) return;
    this.#job = null;
    clearTimeout(job.timer);
    if (job.settle) clearTimeout(job.settle);
    job.done(words);
  }

  /** Words heard in `speech`; null when nothing came before the deadline. */
  recognise(speech: Int16Array, timeoutMs: number): Promise<Word[] | null> {
    return new Promise((resolve) => {
      if (this.dead || !this.proc.stdin) return resolve(null);
      const start = this.fed / STT_RATE;
      const speechEnd = start + LEAD + speech.length / STT_RATE;
      const audio = [quiet(LEAD), speech, quiet(TRAIL)];
      const total = audio.reduce((n, a) => n + a.length, 0);
      const timer = setTimeout(() => {
        // Silence from the recogniser: either nothing matched or it is stuck. Its next words will be ignored by time.
        const words = this.#job?.words ?? [];
        this.#finish(words.length > 0 ? words : null);
      }, timeoutMs);
      this.#job = { start, speechEnd, end: start + total / STT_RATE, words: [], done: resolve, timer, settle: null };
      this.fed += total;
      for (const a of audio) this.proc.stdin.write(pcmBytes(a));
    });
  }

  kill(): void {
    this.dead = true;
    this.proc.kill('SIGKILL');
  }
}

export class PocketsphinxTranscriber implements Transcriber {
  readonly name = 'pocketsphinx';
  readonly #modelDir: string;
  readonly #poolSize: number;
  readonly #timeoutMs: number;
  readonly #maxGrammars: number;
  readonly #grammars = new Map<string, Promise<GrammarFiles>>();
  readonly #pool: Recogniser[] = [];
  readonly #waiting: (() => void)[] = [];
  #dir: Promise<string> | null = null;
  #running = 0;
  /** Processes started so far, and the most that ran at once (for tests and logs). */
  spawned = 0;
  /** Hybrid mode: requests the long-lived recogniser did not catch, decoded again per request. */
  fallbacks = 0;
  maxConcurrent = 0;

  constructor(private readonly opts: PocketsphinxOptions = {}) {
    this.#modelDir = opts.modelDir ?? DEFAULT_MODEL_DIR;
    this.#poolSize = Math.max(1, opts.poolSize ?? 2);
    this.#timeoutMs = opts.timeoutMs ?? 5000;
    this.#maxGrammars = Math.max(this.#poolSize, opts.maxGrammars ?? 32);
  }

  get processes(): number {
    return this.#pool.filter((r) => !r.dead).length;
  }

  /** Builds a moment's grammar ahead of its first request (e.g. when the moment starts); never fails. */
  async prepare(req: Pick<TranscribeRequest, 'sentences' | 'vocabulary' | 'decoys'>): Promise<void> {
    await this.#grammar(req.sentences ?? [], req.vocabulary, req.decoys ?? []).catch(() => undefined);
  }

  async transcribe(req: TranscribeRequest): Promise<TranscribeResult> {
    if (req.language !== 'english') return { ok: false, message: 'pocketsphinx recognises English only.' };
    const speech = await decodeSpeech(req.audio, { maxSeconds: this.opts.maxSeconds ?? DEFAULT_MAX_SECONDS });
    if (!speech.ok) return { ok: false, message: speech.message };
    const compact = compactSpeech(speech.samples);
    if (!compact) return { ok: false, message: NOT_CAUGHT, notCaught: true };
    let grammar: GrammarFiles;
    try {
      grammar = await this.#grammar(req.sentences ?? [], req.vocabulary, req.decoys ?? []);
    } catch (err) {
      this.opts.log?.error({ err }, 'pocketsphinx grammar failed');
      return { ok: false, message: 'Speech recognition is unavailable right now: type your answer.' };
    }
    const timeout = this.#timeoutMs + 100 * (compact.length / STT_RATE);
    const mode = this.opts.mode ?? 'hybrid';
    const once = (): Promise<Word[] | null> => this.#once(grammar, this.opts.compact === false ? speech.samples : compact, timeout);
    let text = heardSentence(grammar, mode === 'per-request'
      ? await once()
      : await this.#pooled(grammar, compact, mode === 'hybrid' ? Math.min(timeout, HYBRID_FIRST_MS + 100 * (compact.length / STT_RATE)) : timeout));
    if (text === null && mode === 'hybrid') {
      this.fallbacks++;
      text = heardSentence(grammar, await once());
    }
    // Nothing, or only a decoy (out-of-story speech): not an answer, and not an interaction either.
    return text === null ? { ok: false, message: NOT_CAUGHT, notCaught: true } : { ok: true, text, recogniser: 'pocketsphinx' };
  }

  #args(g: GrammarFiles): string[] {
    return ['-hmm', join(this.#modelDir, 'en-us'), '-jsgf', g.gram, '-dict', g.dictPath, '-logfn', '/dev/null', ...DECODER_ARGS, ...(this.opts.decoderArgs ?? [])];
  }

  /** The moment's grammar, built once and kept (least recently used dropped past maxGrammars). */
  #grammar(sentences: readonly string[], vocabulary: readonly string[], decoys: readonly string[]): Promise<GrammarFiles> {
    // The vocabulary only counts when there are no sentences (see buildGrammar): names collected along the run then
    // do not make a new grammar of the same sentences.
    const key = JSON.stringify([sentences.length > 0 ? sentences : vocabulary, decoys]);
    const hit = this.#grammars.get(key);
    if (hit) {
      this.#grammars.delete(key);
      this.#grammars.set(key, hit);
      return hit;
    }
    const made = (async () => {
      this.#dir ??= mkdtemp(join(tmpdir(), 'looptale-pocketsphinx-'));
      const dir = await this.#dir;
      const lexicon = await loadLexicon(join(this.#modelDir, 'cmudict-en-us.dict'));
      const g = await buildGrammar({ sentences, vocabulary, decoys, lexicon, speller: this.opts.speller === undefined ? espeakSpeller : this.opts.speller });
      if (g.dropped.length) this.opts.log?.info({ dropped: g.dropped }, 'words without a pronunciation left out of the grammar');
      const files: GrammarFiles = { ...g, gram: join(dir, `${g.key}.gram`), dictPath: join(dir, `${g.key}.dict`) };
      await writeFile(files.gram, g.jsgf);
      await writeFile(files.dictPath, g.dict);
      return files;
    })();
    made.catch(() => this.#grammars.delete(key));
    this.#grammars.set(key, made);
    while (this.#grammars.size > this.#maxGrammars) {
      const oldest = this.#grammars.keys().next().value;
      if (oldest === undefined) break;
      const old = this.#grammars.get(oldest);
      this.#grammars.delete(oldest);
      // Files go once no process uses them; a live process keeps its own open copy anyway.
      void old?.then(async (f) => {
        if (!this.#pool.some((r) => r.grammar.key === f.key && !r.dead)) {
          await rm(f.gram, { force: true });
          await rm(f.dictPath, { force: true });
        }
      }, () => undefined);
    }
    return made;
  }

  /** A free recogniser for this grammar: reuse, start one, or replace the least recently used idle one. */
  async #acquire(g: GrammarFiles): Promise<Recogniser> {
    for (;;) {
      for (let i = this.#pool.length - 1; i >= 0; i--) if (this.#pool[i]?.dead) this.#pool.splice(i, 1);
      const same = this.#pool.find((r) => !r.busy && r.grammar.key === g.key);
      if (same) {
        same.busy = true;
        return same;
      }
      if (this.#pool.length >= this.#poolSize) {
        const idle = this.#pool.filter((r) => !r.busy).sort((a, b) => a.lastUsed - b.lastUsed)[0];
        if (idle) {
          idle.kill();
          this.#pool.splice(this.#pool.indexOf(idle), 1);
        }
      }
      if (this.#pool.length < this.#poolSize) {
        const r = new Recogniser(g, this.#args(g), this.opts.log);
        this.spawned++;
        r.busy = true;
        this.#pool.push(r);
        return r;
      }
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
  }

  #release(r: Recogniser): void {
    r.busy = false;
    r.lastUsed = Date.now();
    this.#waiting.shift()?.();
  }

  async #pooled(g: GrammarFiles, speech: Int16Array, timeoutMs: number): Promise<Word[] | null> {
    const r = await this.#acquire(g);
    try {
      const words = await r.recognise(speech, timeoutMs);
      // A recogniser that answered nothing in time may be stuck: replace it.
      if (words === null) r.kill();
      return words;
    } finally {
      this.#release(r);
    }
  }

  /** One process for one request: all of its output, complete when it exits. */
  async #once(g: GrammarFiles, speech: Int16Array, timeoutMs: number): Promise<Word[] | null> {
    while (this.#running >= this.#poolSize) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#running++;
    this.spawned++;
    this.maxConcurrent = Math.max(this.maxConcurrent, this.#running);
    try {
      return await new Promise<Word[] | null>((resolve) => {
        const p = spawn('sh', ['-c', `cat | exec ${BINARY} "$@"`, 'sh', '-infile', '/dev/stdin', '-time', 'yes', ...this.#args(g)], { stdio: ['pipe', 'pipe', 'ignore'] });
        let out = '';
        p.stdout.setEncoding('utf8');
        p.stdout.on('data', (c: string) => (out += c));
        const timer = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
        p.on('exit', (code) => {
          clearTimeout(timer);
          resolve(code === 0 || out ? parseWords(out) : null);
        });
        p.on('error', () => resolve(null));
        p.stdin.on('error', () => undefined);
        p.stdin.end(Buffer.concat([quiet(LEAD), speech, quiet(0.6)].map(pcmBytes)));
      });
    } finally {
      this.#running--;
      this.#waiting.shift()?.();
    }
  }

  async close(): Promise<void> {
    for (const r of this.#pool) r.kill();
    this.#pool.length = 0;
    const dir = this.#dir;
    this.#dir = null;
    if (dir) await rm(await dir, { recursive: true, force: true });
  }
}
