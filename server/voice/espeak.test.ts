import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toFloat32 } from './audio.js';
import { EspeakSynthesizer } from './espeak.js';
import { EspeakEngine } from './espeak-engine.js';
import { decodeMp3 } from './mp3.js';
import { speechChunks, splitSentences } from './sentences.js';
import { baseVoice, espeakParams } from './voices.js';

let engine: EspeakEngine;
let synth: EspeakSynthesizer;

beforeAll(async () => {
  engine = await EspeakEngine.create();
  synth = new EspeakSynthesizer();
  await synth.ready;
});
afterAll(async () => {
  await synth.close();
});

const seconds = (x: Int16Array): number => x.length / engine.sampleRate;

/** Energy in [lo, hi) Hz relative to the total, over the voiced part (a coarse spectral fingerprint). */
function bandShare(x: Int16Array, lo: number, hi: number): number {
  const f = toFloat32(x);
  const n = 512;
  let band = 0;
  let total = 0;
  for (let start = 0; start + n <= f.length; start += n) {
    for (let k = 1; k < n / 2; k++) {
      let re = 0;
      let im = 0;
      for (let i = 0; i < n; i += 2) {
        const v = f[start + i] ?? 0;
        re += v * Math.cos((2 * Math.PI * k * i) / n);
        im -= v * Math.sin((2 * Math.PI * k * i) / n);
      }
      const p = re * re + im * im;
      const hz = (k * engine.sampleRate) / n;
      total += p;
      if (hz >= lo && hz < hi) band += p;
    }
  }
  return band / total;
}

/** Median fundamental frequency of the voiced 30 ms frames, by autocorrelation (60-400 Hz). */
function medianF0(x: Int16Array): number {
  const f = toFloat32(x);
  const sr = engine.sampleRate;
  const n = Math.round(0.03 * sr);
  const f0s: number[] = [];
  for (let start = 0; start + n <= f.length; start += n) {
    let energy = 0;
    for (let i = 0; i < n; i++) energy += (f[start + i] ?? 0) ** 2;
    if (energy / n < 1e-3) continue;
    let best = 0;
    let bestLag = 0;
    for (let lag = Math.floor(sr / 400); lag <= Math.ceil(sr / 60); lag++) {
      let c = 0;
      for (let i = 0; i + lag < n; i++) c += (f[start + i] ?? 0) * (f[start + i + lag] ?? 0);
      if (c > best) {
        best = c;
        bestLag = lag;
      }
    }
    if (bestLag > 0) f0s.push(sr / bestLag);
  }
  f0s.sort((a, b) => a - b);
  return f0s[Math.floor(f0s.length / 2)] ?? 0;
}

async function collect(it: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const chunk of it) out.push(chunk);
  return out;
}

describe('eSpeak engine', () => {
  it('speaks an English and a French sentence for a plausible time', () => {
    const en = engine.synth('The lantern has gone dark again tonight.', { voice: 'en-us', rate: 175, pitch: 50, range: 50, volume: 100 });
    const fr = engine.synth('La lanterne s’est encore éteinte ce soir.', { voice: 'fr', rate: 175, pitch: 50, range: 50, volume: 100 });
    // About 2.5 words per second at 175 words per minute, plus pauses.
    expect(seconds(en)).toBeGreaterThan(1.3);
    expect(seconds(en)).toBeLessThan(4);
    expect(seconds(fr)).toBeGreaterThan(1.3);
    expect(seconds(fr)).toBeLessThan(4);
  });

  it('really uses the French voice for French (not the English rules on French words)', () => {
    const text = 'Bonjour, je voudrais deux croissants et un chocolat chaud, s’il vous plaît.';
    const p = { rate: 175, pitch: 50, range: 50, volume: 100 };
    const asFrench = engine.synth(text, { ...p, voice: 'fr' });
    const asEnglish = engine.synth(text, { ...p, voice: 'en-us' });
    expect(Math.abs(seconds(asFrench) - seconds(asEnglish))).toBeGreaterThan(0.15);
    // eSpeak's English reading of French spelling and its French phonemes differ: so does the IPA.
    expect(engine.ipa('croissants', 'fr')).not.toEqual(engine.ipa('croissants', 'en-us'));
  });

  it('gives each variant its own timbre and follows pitch and rate', () => {
    const text = 'Who is attacking the clock tower tonight?';
    const p = { rate: 175, pitch: 50, range: 50, volume: 100 };
    const male = engine.synth(text, { ...p, voice: 'en-us+m3' });
    const female = engine.synth(text, { ...p, voice: 'en-us+f2' });
    expect(bandShare(female, 2000, 5000)).not.toBeCloseTo(bandShare(male, 2000, 5000), 2);
    const slow = engine.synth(text, { ...p, voice: 'en-us+m3', rate: 120 });
    const fast = engine.synth(text, { ...p, voice: 'en-us+m3', rate: 260 });
    expect(seconds(slow)).toBeGreaterThan(seconds(fast) * 1.5);
    const low = engine.synth(text, { ...p, voice: 'en-us+m3', pitch: 10 });
    const high = engine.synth(text, { ...p, voice: 'en-us+m3', pitch: 90 });
    expect(medianF0(high)).toBeGreaterThan(medianF0(low) * 1.3);
  });

  it('fresh: the same text gives the same samples whatever was said before (not so by default)', async () => {
    const fresh = await EspeakEngine.create({ fresh: true });
    const p = { voice: 'en-us+m3', rate: 175, pitch: 50, range: 50, volume: 100 };
    const first = fresh.synth('Down to the tide caves', p);
    const other = fresh.synth('Something else, in another voice', { ...p, voice: 'en-us+f2', rate: 150 });
    expect(fresh.synth('Down to the tide caves', p)).toEqual(first);
    expect(fresh.synth('Yes', p).length).toBeLessThan(first.length);
    expect(fresh.synth('Down to the tide caves', p)).toEqual(first);
    expect(fresh.synth('Something else, in another voice', { ...p, voice: 'en-us+f2', rate: 150 })).toEqual(other);
    // Another fresh engine made later (eSpeak seeds its random from the clock when it starts: the female variants'
    // breath differed from process to process) speaks the same.
    await new Promise((r) => setTimeout(r, 5));
    const again = await EspeakEngine.create({ fresh: true });
    expect(again.synth('Something else, in another voice', { ...p, voice: 'en-us+f2', rate: 150 })).toEqual(other);
  });

  it('reads markup-like characters as text', () => {
    const plain = engine.synth('three is less than four', { voice: 'en-us', rate: 175, pitch: 50, range: 50, volume: 100 });
    const marked = engine.synth('3 < 4 & <b>bold</b>', { voice: 'en-us', rate: 175, pitch: 50, range: 50, volume: 100 });
    expect(seconds(plain)).toBeGreaterThan(0.5);
    expect(seconds(marked)).toBeGreaterThan(1);
  });
});

describe('voices and prosody', () => {
  it('uses the story voice, else a stable voice from the speaker id', () => {
    expect(baseVoice({ variant: 'f4', pitch: 60, rate: 185 }, 'x')).toEqual({ variant: 'f4', pitch: 60, rate: 185 });
    const a = baseVoice(undefined, 'c1b8c6b4-0d7e-4f0e-9d5a-1f2e3d4c5b6a');
    expect(baseVoice(undefined, 'c1b8c6b4-0d7e-4f0e-9d5a-1f2e3d4c5b6a')).toEqual(a);
    const distinct = new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((id) => JSON.stringify(baseVoice(undefined, id))));
    expect(distinct.size).toBeGreaterThanOrEqual(6);
    expect(baseVoice(undefined, undefined)).toEqual({ variant: 'm3', pitch: 50, rate: 175 });
    expect(baseVoice({ variant: 'bad variant; rm' }, undefined).variant).toBe('m3');
  });

  it('bends the voice by emotion, more with intensity', () => {
    const base = { language: 'english' as const, voice: { variant: 'm3', pitch: 50, rate: 175 } };
    const calm = espeakParams({ ...base, emotion: 'normal', intensity: 3 });
    const angry = espeakParams({ ...base, emotion: 'anger', intensity: 5 });
    const slightlyAngry = espeakParams({ ...base, emotion: 'anger', intensity: 1 });
    const sad = espeakParams({ ...base, emotion: 'sadness', intensity: 5 });
    const afraid = espeakParams({ ...base, emotion: 'fear', intensity: 5 });
    expect(calm).toEqual({ voice: 'en-us+m3', rate: 175, pitch: 50, range: 50, volume: 100 });
    expect(angry.rate).toBeGreaterThan(slightlyAngry.rate);
    expect(slightlyAngry.rate).toBeGreaterThan(calm.rate);
    expect(angry.volume).toBeGreaterThan(calm.volume);
    expect(sad.rate).toBeLessThan(calm.rate);
    expect(sad.pitch).toBeLessThan(calm.pitch);
    expect(afraid.pitch).toBeGreaterThan(calm.pitch);
    expect(espeakParams({ ...base, language: 'french', emotion: 'normal', intensity: 1 }).voice).toBe('fr+m3');
  });

  it('splits lines into sentences', () => {
    expect(splitSentences('Hello there! Mr. Tully is here. Is he? Yes… "Go now." Then run')).toEqual([
      'Hello there!', 'Mr. Tully is here.', 'Is he? Yes… "Go now."', 'Then run',
    ]);
    expect(splitSentences('  ')).toEqual([]);
    expect(splitSentences('Quoi ? Vraiment ! Bon.')).toEqual(['Quoi ? Vraiment ! Bon.']);
    expect(splitSentences('« Attention ! » Nous partirons à l’aube, avec ou sans vous.')).toEqual([
      '« Attention ! »', 'Nous partirons à l’aube, avec ou sans vous.',
    ]);
    // The first chunk is cut at its first clause when long enough, so the player hears something sooner.
    expect(speechChunks("Always at high tide, near midnight. The flame doesn't die, mind you.")).toEqual([
      'Always at high tide,', 'near midnight.', "The flame doesn't die, mind you.",
    ]);
    expect(speechChunks('Yes, come with us!')).toEqual(['Yes, come with us!']);
    const long = `${'word, '.repeat(80)}end.`;
    expect(splitSentences(long).every((s) => s.length <= 220)).toBe(true);
  });
});

describe('EspeakSynthesizer', () => {
  it('yields one MP3 per sentence, each decodable, in a worker thread', async () => {
    const chunks = await collect(synth.speak({
      text: 'Nell, take the rope! We all push on three. The boat is stuck.', language: 'english', emotion: 'anger', intensity: 4, speaker: 'bram',
    }));
    expect(chunks.length).toBe(3);
    for (const c of chunks) {
      const r = await decodeMp3(c);
      expect(r.ok && r.audio.sampleRate).toBe(22050);
      if (r.ok) expect((r.audio.channels[0]?.length ?? 0) / 22050).toBeGreaterThan(0.5);
    }
  });

  it('yields the first sentence before the last is made', async () => {
    const text = Array.from({ length: 6 }, (_, i) => `This is sentence number ${i + 1}, spoken slowly and clearly for the test.`).join(' ');
    const it = synth.speak({ text, language: 'french', emotion: 'sadness', intensity: 2 })[Symbol.asyncIterator]();
    const t0 = performance.now();
    const first = await it.next();
    const tFirst = performance.now() - t0;
    let n = first.done ? 0 : 1;
    for (let r = await it.next(); !r.done; r = await it.next()) n++;
    const tAll = performance.now() - t0;
    expect(n).toBe(speechChunks(text).length); // 7: the first sentence is cut at its comma
    expect(tFirst).toBeLessThan(tAll);
  });

  it('speaks nothing for empty text and keeps working after', async () => {
    expect(await collect(synth.speak({ text: ' … ', language: 'english', emotion: 'normal', intensity: 1 }))).toEqual([]);
    expect((await collect(synth.speak({ text: 'Still here.', language: 'english', emotion: 'normal', intensity: 1 }))).length).toBe(1);
  });

  it('stops a worker idle for idleStopMs (#14 idle memory) and starts a new one for the next line', async () => {
    const lazy = new EspeakSynthesizer({ lazy: true, idleStopMs: 300 });
    try {
      expect(lazy.started).toBe(false);
      expect((await collect(lazy.speak({ text: 'First line.', language: 'english', emotion: 'normal', intensity: 1 }))).length).toBe(1);
      for (let i = 0; i < 600 && lazy.stats.idleStops === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(lazy.stats.idleStops).toBe(1);
      expect((await collect(lazy.speak({ text: 'Second line.', language: 'english', emotion: 'normal', intensity: 1 }))).length).toBe(1);
      expect(lazy.stats).toMatchObject({ made: 2, failed: 0, restarts: 0 });
    } finally {
      await lazy.close();
    }
  });

  it('also runs on the calling thread', async () => {
    const inline = new EspeakSynthesizer({ thread: false });
    await inline.ready;
    const chunks = await collect(inline.speak({ text: 'Bonjour. Au revoir.', language: 'french', emotion: 'happiness', intensity: 3 }));
    expect(chunks.length).toBe(1); // two short sentences are spoken together
    await inline.close();
  });
});
