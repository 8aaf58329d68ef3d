// Voice benchmark: recognition accuracy and latency over the audio fixtures (each recogniser mode), false accepts
// on out-of-story speech, eSpeak time per sentence, MP3 encoding time. Prints JSON.
//   npx tsx server/voice/bench.ts [--dir fixtures/audio] [--modes hybrid,long-lived,per-request]
// The measuring code is exported (measureRecognition, measureSynthesis) for `npm run bench -- voice`
// (scripts/bench/voice.ts); the command line above only runs when this file is the entry point.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { momentSpeech } from '../game/vocabulary.js';
import { decodeSpeech, resample, toFloat32, toInt16 } from './audio.js';
import { EspeakSynthesizer } from './espeak.js';
import { EspeakEngine } from './espeak-engine.js';
import { decisionKey, loadFixtureStory, stateBeforeLine } from './fixture-lines.js';
import { encodeMp3, loadMp3Encoder } from './mp3.js';
import type { GameState } from '../../engine/run/state.js';
import type { Story } from '../../engine/story/format.js';
import { PocketsphinxTranscriber, type PocketsphinxMode } from './pocketsphinx.js';
import { benchDecodeCache, endsRun, SpeechUnderstanding, type Understood, type UnderstandingOptions } from './understanding.js';
import { DEFAULT_THRESHOLDS, isMove, neededMargin } from './policy.js';
import { decideTyped } from '../../engine/brain/speakable.js';
import { momentStage } from '../../engine/moments/stage.js';
import { describeDecision } from './lint-speech.js';
import { engineOption } from './native-asr.js';
import { encodeWav } from './wav.js';

export type Clip = { file: string; format: 'wav' | 'mp3'; voice: string; text: string; story: string; plan: string; line: number; clipSeconds: number };
/** The transcriber's modes (pocketsphinx.ts), or what the server hears with: 'understanding' (understanding.ts, its
 *  cascade of decodes) and 'understanding-full' (the same with all three decodes every time: the same outcomes). */
export type RecognizerMode = 'hybrid' | 'long-lived' | 'per-request' | 'understanding' | 'understanding-full';
export const RECOGNIZER_MODES: readonly RecognizerMode[] = ['hybrid', 'long-lived', 'per-request', 'understanding', 'understanding-full'];

const OUT_OF_STORY = ['Banana pancakes tomorrow', 'I like to watch football on television', 'My cat is sleeping on the sofa', 'Can you play some music please', 'Turn off the computer'];

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? 0);
};

/** The English clips of the audio fixtures (fixtures/audio/<story>/en/*.json sidecars), WAV and MP3. */
export function clips(dir: string): Clip[] {
  const out: Clip[] = [];
  for (const story of readdirSync(dir).sort()) {
    const en = join(dir, story, 'en');
    let files: string[];
    try {
      files = readdirSync(en).filter((f) => f.endsWith('.json')).sort();
    } catch {
      continue;
    }
    for (const f of files) {
      const meta = JSON.parse(readFileSync(join(en, f), 'utf8')) as { text: string; plan: string; line: number; seconds: number; voice: { id: string }; files: Record<string, string> };
      for (const format of ['wav', 'mp3'] as const) {
        const file = meta.files[format];
        if (file) out.push({ file: join(en, file), format, voice: meta.voice.id, text: meta.text, story, plan: meta.plan, line: meta.line, clipSeconds: meta.seconds });
      }
    }
  }
  return out;
}

export type RecognitionOptions = {
  /** The audio fixtures (fixtures/audio). */
  dir: string;
  /** The fixture stories (fixtures/stories). */
  storiesDir: string;
  modes: readonly RecognizerMode[];
  poolSize?: number;
  /** Progress lines (stderr). */
  progress?: (msg: string) => void;
};

/** A clip's outcome: the same decision as the typed line (`right`), none (`not_caught`: the recogniser or the
 *  understanding's gate heard nothing it would take, or words deciding nothing), or another one (`wrong`: a confusion,
 *  the dangerous kind). */
export type ClipOutcome = 'right' | 'not_caught' | 'wrong';

/** A clip not heard right, and what the recogniser (and, in the understanding modes, its evidence) made of it. */
export type Miss = {
  outcome: Exclude<ClipOutcome, 'right'>;
  /** The voice and format of the clip (`m7-200-35.mp3`), and its file under the fixtures' folder. */
  voice: string;
  file: string;
  text: string;
  expected: string;
  /** The words taken ('' when none), and what the brain decides from them. */
  heard: string;
  got: string;
  /** The understanding modes: why it missed (understanding.ts MissReason), the words it weighed, its margin and the
   *  margin needed, what each decoder heard and what the model's words were seen as (policy.ts ModelView). */
  reason?: string;
  considered?: string | null;
  margin?: number | null;
  needed?: number | 'never' | null;
  view?: string;
  source?: string;
  authored?: boolean;
  /** Heard by the grammar's second pass without decoys (understanding.ts `rescue`). */
  rescued?: boolean;
  key_words?: string[];
  heard_grammar?: string;
  heard_lm?: string;
};

export type ModeResult = {
  accuracy: number;
  right: number;
  /** Clips nothing was taken from (or words deciding nothing). */
  not_caught: number;
  /** Clips heard as another decision than the typed line's. */
  confusions: number;
  clips: number;
  by_voice: Record<string, string>;
  by_voice_accuracy: Record<string, number>;
  /** Right, not caught and wrong, by voice and format. */
  by_voice_outcomes: Record<string, { right: number; not_caught: number; wrong: number; clips: number }>;
  /** Every clip not heard right, confusions first. */
  misses: Miss[];
  latency_ms: { p50: number; p90: number; max: number };
  /** Recognition time / audio seconds (the decoded clip, its 1 s of silence included), over all clips. */
  real_time_factor: number;
  real_time_factor_by_clip: { p50: number; p90: number; max: number };
  out_of_story_false_accepts: string;
  out_of_story_false_accept_count: number;
  out_of_story_tries: number;
  /** The out-of-story tries that made the brain match something: the sentence, the moment, the words taken. */
  out_of_story_accepted: { text: string; moment: string; heard: string; got: string; margin?: number | null; view?: string }[];
  processes_started: number;
  /** Understanding modes: which decoder ran (POCKETSPHINX_ENGINE: native when built, else continuous). */
  engine?: string;
  /** pocketsphinx decodes (the normalisation pass of the continuous engine counted) per answer tried. */
  decodes_per_answer?: number;
  /** CPU time of this process and its recogniser processes over the mode (clips and out-of-story tries), per answer. */
  cpu_ms_per_answer?: number;
  /** Native engine: the decoders' own CPU time for their decodes, per answer. */
  decoder_cpu_ms_per_answer?: number;
};

/** CPU time (ms) of this process and of its children that have exited (/proc/self/stat cutime + cstime). */
function cpuMs(): number {
  const self = process.cpuUsage();
  let children = 0;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields after the command: state is 3, so cutime (16) and cstime (17) are at 13 and 14.
    children = ((Number(f[13]) || 0) + (Number(f[14]) || 0)) * 10;
  } catch {
    // Not Linux: this process alone.
  }
  return (self.user + self.system) / 1000 + children;
}

const r3 = (v: number): number => Math.round(v * 1000) / 1000;
const pct3 = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return r3(s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? 0);
};

/** Whether the brain decides something from these words at this moment (not what it does on no words at all). */
function decidesSomething(c: { story: Story; state: GameState }, heard: string): boolean {
  return decisionKey(c.story, c.state, heard) !== decisionKey(c.story, c.state, '');
}

/** The name of the moment a state is in (for the out-of-story list). */
function momentName(story: Story, state: GameState): string {
  const { moment, stage } = momentStage(story, state);
  return `${moment?.name.en ?? '?'}${stage ? ` (${stage})` : ''}`;
}

/**
 * Recognises every English clip of the fixtures with pocketsphinx in each mode, with the grammar of the moment the
 * clip is said in (its sentences, vocabulary and decoys), and counts a clip right when the scripted brain decides
 * the same from the recognised words as from the typed line. Also tries out-of-story sentences (eSpeak, clean voice)
 * in every moment: a false accept is one that makes the brain match something.
 */
export async function measureRecognition(opts: RecognitionOptions): Promise<Record<string, unknown>> {
  const { dir, storiesDir, modes } = opts;
  const all = clips(dir);
  const stories = new Map(['lantern-keeper', 'clockwork-siege'].map((s) => [s, loadFixtureStory(storiesDir, s)]));
  const contexts = await Promise.all(all.map(async (c) => {
    const story = stories.get(c.story);
    if (!story) throw new Error(`unknown story ${c.story}`);
    const state = stateBeforeLine(storiesDir, story, c.story, c.plan, c.line);
    const bytes = readFileSync(c.file);
    const decoded = await decodeSpeech({ bytes, format: c.format });
    const audioSeconds = decoded.ok ? decoded.seconds : c.clipSeconds;
    return { clip: c, bytes, audioSeconds, story, state, ...momentSpeech(story, state, 'english') };
  }));
  const report: Record<string, unknown> = { clips: all.length, dir };

  // Out-of-story sentences, spoken by the clean fixture voice, tried in every moment the clips are said in.
  const engine = await EspeakEngine.create({ fresh: true });
  const oos = OUT_OF_STORY.map((text) => {
    const pcm = toFloat32(engine.synth(text, { voice: 'en-us+m3', rate: 175, pitch: 50, range: 50, volume: 100 }));
    const padded = new Float32Array(pcm.length + 22050);
    padded.set(pcm, 11025);
    return { text, wav: encodeWav(toInt16(resample(padded, 22050, 16000)), 16000) };
  });
  const moments = [...new Map(contexts.map((c) => [JSON.stringify(c.vocabulary), c])).values()];

  // BENCH_VU_OPTS (JSON of UnderstandingOptions, as for the voice-understanding bench) tries other settings.
  const extraOpts = JSON.parse(process.env.BENCH_VU_OPTS ?? '{}') as UnderstandingOptions;
  for (const mode of modes) {
    opts.progress?.(`recognition (${mode}): ${contexts.length} clips, ${oos.length * moments.length} out-of-story tries`);
    const cpu0 = cpuMs();
    const native = mode === 'understanding' || mode === 'understanding-full' ? await engineOption() : null;
    // BENCH_VU_DECODE_CACHE=<dir> (as for the voice-understanding bench): decodes kept on disk, so that a run changing
    // only the policy decodes nothing again (tuning; never for the figures of record).
    const understand = (): SpeechUnderstanding => {
      const u: SpeechUnderstanding = new SpeechUnderstanding({
        concurrency: 2 * (opts.poolSize ?? 2), timeoutMs: 60_000, ...(native ? { native } : {}), ...(mode === 'understanding-full' ? { evidence: 'full' as const } : {}), ...extraOpts,
        ...benchDecodeCache(native, () => u),
      });
      return u;
    };
    const understanding = mode === 'understanding' || mode === 'understanding-full' ? understand() : null;
    const thresholds = { ...DEFAULT_THRESHOLDS, ...extraOpts.thresholds };
    const stt = new PocketsphinxTranscriber({ mode: understanding ? 'per-request' : (mode as PocketsphinxMode), poolSize: opts.poolSize ?? 2 });
    // The words heard ('' for a miss) in a moment, and the understanding's account of it.
    const hear = async (c: { story: Story; state: GameState; sentences: readonly string[]; vocabulary: readonly string[]; decoys: readonly string[] }, bytes: Uint8Array, format: 'wav' | 'mp3'): Promise<{ heard: string; why: Understood | null }> => {
      if (understanding) {
        const r = await understanding.understand({ story: c.story, state: c.state, language: 'english', audio: { bytes, format } });
        return { heard: r.ok ? r.text : '', why: r };
      }
      const r = await stt.transcribe({ audio: { bytes, format }, language: 'english', sentences: c.sentences, vocabulary: c.vocabulary, decoys: c.decoys });
      return { heard: r.ok ? r.text : '', why: null };
    };
    // The evidence of an understanding's outcome, for a miss; the margin its decision needed, from policy.ts (with the
    // model's view 'unknown' when the cascade did not decode the model: understanding-full decodes it every time).
    const evidenceOf = (c: { story: Story; state: GameState }, why: Understood | null): Partial<Miss> => {
      if (!why) return {};
      const r2 = (v: number | null | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v * 10) / 10 : null);
      const words = why.ok ? why.text : why.heard;
      const d = words ? decideTyped(c.story, c.state, words) : null;
      const needed = d && why.source ? neededMargin(thresholds, { strict: endsRun(c.story, d), source: why.source, authored: why.authored ?? false, model: why.view ?? 'unknown', move: isMove(d), unopposed: why.unopposed ?? false, ...(why.source === 'lm' && why.fluency !== undefined ? { fluency: why.fluency } : {}) }) : null;
      return {
        needed: needed === null ? null : Number.isFinite(needed) ? needed : 'never',
        ...(why.ok ? {} : { reason: why.reason, considered: why.heard }),
        margin: r2(why.margin),
        ...(why.view !== undefined ? { view: why.view } : {}),
        ...(why.source !== undefined ? { source: why.source } : {}),
        ...(why.authored !== undefined ? { authored: why.authored } : {}),
        ...(why.rescued ? { rescued: true } : {}),
        key_words: why.key_words,
        ...(why.heard_grammar !== undefined ? { heard_grammar: why.heard_grammar } : {}),
        ...(why.heard_lm !== undefined ? { heard_lm: why.heard_lm } : {}),
      };
    };
    try {
      for (const m of moments) {
        if (understanding) await understanding.prepare(m.story, m.state, 'english');
        else await stt.prepare(m);
      }
      const latency: number[] = [];
      const rtf: number[] = [];
      let recognitionMs = 0;
      let audioSeconds = 0;
      const byVoice: Record<string, { right: number; not_caught: number; wrong: number; clips: number }> = {};
      const misses: Miss[] = [];
      for (const c of contexts) {
        const t0 = performance.now();
        const { heard, why } = await hear(c, c.bytes, c.clip.format);
        const ms = performance.now() - t0;
        latency.push(ms);
        rtf.push(ms / 1000 / c.audioSeconds);
        recognitionMs += ms;
        audioSeconds += c.audioSeconds;
        const want = decisionKey(c.story, c.state, c.clip.text);
        const got = decisionKey(c.story, c.state, heard);
        // Another decision: the words heard make the brain decide something, and not what the typed line decides.
        const outcome: ClipOutcome = got === want ? 'right' : heard !== '' && decidesSomething(c, heard) ? 'wrong' : 'not_caught';
        const k = `${c.clip.voice}.${c.clip.format}`;
        byVoice[k] ??= { right: 0, not_caught: 0, wrong: 0, clips: 0 };
        byVoice[k].clips++;
        byVoice[k][outcome]++;
        if (outcome !== 'right') {
          misses.push({
            outcome, voice: k, file: relative(dir, c.clip.file), text: c.clip.text,
            expected: describeDecision(c.story, c.state, c.clip.text), heard, got: heard === '' ? 'nothing' : describeDecision(c.story, c.state, heard),
            ...evidenceOf(c, why),
          });
        }
      }
      misses.sort((a, b) => (a.outcome === b.outcome ? 0 : a.outcome === 'wrong' ? -1 : 1));
      const total = (o: ClipOutcome): number => Object.values(byVoice).reduce((n, v) => n + v[o], 0);
      const right = total('right');
      let falseAccepts = 0;
      let tries = 0;
      const accepted: ModeResult['out_of_story_accepted'] = [];
      for (const o of oos) {
        for (const m of moments) {
          const { heard, why } = await hear(m, o.wav, 'wav');
          tries++;
          // A false accept: the words heard make the brain match something (an answer, branch, name...).
          const matched = (JSON.parse(decisionKey(m.story, m.state, heard)) as unknown[])[0];
          if (matched !== '' && decidesSomething(m, heard)) {
            falseAccepts++;
            const ev = evidenceOf(m, why);
            accepted.push({ text: o.text, moment: momentName(m.story, m.state), heard, got: describeDecision(m.story, m.state, heard), ...(ev.margin !== undefined ? { margin: ev.margin } : {}), ...(ev.view !== undefined ? { view: ev.view } : {}) });
          }
        }
      }
      const result: ModeResult = {
        accuracy: r3(right / contexts.length),
        right,
        not_caught: total('not_caught'),
        confusions: total('wrong'),
        clips: contexts.length,
        by_voice: Object.fromEntries(Object.entries(byVoice).map(([k, v]) => [k, `${v.right}/${v.clips}`])),
        by_voice_accuracy: Object.fromEntries(Object.entries(byVoice).map(([k, v]) => [k, r3(v.right / v.clips)])),
        by_voice_outcomes: byVoice,
        misses,
        latency_ms: { p50: pct(latency, 0.5), p90: pct(latency, 0.9), max: pct(latency, 1) },
        real_time_factor: r3(recognitionMs / 1000 / Math.max(1e-9, audioSeconds)),
        real_time_factor_by_clip: { p50: pct3(rtf, 0.5), p90: pct3(rtf, 0.9), max: pct3(rtf, 1) },
        out_of_story_false_accepts: `${falseAccepts}/${tries}`,
        out_of_story_false_accept_count: falseAccepts,
        out_of_story_tries: tries,
        out_of_story_accepted: accepted,
        processes_started: understanding ? (understanding.native ? understanding.native.spawned : understanding.decodes) : stt.spawned,
      };
      if (understanding) {
        const answers = contexts.length + tries;
        await understanding.close();
        // The decoders have exited (killed and reaped): their CPU time is now in this process's children's.
        await new Promise((r) => setTimeout(r, 200));
        Object.assign(result, {
          engine: understanding.native ? `native (looptale-asr, ${understanding.native.opts.size} processes)` : 'continuous (pocketsphinx_continuous per decode)',
          decodes_per_answer: r3(understanding.decodes / answers),
          cpu_ms_per_answer: Math.round((cpuMs() - cpu0) / answers),
          ...(understanding.native ? { decoder_cpu_ms_per_answer: Math.round(understanding.native.cpuMs / answers) } : {}),
        });
      }
      report[mode] = result;
    } finally {
      await stt.close();
      await understanding?.close();
    }
  }
  return report;
}

/** The texts of the fixture clips (one per line said), in order: what the synthesis benchmark speaks. */
export function fixtureLines(dir: string): string[] {
  return [...new Set(clips(dir).map((c) => c.text))];
}

/**
 * Text to speech with the eSpeak synthesizer (its worker, MP3 per sentence), warm: each line is spoken once to warm
 * up, then `rounds` more times. Real-time factor = synthesis time / seconds of audio produced (and with the MP3
 * encoding added); first-chunk time is from asking to the first MP3 chunk of the line.
 */
export async function measureSynthesis(lines: readonly string[], rounds = 1): Promise<Record<string, unknown>> {
  const tts = new EspeakSynthesizer();
  try {
    await tts.ready;
    const firstChunk: number[] = [];
    const synthMs: number[] = [];
    const encodeMs: number[] = [];
    const seconds: number[] = [];
    const wallMs: number[] = [];
    for (let round = 0; round <= rounds; round++) {
      for (const text of lines) {
        // timings lists the latest sentences made: emptied first, it holds this line's alone (a line is short).
        tts.timings.length = 0;
        const t0 = performance.now();
        let first = -1;
        for await (const _chunk of tts.speak({ text, language: 'english', emotion: 'normal', intensity: 1, speaker: text })) {
          if (first < 0) first = performance.now() - t0;
        }
        const wall = performance.now() - t0;
        if (round === 0) continue;
        const mine = [...tts.timings];
        if (first >= 0) firstChunk.push(first);
        wallMs.push(wall);
        for (const t of mine) {
          synthMs.push(t.synthMs);
          encodeMs.push(t.encodeMs);
          seconds.push(t.seconds);
        }
      }
    }
    const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
    const audioS = Math.max(1e-9, sum(seconds));
    return {
      lines: lines.length,
      rounds,
      sentences: seconds.length,
      audio_seconds: r3(audioS),
      /** Synthesis time / seconds of audio produced. */
      real_time_factor: r3(sum(synthMs) / 1000 / audioS),
      real_time_factor_with_mp3: r3((sum(synthMs) + sum(encodeMs)) / 1000 / audioS),
      /** Wall time of whole lines (queueing and the worker round trip included) / their seconds of audio. */
      real_time_factor_wall: r3(sum(wallMs) / 1000 / audioS),
      synth_ms_per_sentence: { p50: pct(synthMs, 0.5), p90: pct(synthMs, 0.9), max: pct(synthMs, 1) },
      mp3_encode_ms_per_sentence: { p50: pct(encodeMs, 0.5), p90: pct(encodeMs, 0.9) },
      first_chunk_ms: { p50: pct(firstChunk, 0.5), p90: pct(firstChunk, 0.9), max: pct(firstChunk, 1) },
      sentence_seconds_p50: r3(pct(seconds.map((s) => s * 1000), 0.5) / 1000),
    };
  } finally {
    await tts.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const arg = (name: string, dflt: string): string => {
    const i = argv.indexOf(name);
    return i >= 0 ? (argv[i + 1] ?? dflt) : dflt;
  };
  const dir = resolve(arg('--dir', 'fixtures/audio'));
  const storiesDir = resolve('fixtures/stories');
  const modes = arg('--modes', 'hybrid,long-lived,per-request').split(',') as RecognizerMode[];
  const report = await measureRecognition({ dir, storiesDir, modes });

  // Text to speech: warm eSpeak in its worker, per sentence (20 fixture lines, twice after a warm-up round).
  const lines = clips(dir).slice(0, 20).map((c) => c.text);
  report.tts = await measureSynthesis(lines, 2);

  // MP3 encoding on this thread, 5 s of speech-like audio at 22,050 Hz, warm.
  const engine = await EspeakEngine.create();
  const speech = toInt16(toFloat32(engine.synth(lines.join(' '), { voice: 'en-us+m3', rate: 175, pitch: 50, range: 50, volume: 100 })).subarray(0, 5 * 22050));
  await loadMp3Encoder();
  for (let i = 0; i < 3; i++) encodeMp3(speech, 22050, 64);
  const enc: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    encodeMp3(speech, 22050, 64);
    enc.push(performance.now() - t0);
  }
  report.mp3_encode_ms_per_5s = pct(enc, 0.5);
  console.log(JSON.stringify(report, null, 2));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));
