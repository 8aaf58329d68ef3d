// The eSpeak synthesizer under load: a few hundred sentences at once across many voices and both languages, lines
// abandoned half-way (players who left), a worker that crashes or hangs mid-stream, and closing with work queued.
// Every line must end with its audio or a clean, logged failure, never an exception; the synthesizer must keep working.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../log.js';
import { EspeakSynthesizer } from './espeak.js';
import { decodeMp3, looksLikeMp3 } from './mp3.js';
import { speechChunks } from './sentences.js';
import type { SpeakRequest } from './synthesizer.js';
import { DEFAULT_VARIANTS } from './voices.js';

type LogLine = { level: string; obj: unknown; msg: string | undefined };

function recordingLog(): { log: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at = (level: string) => (obj: unknown, msg?: string) => {
    lines.push({ level, obj, msg: typeof obj === 'string' ? obj : msg });
  };
  const log: Record<string, unknown> = { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug'), trace: at('trace'), fatal: at('fatal') };
  log.child = () => log;
  return { log: log as unknown as Logger, lines };
}

const ENGLISH = [
  'Nell, take the rope! We all push on three. The boat is stuck.',
  'The lantern has gone dark again tonight. Who is attacking the clock tower? Stay close to the fire.',
  'Hmm.',
  '?!?! … ,,, ;;; !!!',
  '1234567890. 3.14159 and 42,000,000 — that is 75% of 1/2.',
  '',
  '3 < 4 & <b>bold</b> "quoted" and \'single\' — ÀÉÎ çñ ß 😀 ✨',
  `A very long sentence with ${'many words, '.repeat(30)}and no end in sight until now.`,
  'Mr. Tully is here. Dr. Crane is not! Is he? Yes… "Go now." Then run',
];
const FRENCH = [
  'Bonjour, entrez vite ! La lanterne s’est encore éteinte ce soir. Fermez la porte.',
  'Quoi ? Vraiment ! Bon.',
  'Il reste 1 254 pièces d’or, soit 12,5 % du trésor.',
  '…',
  `Un très long discours qui ${'ne finit jamais, '.repeat(25)}et puis s’arrête enfin.`,
  '« Attention ! » cria-t-elle. Nous partirons à l’aube, avec ou sans vous.',
];
const EMOTIONS = ['normal', 'happiness', 'sadness', 'anger', 'fear', 'disgust', 'surprise'];

/** n lines, English and French interleaved, 24 speakers (every variant in both languages, own pitch and rate). */
function lines(n: number, texts?: (i: number) => string): SpeakRequest[] {
  return Array.from({ length: n }, (_, i) => {
    const language = i % 2 === 0 ? 'english' as const : 'french' as const;
    const pool = language === 'english' ? ENGLISH : FRENCH;
    const variant = DEFAULT_VARIANTS[Math.floor(i / 2) % DEFAULT_VARIANTS.length];
    return {
      text: texts ? texts(i) : (pool[Math.floor(i / 2) % pool.length] ?? ''),
      language,
      emotion: EMOTIONS[i % EMOTIONS.length] ?? 'normal',
      intensity: 1 + (i % 5),
      // A third of the lines have no story voice: the voice then comes from the speaker id.
      ...(i % 3 === 0 ? {} : { voice: { variant, pitch: (i * 17) % 100, rate: 90 + ((i * 37) % 300) } }),
      speaker: `character-${i % 24}`,
    };
  });
}

type Outcome = { chunks: Uint8Array[]; order: number[]; threw: unknown };

/** Speaks one line to the end (or `stopAfter` chunks), noting each chunk's place in the global order of arrivals. */
async function speakLine(synth: EspeakSynthesizer, req: SpeakRequest, clock: { n: number }, stopAfter = Infinity): Promise<Outcome> {
  const out: Outcome = { chunks: [], order: [], threw: null };
  try {
    for await (const chunk of synth.speak(req)) {
      out.chunks.push(chunk);
      out.order.push(clock.n++);
      if (out.chunks.length >= stopAfter) break;
    }
  } catch (err) {
    out.threw = err;
  }
  return out;
}

const sentencesOf = (req: SpeakRequest): number => speechChunks(req.text).length;

async function stillSpeaks(synth: EspeakSynthesizer): Promise<void> {
  const after = await speakLine(synth, { text: 'We are still here. Nothing is lost.', language: 'english', emotion: 'normal', intensity: 1 }, { n: 0 });
  expect(after.threw).toBeNull();
  expect(after.chunks.length).toBe(2);
  const decoded = await decodeMp3(after.chunks[0] ?? new Uint8Array());
  expect(decoded.ok && decoded.audio.sampleRate).toBe(22050);
}

describe('EspeakSynthesizer under load', () => {
  const { log, lines: logged } = recordingLog();
  let synth: EspeakSynthesizer;

  beforeAll(async () => {
    synth = new EspeakSynthesizer({ log });
    await synth.ready;
  });
  afterAll(async () => {
    await synth.close();
  });

  it('speaks a few hundred concurrent sentences across voices and both languages, a new line not waiting for the whole backlog', async () => {
    const reqs = lines(140);
    const expected = reqs.map(sentencesOf);
    const total = expected.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(200);
    const clock = { n: 0 };
    const jobs = reqs.map((r) => speakLine(synth, r, clock));
    // A new line arrives once the backlog is there: it is served in turn with the others, not after all of them.
    while (clock.n === 0) await new Promise((r) => setTimeout(r, 5));
    const late = speakLine(synth, { text: 'Come in, quickly! The storm is here.', language: 'english', emotion: 'fear', intensity: 4, speaker: 'late' }, clock);
    const outcomes = await Promise.all(jobs);
    const lateOutcome = await late;

    for (const [i, o] of outcomes.entries()) {
      expect(o.threw, `line ${i}`).toBeNull();
      expect(o.chunks.length, `line ${i}: ${reqs[i]?.text.slice(0, 40)}`).toBe(expected[i]);
      for (const c of o.chunks) expect(looksLikeMp3(c)).toBe(true);
    }
    expect(logged.filter((l) => l.level === 'warn' || l.level === 'error')).toEqual([]);
    expect(lateOutcome.chunks.length).toBe(2);
    // Served in turn: after at most one sentence of each line already waiting (first in first out: after all of them).
    expect(lateOutcome.order[0]).toBeLessThanOrEqual(reqs.length + 2);
    expect(lateOutcome.order[0]).toBeLessThan(total - 60);
    // Spot-check that the audio decodes, in both languages, for odd texts too.
    for (const i of [0, 1, 8, 9, 14, 17]) {
      const r = await decodeMp3(outcomes[i]?.chunks[0] ?? new Uint8Array());
      expect(r.ok, `line ${i}`).toBe(true);
    }
    expect(synth.stats).toMatchObject({ failed: 0, restarts: 0, queued: 0, inFlight: 0 });
    expect(synth.stats.made).toBeGreaterThanOrEqual(total + 1);
    await stillSpeaks(synth);
  }, 240_000);

  it('drops the sentences of lines abandoned half-way (a player who left) instead of making them', async () => {
    const before = synth.stats;
    const reqs = lines(30, (i) => Array.from({ length: 6 }, (_, k) => `Line ${i}, sentence ${k + 1}, spoken for nobody at all.`).join(' '));
    const clock = { n: 0 };
    const outcomes = await Promise.all(reqs.map((r) => speakLine(synth, r, clock, 1)));
    for (const o of outcomes) {
      expect(o.threw).toBeNull();
      expect(o.chunks.length).toBe(1);
    }
    const after = synth.stats;
    // 30 first sentences; at most the few already handed to the worker beyond them.
    expect(after.made - before.made).toBeLessThanOrEqual(30 + 4);
    expect(after.cancelled - before.cancelled).toBeGreaterThanOrEqual(30 * 5 - 4);
    expect(after.queued).toBe(0);
    await stillSpeaks(synth);
  }, 120_000);
});

describe('EspeakSynthesizer when its worker dies', () => {
  let dir: string;
  let workerUrl: URL;

  beforeAll(() => {
    // The real worker, plus a listener that kills the thread on cue: process.exit, an uncaught exception, a hang.
    dir = mkdtempSync(join(tmpdir(), 'espeak-crash-'));
    const file = join(dir, 'crashing-worker.mjs');
    writeFileSync(file, [
      "import { parentPort } from 'node:worker_threads';",
      `await import(${JSON.stringify(new URL('./espeak-worker.js', import.meta.url).href)});`,
      'parentPort.on(\'message\', (m) => {',
      "  const text = typeof m?.text === 'string' ? m.text : '';",
      "  if (text.includes('EXIT NOW')) process.exit(1);",
      "  if (text.includes('THROW NOW')) throw new Error('boom in the speech worker');",
      "  if (text.includes('HANG NOW')) { const end = Date.now() + 120000; while (Date.now() < end); }",
      '});',
    ].join('\n'));
    workerUrl = pathToFileURL(file);
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails only the sentences in flight, logs the crash once, restarts the worker and serves the rest', async () => {
    const { log, lines: logged } = recordingLog();
    const synth = new EspeakSynthesizer({ log, workerUrl });
    await synth.ready;
    try {
      const reqs = lines(40);
      const crashAt = new Map([[6, 'Wait. EXIT NOW, please.'], [27, 'Oh no. THROW NOW, quickly.']]);
      for (const [i, text] of crashAt) reqs[i] = { ...(reqs[i] as SpeakRequest), text };
      const clock = { n: 0 };
      const outcomes = await Promise.all(reqs.map((r) => speakLine(synth, r, clock)));
      const expected = reqs.map(sentencesOf);
      let missing = 0;
      for (const [i, o] of outcomes.entries()) {
        expect(o.threw, `line ${i}`).toBeNull();
        missing += (expected[i] ?? 0) - o.chunks.length;
      }
      const stats = synth.stats;
      expect(stats.restarts).toBe(2);
      // Only what the worker held at each crash is lost (at most 2 sentences each); everything queued is served.
      expect(stats.failed).toBeGreaterThanOrEqual(2);
      expect(stats.failed).toBeLessThanOrEqual(4);
      expect(missing).toBe(stats.failed);
      const crashes = logged.filter((l) => l.level === 'error' && /restart/.test(l.msg ?? ''));
      expect(crashes.length).toBe(2);
      expect(logged.filter((l) => l.level === 'warn').length).toBe(stats.failed);
      await stillSpeaks(synth);
    } finally {
      await synth.close();
    }
  }, 240_000);

  it('gives up on a hung sentence after the timeout, restarts the worker and keeps serving', async () => {
    const { log, lines: logged } = recordingLog();
    const synth = new EspeakSynthesizer({ log, workerUrl, sentenceTimeoutMs: 8000 });
    await synth.ready;
    try {
      const reqs = lines(12);
      reqs[3] = { ...(reqs[3] as SpeakRequest), text: 'HANG NOW, forever.' };
      const outcomes = await Promise.all(reqs.map((r) => speakLine(synth, r, { n: 0 })));
      const expected = reqs.map(sentencesOf);
      let missing = 0;
      for (const [i, o] of outcomes.entries()) {
        expect(o.threw).toBeNull();
        missing += (expected[i] ?? 0) - o.chunks.length;
      }
      expect(synth.stats.restarts).toBe(1);
      expect(missing).toBe(synth.stats.failed);
      expect(synth.stats.failed).toBeGreaterThanOrEqual(1);
      expect(synth.stats.failed).toBeLessThanOrEqual(2);
      expect(logged.some((l) => l.level === 'error' && /did not answer/.test(l.msg ?? ''))).toBe(true);
      await stillSpeaks(synth);
    } finally {
      await synth.close();
    }
  }, 240_000);

  it('closes with work queued: every line ends quietly, and nothing is spoken (or started) after', async () => {
    const { log, lines: logged } = recordingLog();
    const synth = new EspeakSynthesizer({ log });
    await synth.ready;
    const clock = { n: 0 };
    const jobs = lines(20).map((r) => speakLine(synth, r, clock));
    while (clock.n === 0) await new Promise((r) => setTimeout(r, 5));
    await synth.close();
    const outcomes = await Promise.all(jobs);
    for (const o of outcomes) expect(o.threw).toBeNull();
    expect(logged.filter((l) => l.level === 'warn' || l.level === 'error')).toEqual([]);
    const after = await speakLine(synth, { text: 'Anyone there?', language: 'english', emotion: 'normal', intensity: 1 }, clock);
    expect(after).toMatchObject({ chunks: [], threw: null });
    expect(synth.stats).toMatchObject({ queued: 0, inFlight: 0, restarts: 0 });
  }, 120_000);
});
