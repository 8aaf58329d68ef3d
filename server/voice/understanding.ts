// From a player's audio to an answer, or to a miss ("Sorry, I didn't catch that.", no interaction counted).
//   1. Recognition with a small language model of the current stage (engine/brain/listen-corpus.ts): what decides
//      something here, in the story's words and generated ones, in everyday carriers, and everyday speech that decides
//      nothing. Paraphrases come out as words the brain reads; small talk comes out as words that decide nothing.
//   2. The brain must find a decision in the words (else: a miss, not a fallback reply that costs an interaction).
//   3. Verification (verify.ts): the same audio is decoded with a free phone loop; the words the decision rests on
//      (those whose removal changes it) must fit the audio nearly as well as the loop does, more strictly when the
//      decision would end the run. A word the model put there for want of better fails.
import { MOMENTS } from '../../engine/moments/registry.js';
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Decision } from '../../engine/brain/decision.js';
import { listenCorpus, type CorpusWeights } from '../../engine/brain/listen-corpus.js';
import { decidesHeard, decideTyped, decisionKey, speakable } from '../../engine/brain/speakable.js';
import { agreesElsewhere, articlesDropped, disputeHolds, heardMostly, heardWhole, namesAnother, oneWordSwapped, isBrief, withoutArticles, ownWords, rescuable, DEFAULT_KEY_WORDS, DEFAULT_THRESHOLDS, elsewhere, grammarBounds, hasParts, isMove, keyWordRule, keyWordsHeard, namesUnheard, neededMargin, partOf, type KeyWordPolicy, type ModelView, type Thresholds } from './policy.js';
import type { GameState } from '../../engine/run/state.js';
import type { PlayLanguage } from '../../engine/schema/enums.js';
import type { Story } from '../../engine/story/format.js';
import { storyDecoys } from '../game/vocabulary.js';
import type { Logger } from '../log.js';
import { DEFAULT_MAX_SECONDS, decodeSpeech, STT_RATE } from './audio.js';
import { DecodeAudio, DecodeLimiter, decodeOnce, StandbyDecoders, WIDE_BEAMS, type DecodeFiles, type DecodeFn, type DecodeJob } from './decode.js';
import { buildDictionary, buildGrammar, cleanHypothesis, phraseWords, type Grammar } from './grammar.js';
import type { BtUtterance } from './backtrace.js';
import { arpaScorer, buildArpa } from './lm.js';
import { DEFAULT_MODEL_DIR, NOT_CAUGHT } from './pocketsphinx.js';
import { espeakSpeller, loadLexicon, type Speller } from './pronounce.js';
import type { AudioInput } from './transcriber.js';
import { compactSpeech, quiet, speechFrames } from './vad.js';
import { phoneLoopFiles, verify, type Verification } from './verify.js';
import { cmnModelDir, cmnPassFiles } from './cmn.js';
import { engineOption, NativeDecoders } from './native-asr.js';
import { DEFAULT_RETRY_FRONTS, retryHolds, retryMay } from './retry.js';

export type MissReason = 'silence' | 'not_heard' | 'unsure' | 'no_decision' | 'unavailable' | 'bad_audio';

export type Understood =
  | ({ ok: true; text: string; recogniser: string } & Evidence)
  | ({ ok: false; reason: MissReason; message: string; heard: string | null } & Evidence);

/** What the answer rests on (for logs, tuning and the bench). */
export type Evidence = {
  verification: Verification | null;
  key_words: string[];
  /** The least margin of the key words over the phone loop, per frame. */
  margin: number | null;
  /** The exact grammar and the language model heard the same decision. */
  agree?: boolean;
  /** The exact grammar heard one of the story's own sentences. */
  authored?: boolean;
  /** Heard by the grammar's second pass without decoys (a decoy won the first; policy.ts `rescuable`). */
  rescued?: boolean;
  /** The other decoder's margin. */
  other?: number | null;
  /** That second pass's sentence, when it heard one: the speech's frames, the sentence's phones and its path's frames. */
  rescue?: { speech: number; phones: number; frames: number };
  /** What the other decoder heard, seen from the picked decision (policy.ts ModelView). */
  view?: ModelView;
  source?: 'grammar' | 'lm';
  /** The model's words alone, the exact grammar having heard nothing at all (policy.ts `model_unopposed`). */
  unopposed?: boolean;
  /** The model's words, when they decide something: how likely the stage's model finds them (policy.ts `model_fluent`). */
  fluency?: number;
  /** What each decoder heard (for the bench and logs). */
  heard_grammar?: string;
  heard_lm?: string;
  /** The front end a miss was heard again with when it was taken then (DEFAULT_RETRY_FRONTS), and that first miss. */
  front?: string;
  first?: { reason: MissReason; view: ModelView | null; margin: number | null; heard_grammar: string | null; heard_lm: string | null };
};

export type UnderstandRequest = { story: Story; state: GameState; language: PlayLanguage; audio: AudioInput };

// When a decision is taken: policy.ts (thresholds by evidence, key words).
export { DEFAULT_THRESHOLDS, keyWords, type KeyWordPolicy, type KeyWordRule, type Thresholds } from './policy.js';

export type UnderstandingOptions = {
  modelDir?: string;
  speller?: Speller | null;
  thresholds?: Partial<Thresholds>;
  /** Decodes at once (a request runs one to three: the exact grammar, the phone loop, the stage's model). */
  concurrency?: number;
  timeoutMs?: number;
  maxSeconds?: number;
  /** Extra decoder flags for the model's decode (-lw, -wip...). */
  decoderArgs?: string[];
  /** Sentences drawn from one large pattern into the model. */
  samples?: number;
  /** How much each kind of sentence weighs in the model (copies). */
  weights?: CorpusWeights;
  /** Which decoders run: both (default), or only the exact grammar, or only the language model (for comparisons). */
  decoders?: 'grammar' | 'lm';
  /** Decoys in the exact grammar (default true). */
  decoys?: boolean;
  /** When a decoy wins the exact grammar, decode the grammar again without its decoys and weigh the sentence it hears
   *  when the speech is not much longer than it (policy.ts `rescuable`; default true). */
  rescue?: boolean;
  /** 'needed' (default): only the decodes that can change the outcome (see #decide). 'full': all three, every time,
   *  for the evidence fields (the bench's tuning data); the outcome is the same. */
  evidence?: 'needed' | 'full';
  /** false: never start a decode before it is known to be needed, even when the decoders are idle (tests). */
  ahead?: boolean;
  /** pocketsphinx processes started ahead of their audio (decode.ts StandbyDecoders; 0: each decode starts its own). */
  standby?: number;
  /** Feature normalisation of the decodes: 'utterance' (default), from the utterance's own cepstral mean read by a
   *  first cheap pass (cmn.ts); 'live', pocketsphinx's own (from the model's fixed initial mean). */
  cmn?: 'utterance' | 'live';
  /** Which words a decision rests on (their fit to the audio is checked). */
  keyWords?: KeyWordPolicy;
  /** Front ends to hear a miss again with, in order, until one hears an answer retry.ts `retryHolds` takes
   *  (DEFAULT_RETRY_FRONTS: none; retry.ts FRAME_RATE_RETRY was measured): decoder flags that change the features
   *  (-frate, -warp_params), added to every decode of that try. */
  retryFronts?: readonly (readonly string[])[];
  /** Decodes through this function instead of pocketsphinx directly (the bench's cache of decodes). */
  decode?: DecodeFn;
  /** Persistent decoders (native-asr.ts: looptale-asr, built by `npm run build:asr`) instead of a
   *  pocketsphinx_continuous process per decode: the binary, how many processes (default: the CPU count), and extra
   *  looptale-asr arguments (comparisons). They normalise each utterance by its own mean themselves (no first pass). */
  native?: { binary: string; size?: number; mode?: readonly string[] };
  log?: Logger;
};

const LEAD = 0.3;
const TRAIL = 0.6;
const MAX_MODELS = 64;
/** Processes started ahead by default: the phone loop, and the exact grammar and model of the stage in use. */
const DEFAULT_STANDBY = 3;

type Model = DecodeFiles & { key: string; words: Set<string>; fluency: (words: readonly string[]) => number };
type Candidate = { text: string; decision: Decision | null; keyWords: string[]; keyIndexes: number[]; decoy: boolean; margin: number | null; verification: Verification | null; reason: MissReason | null; authored: boolean; rescued?: boolean };
type GrammarFiles = Grammar & DecodeFiles & { authored: Set<string>; nearAuthored: Map<string, string[]>; sounds: Map<string, string>; bareGram: string | null };

/** Words of a dictionary that sound alike (share a pronunciation: "ferrule" and the alias "ferule"), each to one of
 *  them: the grammar may take either, so a story sentence is recognised whichever spelling its path went through. */
export function soundAlikes(dict: string): Map<string, string> {
  const byPron = new Map<string, string>();
  const out = new Map<string, string>();
  for (const line of dict.split('\n')) {
    const m = /^(\S+?)(?:\(\d+\))?\s+(.+)$/.exec(line.trim());
    if (!m?.[1] || !m[2]) continue;
    const [word, pron] = [m[1], m[2].trim()];
    const first = byPron.get(pron);
    if (first === undefined) byPron.set(pron, out.get(word) ?? word);
    else if (!out.has(word)) out.set(word, out.get(first) ?? first);
  }
  return out;
}

/** The margin of each word of a candidate's sentence over the phone loop (none when it was not verified word by word). */
const wordMargins = (c: Candidate): number[] => (c.verification && c.verification.words.length === c.text.split(' ').length ? c.verification.words.map((w) => w.margin) : []);

const sayAlike = (sounds: ReadonlyMap<string, string>, text: string): string => text.split(' ').map((w) => sounds.get(w) ?? w).join(' ');


/** Frames (10 ms) from the first to the last voiced one. */
function speechSpan(samples: Int16Array): number {
  const voiced = speechFrames(samples);
  return Math.max(1, voiced.lastIndexOf(true) - voiced.indexOf(true) + 1);
}

/** Whether a decision ends the run: a branch or answer leading to a Dead End, or the end of the game. */
export function endsRun(story: Story, d: Decision): boolean {
  if (d.outcome === 'end_of_game') return true;
  const next = d.next_moment_id ? story.moments.find((m) => m.id === d.next_moment_id) : undefined;
  return next ? MOMENTS[next.type].traits.ends === 'lost' : false;
}

export class SpeechUnderstanding {
  readonly name = 'pocketsphinx';
  readonly #modelDir: string;
  readonly #limiter: DecodeLimiter;
  readonly #thresholds: Thresholds;
  readonly #models = new Map<string, Promise<Model>>();
  readonly #grammars = new Map<string, Promise<GrammarFiles>>();
  #dir: Promise<string> | null = null;
  /** pocketsphinx decodes started so far (for tests and logs). */
  decodes = 0;
  readonly standby: StandbyDecoders | null;
  /** The persistent decoders, when the native engine is used. */
  readonly native: NativeDecoders | null;

  constructor(private readonly opts: UnderstandingOptions = {}) {
    this.#modelDir = opts.modelDir ?? DEFAULT_MODEL_DIR;
    this.#thresholds = { ...DEFAULT_THRESHOLDS, ...opts.thresholds };
    if (opts.native) {
      const size = Math.max(1, opts.native.size ?? availableParallelism());
      this.native = new NativeDecoders({ binary: opts.native.binary, modelDir: this.#modelDir, size, ...(opts.native.mode ? { mode: opts.native.mode } : {}), ...(opts.log ? { log: opts.log } : {}) });
      // As many decodes at once as processes: the others wait in the limiter, by priority.
      this.#limiter = new DecodeLimiter(size);
      this.standby = null;
    } else {
      this.native = null;
      this.#limiter = new DecodeLimiter(Math.max(2, opts.concurrency ?? 4));
      const standby = opts.standby ?? DEFAULT_STANDBY;
      this.standby = standby > 0 && !opts.decode ? new StandbyDecoders({ modelDir: this.#modelDir, size: standby, ahead: () => this.#limiter.waiting === 0 }) : null;
    }
  }

  /** A decode by the persistent decoders, as a DecodeFn (the bench's cache of decodes wraps it). */
  readonly nativeDecode: DecodeFn = async (_modelDir, files, pcm, o) => {
    if (!this.native) return null;
    return this.native.decode({ files, ...(o.lm ? { lm: true } : {}), ...(o.args ? { args: o.args } : {}) }, pcm, o.timeoutMs);
  };

  /** One decode of the utterance, by a process started ahead when there are some, else by its own. */
  #decodeNow(job: DecodeJob, audio: DecodeAudio, timeoutMs: number, dir: string): Promise<BtUtterance[] | null> {
    const modelDir = job.modelDir ?? this.#modelDir;
    if (this.opts.decode) return this.opts.decode(modelDir, job.files, audio.pcm, { timeoutMs, dir, ...(job.lm ? { lm: true } : {}), ...(job.args ? { args: job.args } : {}) });
    if (this.native) return this.native.decode(job, audio.pcm, timeoutMs);
    // A process started ahead has loaded the decoder's own model: not one normalised for this utterance.
    if (this.standby && !job.modelDir) return this.standby.decode(job, audio.pcm, timeoutMs);
    return decodeOnce(modelDir, job.files, audio, { timeoutMs, dir, ...(job.lm ? { lm: true } : {}), ...(job.args ? { args: job.args } : {}) });
  }

  /** Builds the current stage's model ahead of the player's first words (e.g. when a moment starts); never fails. */
  async prepare(story: Story, state: GameState, language: PlayLanguage): Promise<void> {
    if (language !== 'english') return;
    await Promise.all([this.#model(story, state, language), this.#grammar(story, state, language), phoneLoopFiles()]).catch(() => undefined);
  }

  async understand(req: UnderstandRequest): Promise<Understood> {
    const miss = (reason: MissReason, heard: string | null = null, extra: Partial<Evidence> = {}, message: string = NOT_CAUGHT): Understood =>
      ({ ok: false, reason, message, heard, ...extra, verification: extra.verification ?? null, key_words: extra.key_words ?? [], margin: extra.margin ?? null });
    if (req.language !== 'english') return miss('unavailable', null, {}, 'pocketsphinx recognises English only.');
    const speech = await decodeSpeech(req.audio, { maxSeconds: this.opts.maxSeconds ?? DEFAULT_MAX_SECONDS });
    if (!speech.ok) return miss('bad_audio', null, {}, speech.message);
    const compact = compactSpeech(speech.samples);
    if (!compact) return miss('silence');
    let model: Model;
    let grammar: GrammarFiles;
    try {
      [model, grammar] = await Promise.all([this.#model(req.story, req.state, req.language), this.#grammar(req.story, req.state, req.language)]);
    } catch (err) {
      this.opts.log?.error({ err }, 'speech model failed');
      return miss('unavailable', null, {}, 'Speech recognition is unavailable right now: type your answer.');
    }
    const lead = Math.round(LEAD * STT_RATE);
    const pcm = new Int16Array(lead + compact.length + Math.round(TRAIL * STT_RATE));
    pcm.set(quiet(LEAD));
    pcm.set(compact, lead);
    pcm.set(quiet(TRAIL), lead + compact.length);
    const timeoutMs = (this.opts.timeoutMs ?? 5000) + 100 * (compact.length / STT_RATE);
    const dir = await this.#workDir();
    const audio = new DecodeAudio(pcm, dir);
    const started: Promise<unknown>[] = [];
    let hmm: string | undefined;
    try {
      // The persistent decoders normalise by the utterance's own mean themselves.
      if (this.opts.cmn !== 'live' && !this.native) hmm = await this.#normalised(audio, timeoutMs, dir);
      const ctx = { model, grammar, audio, timeoutMs, started, hmm, speechFrames: speechSpan(compact), front: [] as readonly string[] };
      const first = await this.#decide(req, ctx, miss);
      // Only a miss whose grammar heard a decision has a view of it (retry.ts retryMay): never silence or bad audio.
      if (first.ok || !retryMay(first.view ?? null)) return first;
      // Heard again with other front ends (retry.ts); the first try's miss unless one confirms what it half-heard.
      for (const front of this.opts.retryFronts ?? DEFAULT_RETRY_FRONTS) {
        const again = await this.#decide(req, { ...ctx, front }, miss);
        if (again.ok && retryHolds({ first: { view: first.view ?? null }, again: { view: again.view ?? null, authored: again.authored === true } })) return { ...again, front: front.join(' '), first: { reason: first.reason, view: first.view ?? null, margin: first.margin, heard_grammar: first.heard_grammar ?? null, heard_lm: first.heard_lm ?? null } };
      }
      return first;
    } finally {
      // The raw file (and the utterance's model directory) go once every decode of it is over (one started ahead of
      // need may still run).
      void Promise.allSettled(started).then(async () => {
        await audio.dispose();
        if (hmm) await rm(hmm, { recursive: true, force: true });
      });
    }
  }

  /**
   * The decodes an answer needs, in the order that costs least (a cascade): the exact grammar first; the phone loop
   * only when the grammar heard a decision (its margin decides), the language model only when what it hears could
   * change the outcome (an agreement where it lowers the threshold, or the words of a miss). The outcome is the same as
   * with all three decoded (evidence 'full', what the bench asks for); only the evidence fields of decodes not run are
   * left out (`agree`, `other`; a miss's verification). When the decoders are idle (at most half the slots busy), the
   * phone loop (and the language model when it may matter) starts beside the grammar, for the latency of one talker.
   */
  async #decide(req: UnderstandRequest, ctx: { model: Model; grammar: GrammarFiles; audio: DecodeAudio; timeoutMs: number; started: Promise<unknown>[]; hmm: string | undefined; speechFrames: number; front: readonly string[] }, miss: (reason: MissReason, heard?: string | null, extra?: Partial<Evidence>, message?: string) => Understood): Promise<Understood> {
    const { model, grammar, audio, timeoutMs, started, hmm } = ctx;
    const [dir, loopFiles] = await Promise.all([this.#workDir(), phoneLoopFiles()]);
    const t = this.#thresholds;
    const useGrammar = this.opts.decoders !== 'lm';
    const useLm = this.opts.decoders !== 'grammar';
    const eager = this.opts.evidence === 'full' || !useGrammar || Number.isFinite(t.alone);
    // The decodes of an utterance under way go before a newer utterance's first one (priority 1).
    // Started synchronously, so that the limiter counts it before the next decision about working ahead.
    const run = (files: DecodeFiles, lm: boolean, given: string[] | undefined, priority: number): Promise<BtUtterance[] | null> => {
      this.decodes++;
      const args = ctx.front.length > 0 ? [...(given ?? WIDE_BEAMS), ...ctx.front] : given;
      const p = this.#limiter.run(() => this.#decodeNow({ files, lm, ...(args ? { args } : {}), ...(hmm ? { modelDir: hmm } : {}) }, audio, timeoutMs, dir), priority).catch(() => null);
      started.push(p);
      return p;
    };
    const once = (f: () => Promise<BtUtterance[] | null>): (() => Promise<BtUtterance[] | null>) => {
      let p: Promise<BtUtterance[] | null> | null = null;
      return () => (p ??= f());
    };
    const loopOf = once(() => run(loopFiles, false, [], 1));
    // -lw 10 (default 6.5): the model's word orders weigh more than odd acoustic matches (tuning: +4 paraphrases of 260).
    const freeOf = once(() => (useLm ? run(model, true, ['-bestpath', 'no', ...(this.opts.decoderArgs ?? ['-lw', '10'])], 1) : Promise.resolve(null)));
    // Work ahead of need only with decoders to spare: half the slots for processes started per decode; with persistent
    // decoders (as many slots as processes), any idle one while nothing waits.
    const room = (): boolean => this.opts.ahead !== false && this.#limiter.hasRoom(this.native ? 0 : Math.floor(this.#limiter.limit / 2));
    const exactP = useGrammar ? run(grammar, false, undefined, 0) : Promise.resolve(null);
    // A second try (retry.ts) can only take one of the story's own sentences the exact grammar hears: nothing else is
    // decoded ahead of it, and without one it ends there.
    const retry = ctx.front.length > 0;
    if (eager) {
      void loopOf();
      void freeOf();
    } else if (room() && !retry) void loopOf();
    let exact = await exactP;
    let a = this.#heard(req, exact, grammar.decoys, grammar);
    // A decoy won: the same grammar without decoys, once more (policy.ts `rescuable`: its sentence must be about as
    // long as the speech).
    let rescue: { speech: number; phones: number; frames: number } | undefined;
    if (a.decoy && grammar.bareGram && this.opts.rescue !== false) {
      const bare = await run({ gram: grammar.bareGram, dict: grammar.dict }, false, undefined, 1);
      const second = this.#heard(req, bare, [], grammar);
      const path = (bare ?? []).flatMap((u) => u.words);
      const phones = path.reduce((n, w) => n + (grammar.phones.get(w.word) ?? 0), 0);
      if (second.decision) rescue = { speech: ctx.speechFrames, phones, frames: path.reduce((n, w) => n + w.end - w.start + 1, 0) };
      if (second.decision && rescuable(ctx.speechFrames, phones)) {
        exact = bare;
        a = { ...second, rescued: true };
      }
    }
    const rescued = a.rescued === true;
    if (retry && !(a.decision && a.authored) && !eager) return miss(a.text ? (a.reason ?? 'no_decision') : 'not_heard', a.text || null, { heard_grammar: a.text });
    const strict = a.decision ? endsRun(req.story, a.decision) : false;
    // The exact grammar's decision is taken at or above `sure` whatever the model hears, never below `never`; in
    // between, what the model hears decides (policy.ts).
    const bounds = grammarBounds(t, { strict, authored: a.authored, move: a.decision ? isMove(a.decision) : false, parts: a.decision ? hasParts(a.decision) : false });
    const modelMatters = useLm && (a.decision === null || bounds.never < bounds.sure);
    if (modelMatters && (eager || a.decision === null || room())) void freeOf();
    const firstLoop = a.decision || eager ? await loopOf() : null;
    if (a.decision) a = this.#fit(a, exact, firstLoop);
    const aMargin = a.margin ?? -Infinity;
    // Without the grammar's decision the model's words are what was heard. With it, the model counts between the two
    // bounds; above them too for a story sentence not heard whole, taken only if the model did not hear talk of its own
    // (policy.ts heardWhole); and below `sure` whenever the model's own story sentence may stand instead
    // (`model_sentence`).
    const notWhole = !strict && a.authored && !heardWhole(wordMargins(a), t.authored_small_talk_words);
    const modelSentenceMay = useLm && Number.isFinite(t.model_sentence) && !(aMargin >= bounds.sure);
    // A second try (retry.ts) is taken only when the model agrees: always decoded there.
    const needModel = eager || retry || a.decision === null || modelSentenceMay || (modelMatters && aMargin >= bounds.never && (!(aMargin >= bounds.sure) || notWhole));
    const free = needModel ? await freeOf() : null;
    if (exact === null && free === null && this.opts.decoders === undefined) return miss('unavailable', null, {}, 'Speech recognition is unavailable right now: type your answer.');
    const bHeard = this.#heard(req, free, []);
    // The exact grammar decoded and heard nothing at all: neither a sentence nor a decoy (policy.ts `model_unopposed`).
    const unopposed = exact !== null && useGrammar && !a.text;
    // How likely the stage's model finds its own words (policy.ts `model_fluent`).
    const fluency = bHeard.decision ? model.fluency(bHeard.text.split(' ')) : undefined;
    // The model's words are one of the story's own sentences here (policy.ts `model_sentence`).
    const sentence = bHeard.decision !== null && this.#authored(req, grammar, bHeard.text, bHeard.decision);
    // The model's decision alone is verified too (its own path against the loop), when it may be taken.
    const modelMay = Number.isFinite(neededMargin(t, { strict: false, source: 'lm', authored: false, model: 'unknown', unopposed, sentence, ...(fluency !== undefined ? { fluency } : {}) }));
    const loop = firstLoop ?? (bHeard.decision && modelMay ? await loopOf() : null);
    let b = this.#fit(bHeard, free, loop);
    // The language model's search scores on another scale than a grammar's: when what it heard alone may be taken, it
    // is aligned once more with a grammar of just those words, to be verified like the grammar's sentence.
    if (Number.isFinite(t.alone) && !a.decision && b.decision && loop) {
      const aligned = await this.#align(b.text, model, audio, timeoutMs, dir, hmm, ctx.front);
      b = aligned ? { ...this.#fit(this.#heard(req, aligned, []), aligned, loop), text: b.text } : { ...b, margin: null };
    }
    // Both decoders heard the same decision: strong evidence. Otherwise the exact grammar's, else the model's.
    const agree = Boolean(a.decision && b.decision && decisionKey(a.decision) === decisionKey(b.decision));
    const pick = a.decision ? a : b;
    const view: ModelView = !useLm || (free === null && !needModel) ? 'unknown' : this.#view(req, a, b, agree, pick === a);
    const heardText = pick.text || a.text || b.text;
    const texts = { heard_grammar: a.text, ...(free !== null || needModel ? { heard_lm: b.text } : {}), ...(rescue ? { rescue } : {}) };
    if (!pick.decision) return miss(heardText ? (pick.reason ?? 'no_decision') : 'not_heard', heardText || null, { verification: pick.verification, ...texts });
    const authored = pick === a && a.authored;
    // A generated move's names the model did not say are key words too (policy.ts namesUnheard).
    const words = pick.text.split(' ');
    const unheard = pick === a && free !== null && pick.verification?.words.length === words.length ? namesUnheard(req.story, req.state, words, pick.decision, authored, b.text).filter((i) => !pick.keyIndexes.includes(i)) : [];
    const margin = Math.min(pick.margin ?? -Infinity, ...unheard.map((i) => pick.verification?.words[i]?.margin ?? 0));
    const keyWords = [...pick.keyWords, ...unheard.map((i) => words[i] ?? '')];
    const needed = neededMargin(t, { strict: endsRun(req.story, pick.decision), source: pick === a ? 'grammar' : 'lm', authored, model: view, move: isMove(pick.decision), unopposed: pick === b && unopposed, sentence: pick === b && sentence, ...(pick === b && fluency !== undefined ? { fluency } : {}), ...(pick === a && free !== null ? { brief: isBrief(a.text, b.text) } : {}) });
    const fluent = fluency !== undefined ? { fluency: Math.round(fluency * 1000) / 1000 } : {};
    const extra: Partial<Evidence> = { verification: pick.verification, key_words: keyWords, margin: Number.isFinite(margin) ? margin : null, authored, source: pick === a ? ('grammar' as const) : ('lm' as const), ...(pick === a && rescued ? { rescued } : {}), ...(pick === b && unopposed ? { unopposed } : {}), ...fluent, ...texts };
    // Agreement is known only when the model was decoded.
    if (free !== null || needModel) Object.assign(extra, { agree, other: pick === a ? b.margin : a.margin, view });
    const taken = (text: string, ev: Partial<Evidence>): Understood => ({ ok: true, text, recogniser: 'pocketsphinx', ...ev, verification: ev.verification ?? null, key_words: ev.key_words ?? [], margin: ev.margin ?? null });
    // Small talk of the model's own: the grammar's story sentence must have been said whole, not only its key words.
    const whole = !(pick === a && authored && view === 'talk') || heardWhole(wordMargins(pick), t.authored_small_talk_words);
    if (margin >= needed && whole) return taken(pick.text, extra);
    // The grammar's decision not taken, and the model heard another in one of the story's own sentences: the model's
    // (policy.ts `model_sentence`).
    const other = pick === a && !agree && b.decision !== null && sentence && !endsRun(req.story, b.decision) && (b.margin ?? -Infinity) >= t.model_sentence;
    if (!other) return miss('unsure', pick.text, extra);
    return taken(b.text, { verification: b.verification, key_words: b.keyWords, margin: b.margin, authored: false, source: 'lm', ...fluent, ...texts, agree, other: a.margin, view });
  }

  /** What the model heard, seen from the grammar's decision (policy.ts ModelView). */
  #view(req: UnderstandRequest, a: Candidate, b: Candidate, agree: boolean, grammarPicked: boolean): ModelView {
    // A decision that ends the run is agreed only when the model heard most of its sentence's content words (policy.ts
    // heardMostly), else as if the model had heard no decision (never taken). Another story sentence "agreed" in none
    // of its own words: as if the model had heard no decision.
    if (agree && a.decision && endsRun(req.story, a.decision)) return heardMostly(a.text, b.text) && !namesAnother(req.story, req.state, b.text, a.decision) ? 'same' : 'none';
    if (agree) return a.authored && agreesElsewhere(a.text, b.text) ? 'none' : 'same';
    if (b.decision && a.decision) {
      if (partOf(req.story, req.state, b.text.split(' '), b.decision, a.decision)) return 'partial';
      // A story's bet or move the model heard with another part: no dispute when the model's words fit the audio worse
      // than the grammar's (policy.ts disputeHolds).
      return a.authored && hasParts(a.decision) && !disputeHolds(a.margin, b.margin) ? 'none' : 'other';
    }
    if (b.decision) return 'other';
    if (!grammarPicked || !elsewhere(a.text, b.text)) return 'none';
    return ownWords(b.text) ? 'talk' : 'elsewhere';
  }

  /** The utterance's own normalisation (cmn.ts): a model directory starting from its cepstral mean, read by a first
   *  cheap pass; undefined (live normalisation) when the pass failed. */
  async #normalised(audio: DecodeAudio, timeoutMs: number, dir: string): Promise<string | undefined> {
    this.decodes++;
    const files = await cmnPassFiles();
    const first = await this.#limiter.run(() => this.#decodeNow({ files, args: [] }, audio, timeoutMs, dir), 0).catch(() => null);
    const mean = first?.[0]?.cmn;
    if (!mean || mean.length === 0 || mean.some((v) => !Number.isFinite(v))) return undefined;
    return cmnModelDir(this.#modelDir, mean, dir).catch(() => undefined);
  }

  /** The audio aligned with exactly these words (a one-sentence grammar), for their acoustic scores. */
  async #align(text: string, model: Model, pcm: DecodeAudio, timeoutMs: number, dir: string, hmm: string | undefined, front: readonly string[]): Promise<BtUtterance[] | null> {
    const gram = join(dir, `${randomUUID()}.gram`);
    await writeFile(gram, `#JSGF V1.0;\ngrammar align;\npublic <s> = ${text};\n`);
    try {
      return await this.#limiter.run(() => this.#decodeNow({ files: { gram, dict: model.dict }, ...(front.length > 0 ? { args: [...WIDE_BEAMS, ...front] } : {}), ...(hmm ? { modelDir: hmm } : {}) }, pcm, timeoutMs, dir), 1);
    } finally {
      await rm(gram, { force: true });
    }
  }

  /** What one decoder heard: its words and their decision here (how well they fit the audio comes from #fit). */
  #heard(req: UnderstandRequest, said: BtUtterance[] | null, decoys: readonly string[], grammar?: Pick<GrammarFiles, 'authored' | 'nearAuthored' | 'sounds'>): Candidate {
    const none: Candidate = { text: '', decision: null, keyWords: [], keyIndexes: [], decoy: false, margin: null, verification: null, reason: null, authored: false };
    if (!said) return none;
    const text = cleanHypothesis(said.map((u) => u.hyp).join(' '));
    if (!text) return none;
    if (decoys.includes(text)) return { ...none, text, decoy: true, reason: 'no_decision' };
    const decision = decideTyped(req.story, req.state, text);
    if (!decidesHeard(req.story, req.state, text, decision)) return { ...none, text, reason: 'no_decision' };
    const words = text.split(' ');
    const isAuthored = grammar ? this.#authored(req, grammar, text, decision) : false;
    const keys = keyWordsHeard(req.story, req.state, words, decision, keyWordRule(this.opts.keyWords ?? DEFAULT_KEY_WORDS, isAuthored), isAuthored);
    return { ...none, text, decision, keyWords: keys.map((i) => words[i] ?? ''), keyIndexes: keys, authored: isAuthored };
  }

  /** Whether a sentence heard is one of the story's own: the same words (sound-alikes aside), or, deciding the same,
   *  the same with some articles left out or with one content word said otherwise (policy.ts oneWordSwapped). */
  #authored(req: UnderstandRequest, g: Pick<GrammarFiles, 'authored' | 'nearAuthored' | 'sounds'>, text: string, decision: Decision): boolean {
    const alike = sayAlike(g.sounds, text);
    if (g.authored.has(alike)) return true;
    const near = (g.nearAuthored.get(withoutArticles(alike)) ?? []).filter((t) => articlesDropped(sayAlike(g.sounds, t), alike));
    const key = decisionKey(decision);
    if (near.some((t) => decisionKey(decideTyped(req.story, req.state, t)) === key)) return true;
    return [...g.authored].some((t) => oneWordSwapped(t, alike) && decisionKey(decideTyped(req.story, req.state, t)) === key);
  }

  /** How well a candidate's words fit the audio against the phone loop: its key words' least margin. */
  #fit(c: Candidate, said: BtUtterance[] | null, loop: BtUtterance[] | null): Candidate {
    if (!said || !c.text || c.decoy) return c;
    const v = loop ? verify(said, loop) : null;
    if (!c.decision) return { ...c, verification: v };
    // Margins of the key words (the verification lists the hypothesis's words in the same order).
    const fits = v && v.words.length === c.text.split(' ').length ? c.keyIndexes.map((i) => v.words[i]?.margin ?? 0) : [];
    const margin = fits.length ? Math.min(...fits) : v ? v.speech : null;
    return { ...c, margin, verification: v };
  }

  #workDir(): Promise<string> {
    this.#dir ??= mkdtemp(join(tmpdir(), 'looptale-understanding-'));
    return this.#dir;
  }

  /** The stage's exact grammar: what is speakable here (say sentences, generated patterns) and the decoys. */
  #grammar(story: Story, state: GameState, language: PlayLanguage): Promise<GrammarFiles> {
    const spoken = speakable(story, state, language);
    const patterns = spoken.map((p) => ({ parts: p.parts }));
    const authored = new Set(spoken.filter((p) => p.authored).map((p) => phraseWords(p.example).join(' ')));
    const decoys = this.opts.decoys === false ? [] : storyDecoys(story, language);
    const key = createHash('sha256').update(JSON.stringify([patterns, decoys])).digest('hex').slice(0, 16);
    const hit = this.#grammars.get(key);
    if (hit) return hit;
    const made = (async () => {
      const dir = await this.#workDir();
      const lexicon = await loadLexicon(join(this.#modelDir, 'cmudict-en-us.dict'));
      const g = await buildGrammar({ patterns, vocabulary: [], decoys, builtinDecoys: this.opts.decoys !== false, lexicon, speller: this.opts.speller === undefined ? espeakSpeller : this.opts.speller });
      const sounds = soundAlikes(g.dict);
      const nearAuthored = new Map<string, string[]>();
      for (const t of authored) {
        const k = withoutArticles(sayAlike(sounds, t));
        nearAuthored.set(k, [...(nearAuthored.get(k) ?? []), t]);
      }
      const files: GrammarFiles = { ...g, authored: new Set([...authored].map((t) => sayAlike(sounds, t))), nearAuthored, sounds, gram: join(dir, `${g.key}.gram`), dict: join(dir, `${g.key}.dict`), bareGram: g.bare === null ? null : join(dir, `${g.key}.bare.gram`) };
      await writeFile(files.gram, g.jsgf);
      if (files.bareGram !== null && g.bare !== null) await writeFile(files.bareGram, g.bare);
      await writeFile(files.dict, g.dict);
      return files;
    })();
    made.catch(() => this.#grammars.delete(key));
    this.#grammars.set(key, made);
    while (this.#grammars.size > MAX_MODELS) {
      const oldest = this.#grammars.keys().next().value;
      if (oldest === undefined) break;
      this.#grammars.delete(oldest);
    }
    return made;
  }

  /** The stage's language model and dictionary, built once per corpus (least recently used dropped). */
  #model(story: Story, state: GameState, language: PlayLanguage): Promise<Model> {
    const corpus = listenCorpus(story, state, language, { decoys: storyDecoys(story, language), ...(this.opts.samples ? { samples: this.opts.samples } : {}), ...(this.opts.weights ? { weights: this.opts.weights } : {}) });
    const key = createHash('sha256').update(corpus.sentences.join('\n')).digest('hex').slice(0, 16);
    const hit = this.#models.get(key);
    if (hit) {
      this.#models.delete(key);
      this.#models.set(key, hit);
      return hit;
    }
    const made = (async () => {
      const dir = await this.#workDir();
      const lexicon = await loadLexicon(join(this.#modelDir, 'cmudict-en-us.dict'));
      const sentences = corpus.sentences.map((s) => phraseWords(s));
      const d = await buildDictionary(sentences.flat(), lexicon, this.opts.speller === undefined ? espeakSpeller : this.opts.speller);
      if (d.dropped.length) this.opts.log?.info({ dropped: d.dropped }, 'words without a pronunciation left out of the speech model');
      // A sentence with a word that cannot be pronounced is left out whole.
      const usable = sentences.filter((ws) => ws.length > 0 && ws.every((w) => d.known.has(w)));
      const arpa = buildArpa(usable);
      const files: Model = { key, words: d.known, gram: join(dir, `${key}.arpa`), dict: join(dir, `${key}.dict`), fluency: arpaScorer(arpa) };
      await writeFile(files.gram, arpa);
      await writeFile(files.dict, d.dict);
      return files;
    })();
    made.catch(() => this.#models.delete(key));
    this.#models.set(key, made);
    while (this.#models.size > MAX_MODELS) {
      const oldest = this.#models.keys().next().value;
      if (oldest === undefined) break;
      this.#models.delete(oldest);
    }
    return made;
  }

  async close(): Promise<void> {
    this.standby?.close();
    await this.native?.close();
    const dir = this.#dir;
    this.#dir = null;
    if (dir) await rm(await dir, { recursive: true, force: true });
  }
}

/** For the voice-understanding bench (scripts/bench/voice-understanding.ts): BENCH_VU_OPTS may hold a JSON of
 *  UnderstandingOptions to try (thresholds, decoder flags). */
export async function createBenchUnderstander(): Promise<{
  name: string;
  understand(story: Story, state: GameState, wav: Uint8Array): Promise<{ ok: true; text: string; features?: Record<string, number | string | null> } | { ok: false; heard: string | null; reason: string; features?: Record<string, number | string | null> }>;
  close(): Promise<void>;
}> {
  const opts = JSON.parse(process.env.BENCH_VU_OPTS ?? '{}') as UnderstandingOptions;
  // A generous deadline by default: the bench measures what is understood, and its latency apart (a decode cut short
  // on a busy machine would count as not caught). Every decode, for the tuning features (BENCH_VU_OPTS
  // '{"evidence":"needed"}' runs the server's cascade: the same outcomes, fewer features).
  // The engine the server would use (POCKETSPHINX_ENGINE; auto: the persistent decoders when built).
  const native = opts.native ?? (await engineOption());
  const u: SpeechUnderstanding = new SpeechUnderstanding({ timeoutMs: 120_000, evidence: 'full', ...opts, ...(native ? { native } : {}), ...benchDecodeCache(native, () => u) });
  return {
    name: `pocketsphinx (${native ? 'persistent looptale-asr decoders' : 'pocketsphinx_continuous per decode'}), the stage's language model, brain gate, phone-loop verification of the key words`,
    async understand(story, state, wav) {
      const r = await u.understand({ story, state, language: 'english', audio: { bytes: wav, format: 'wav' } });
      const features: Record<string, number | string | null> = {
        margin: r.margin, view: r.view ?? null, rescued: r.rescued ? 1 : 0, unopposed: r.unopposed ? 1 : 0, fluency: r.fluency ?? null, agree: r.agree === undefined ? null : r.agree ? 1 : 0, authored: r.authored === undefined ? null : r.authored ? 1 : 0, other: r.other ?? null, source: r.source ?? null, utterance: r.verification?.utterance ?? null, speech: r.verification?.speech ?? null, frames: r.verification?.frames ?? null,
        key_words: r.key_words.join(' '), words: r.verification?.words.map((w) => `${w.word}:${w.margin}`).join(' ') ?? null,
        gaps: r.verification?.gaps.map((w) => `${w.word}:${w.frames}:${w.margin}`).join(' ') ?? null,
        grammar: r.heard_grammar ?? null, lm: r.heard_lm ?? null,
        r_speech: r.rescue?.speech ?? null, r_phones: r.rescue?.phones ?? null, r_frames: r.rescue?.frames ?? null,
        front: r.front ?? null, first_reason: r.first?.reason ?? null, first_view: r.first?.view ?? null, first_margin: r.first?.margin ?? null, first_grammar: r.first?.heard_grammar ?? null, first_lm: r.first?.heard_lm ?? null,
        ends_run: r.ok || r.reason === 'unsure' ? (endsRun(story, decideTyped(story, state, r.ok ? r.text : r.heard ?? '')) ? 1 : 0) : null,
      };
      return r.ok ? { ok: true, text: r.text, features } : { ok: false, heard: r.heard, reason: r.reason, features };
    },
    close: () => u.close(),
  };
}

/** A bench's understanding with BENCH_VU_DECODE_CACHE=<dir> set: its decodes through `cachedDecode`, keyed by the
 *  engine (`self`, the understanding being made, decodes what the cache does not hold); nothing when it is unset. */
export function benchDecodeCache(native: { binary: string } | null, self: () => SpeechUnderstanding): Pick<UnderstandingOptions, 'decode'> {
  const dir = process.env.BENCH_VU_DECODE_CACHE;
  if (!dir) return {};
  // BENCH_VU_CACHE_ENGINE: another build's name to key by, when a change of looptale-asr.c leaves its decodes as they
  // were (checked by decoding a set afresh and comparing).
  const engine = process.env.BENCH_VU_CACHE_ENGINE ?? native?.binary.split('/').pop() ?? '';
  return { decode: cachedDecode(dir, native ? { engine: `native:${engine}`, decode: (...a) => self().nativeDecode(...a) } : undefined) };
}

/** The bench's decodes kept on disk (BENCH_VU_DECODE_CACHE=<dir>), keyed by the grammar or model, the dictionary,
 *  the flags and the audio: a second run that changes only the policy (thresholds, key words) decodes nothing again.
 *  Only for the bench: a decode depends on nothing else (a fresh process, a fixed dither seed). */
export function cachedDecode(dir: string, inner?: { engine: string; decode: DecodeFn }): DecodeFn {
  // A decode's words and scores depend on the decoder: keyed by it, so that two engines' decodes never mix
  // (pocketsphinx_continuous's keys are those of before, so that a cache of them stays valid).
  const engine: string[] = inner ? [inner.engine] : [];
  const hashes = new Map<string, string>();
  const fileHash = async (path: string): Promise<string> => {
    let h = hashes.get(path);
    if (!h) hashes.set(path, (h = createHash('sha256').update(await readFile(path)).digest('hex')));
    return h;
  };
  return async (modelDir, files, pcm, opts) => {
    const key = createHash('sha256')
      // An utterance's normalised model directory (cmn.ts) is a new path each time: keyed by its feat.params.
      .update(JSON.stringify([...engine, /[/\\]cmn-[^/\\]+$/.test(modelDir) ? `feat:${createHash('sha256').update(await readFile(join(modelDir, 'en-us', 'feat.params'))).digest('hex')}` : modelDir, await fileHash(files.gram), await fileHash(files.dict), opts.lm ?? false, opts.args ?? null]))
      .update(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength)).digest('hex');
    const path = join(dir, key.slice(0, 2), `${key}.json`);
    try {
      return JSON.parse(await readFile(path, 'utf8')) as BtUtterance[] | null;
    } catch {
      const r = await (inner ? inner.decode(modelDir, files, pcm, opts) : decodeOnce(modelDir, files, pcm, opts));
      // A failed decode (null: a deadline on a busy machine) is not kept.
      if (r) {
        await mkdir(join(dir, key.slice(0, 2)), { recursive: true });
        await writeFile(path, JSON.stringify(r));
      }
      return r;
    }
  };
}
