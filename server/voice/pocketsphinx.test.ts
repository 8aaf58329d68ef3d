// Real pocketsphinx (Debian's pocketsphinx and pocketsphinx-en-us, installed by .ci/run) on the audio fixtures.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { momentSpeech } from '../game/vocabulary.js';
import { resample, toFloat32, toInt16 } from './audio.js';
import { EspeakEngine } from './espeak-engine.js';
import { decisionKey, loadFixtureStory, stateBeforeLine } from './fixture-lines.js';
import { buildGrammar, cleanHypothesis, numberToWords, phraseWords } from './grammar.js';
import { ipaToCmu, loadLexicon } from './pronounce.js';
import { DEFAULT_MODEL_DIR, isPocketsphinxAvailable, NOT_CAUGHT, PocketsphinxTranscriber } from './pocketsphinx.js';
import { encodeWav } from './wav.js';

const STORIES = resolve('fixtures/stories');
const AUDIO = resolve('fixtures/audio');
// `npm test` needs pocketsphinx (README; .ci/run installs it): these tests always run, and 'finds its binary and
// model' names what is missing.
const available = await isPocketsphinxAvailable();

type Meta = { text: string; plan: string; line: number; voice: { id: string }; files: Record<string, string> };

function fixture(story: string, plan: string, line: number, voice: string): { meta: Meta; dir: string } {
  const dir = join(AUDIO, story, 'en');
  const name = readdirSync(dir).find((f) => f === `${plan}.l${line}.${voice}.json`);
  if (!name) throw new Error(`no fixture ${plan}.l${line}.${voice}`);
  return { meta: JSON.parse(readFileSync(join(dir, name), 'utf8')) as Meta, dir };
}

function context(slug: string, plan: string, line: number) {
  const story = loadFixtureStory(STORIES, slug);
  const state = stateBeforeLine(STORIES, story, slug, plan, line);
  return { story, state, ...momentSpeech(story, state, 'english') };
}

describe('grammar building', () => {
  it('spells numbers and folds phrases to dictionary words', () => {
    expect(numberToWords(3)).toEqual(['three']);
    expect(numberToWords(21)).toEqual(['twenty', 'one']);
    expect(numberToWords(1905)).toEqual(['one', 'thousand', 'nine', 'hundred', 'five']);
    expect(phraseWords("The ferryman's cottage, 3rd door!")).toEqual(['the', "ferryman's", 'cottage', 'three', 'door']);
    expect(phraseWords('Mère Pellow')).toEqual(['mere', 'pellow']);
  });

  it('turns eSpeak IPA into CMU phones', () => {
    expect(ipaToCmu('k_ˈɑːɹ_d_uː')).toBe('K AA R D UW');
    expect(ipaToCmu('m_ˈɑːɹ_ɡ_ɹ_ɐ_v_ˌaɪ_n')).toBe('M AA R G R AH V AY N');
    expect(ipaToCmu('b_ˈʌ_ʔ_n̩')).toBe('B AH T AH N');
    expect(ipaToCmu('☃')).toBeNull();
  });

  it('builds a choice of whole sentences against lighter decoys, spelling unknown names', async () => {
    const lexicon = await loadLexicon(join(DEFAULT_MODEL_DIR, 'cmudict-en-us.dict'));
    const spelt: string[] = [];
    const g = await buildGrammar({
      sentences: ['When does it go dark?', 'Ysolde Marrow', 'Ring 3 bells', '!!!', 'Ask Qzxv'], vocabulary: ['tide'], decoys: ['rain'], lexicon,
      speller: (w) => {
        spelt.push(w);
        return Promise.resolve(w === 'ysolde' ? 'IH S OW L D' : null);
      },
    });
    expect(g.sentences).toEqual(['when does it go dark', 'ysolde marrow', 'ring three bells']);
    expect(g.dropped).toEqual(['qzxv']);
    expect(spelt).toEqual(['ysolde', 'qzxv']);
    expect(g.jsgf).toContain('public <utterance> = /1/ when does it go dark | /1/ ysolde marrow | /1/ ring three bells | /0.01/ rain | /0.01/ apple');
    expect(g.jsgf).not.toContain('tide');
    expect(g.dict).toContain('ysolde IH S OW L D\n');
    expect(g.dict).toMatch(/^when W EH N$/m);
    // The same choice without its decoys, for the second pass when a decoy won (understanding.ts).
    expect(g.bare).toContain('public <utterance> = /1/ when does it go dark | /1/ ysolde marrow | /1/ ring three bells;');
    expect(g.bare).not.toContain('rain');
    // Without sentences, the keyword phrases stand in for them.
    const k = await buildGrammar({ vocabulary: ['tide caves', 'market'], lexicon, speller: null });
    expect(k.sentences).toEqual(['tide caves', 'market']);
    expect((await buildGrammar({ vocabulary: ['tide caves'], lexicon, speller: null, builtinDecoys: false })).bare).toBeNull();
    expect(cleanHypothesis('<sil> when [NOISE] dark(2)')).toBe('when dark');
  });
});

describe('PocketsphinxTranscriber', () => {
  let stt: PocketsphinxTranscriber;
  let engine: EspeakEngine;
  beforeAll(async () => {
    stt = new PocketsphinxTranscriber({ poolSize: 2 });
    engine = await EspeakEngine.create();
  });
  afterAll(async () => {
    await stt.close();
  });

  /** 16 kHz WAV of a sentence in the clean fixture voice, with silence around it. */
  const say = (text: string): Uint8Array => {
    const pcm = toFloat32(engine.synth(text, { voice: 'en-us+m3', rate: 175, pitch: 50, range: 50, volume: 100 }));
    const padded = new Float32Array(pcm.length + 22050);
    padded.set(pcm, 11025);
    return encodeWav(toInt16(resample(padded, 22050, 16000)), 16000);
  };

  it('finds its binary and model', () => {
    expect(available).toEqual({ ok: true, missing: [] });
  });

  // Clips whose words the grammar recognises with the fixture voices (measured: see fixtures/audio/README.md).
  const cases = [
    ['lantern-keeper', 'dead-end.en', 6, 'Is anything missing?'],
    ['clockwork-siege', 'win.en', 30, 'Ferrule, crush the Margravine!'],
    ['lantern-keeper', 'win.en', 27, "We'll shade the side facing the rocks, so the seals can sleep"],
    ['clockwork-siege', 'surrender.en', 7, 'Over the rooftops'],
    ['clockwork-siege', 'win.en', 13, 'Yes, come along, Captain'],
  ] as const;
  for (const [slug, plan, line, text] of cases) {
    for (const format of ['wav', 'mp3'] as const) {
      it(`hears "${text}" (${format}) as the same answer`, async () => {
        const voice = format === 'wav' ? 'm3-175-50' : 'f2-150-70-noise20';
        const { meta, dir } = fixture(slug, plan, line, voice);
        expect(meta.text).toBe(text);
        const file = meta.files[format];
        if (!file) throw new Error('missing file');
        const c = context(slug, plan, line);
        const r = await stt.transcribe({ audio: { bytes: readFileSync(join(dir, file)), format }, language: 'english', sentences: c.sentences, vocabulary: c.vocabulary, decoys: c.decoys });
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        expect(r.recogniser).toBe('pocketsphinx');
        expect(decisionKey(c.story, c.state, r.text)).toBe(decisionKey(c.story, c.state, text));
      });
    }
  }

  it('recognises nearly every committed English clip as the answer the typed line gives', async () => {
    let right = 0;
    let total = 0;
    for (const slug of ['lantern-keeper', 'clockwork-siege']) {
      const dir = join(AUDIO, slug, 'en');
      for (const f of readdirSync(dir).filter((x) => x.endsWith('.m3-175-50.json'))) {
        const meta = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Meta;
        const c = context(slug, meta.plan, meta.line);
        const r = await stt.transcribe({ audio: { bytes: readFileSync(join(dir, meta.files.wav ?? '')), format: 'wav' }, language: 'english', sentences: c.sentences, vocabulary: c.vocabulary, decoys: c.decoys });
        total++;
        if (decisionKey(c.story, c.state, r.ok ? r.text : '') === decisionKey(c.story, c.state, meta.text)) right++;
      }
    }
    expect(total).toBeGreaterThan(25);
    // Measured 31 of 32 with eSpeak's m3 voice (see fixtures/audio/README.md); below 30 means a regression.
    expect(right).toBeGreaterThanOrEqual(30);
  });

  it('does not turn out-of-story speech into a story answer', async () => {
    const wav = say('Banana pancakes tomorrow');
    for (const [slug, plan, line] of [
      ['lantern-keeper', 'win.en', 6], ['lantern-keeper', 'win.en', 12], ['lantern-keeper', 'win.en', 16], ['lantern-keeper', 'win.en', 20],
      ['clockwork-siege', 'win.en', 5], ['clockwork-siege', 'win.en', 13], ['clockwork-siege', 'win.en', 19], ['clockwork-siege', 'win.en', 30],
    ] as const) {
      const c = context(slug, plan, line);
      const r = await stt.transcribe({ audio: { bytes: wav, format: 'wav' }, language: 'english', sentences: c.sentences, vocabulary: c.vocabulary, decoys: c.decoys });
      const heard = r.ok ? r.text : '';
      expect(decisionKey(c.story, c.state, heard), `heard "${heard}"`).toBe(decisionKey(c.story, c.state, ''));
    }
    // Hybrid mode (the default) gave what the long-lived recogniser did not catch a second, per-request decode.
    expect(stt.fallbacks).toBeGreaterThan(0);
  });

  it("answers \"Sorry, I didn't catch that.\" for silence at once, and refuses French", async () => {
    const silence = encodeWav(new Int16Array(16000), 16000);
    const t0 = performance.now();
    expect(await stt.transcribe({ audio: { bytes: silence, format: 'wav' }, language: 'english', vocabulary: ['tide'] })).toEqual({ ok: false, message: NOT_CAUGHT, notCaught: true });
    expect(performance.now() - t0).toBeLessThan(500);
    expect(await stt.transcribe({ audio: { bytes: silence, format: 'wav' }, language: 'french', vocabulary: ['marée'] })).toMatchObject({ ok: false });
    expect(await stt.transcribe({ audio: { bytes: new Uint8Array(5), format: 'mp3' }, language: 'english', vocabulary: [] })).toEqual({ ok: false, message: 'The audio could not be decoded as MP3.' });
  });

  it('long-lived mode reuses its processes and never runs more than the pool size', async () => {
    const pool = new PocketsphinxTranscriber({ poolSize: 2, mode: 'long-lived' });
    try {
      const wav = say('Over the rooftops');
      const moments = [['rooftops', 'roofs'], ['market', 'stall'], ['ferryman', 'cottage']];
      for (let i = 0; i < 3; i++) await pool.transcribe({ audio: { bytes: wav, format: 'wav' }, language: 'english', vocabulary: moments[0] ?? [] });
      expect(pool.spawned).toBe(1);
      expect(pool.processes).toBe(1);
      // Three grammars at once with room for two: never more than two processes, the idle one replaced.
      const results = await Promise.all([0, 1, 2, 0, 1, 2].map((i) => pool.transcribe({ audio: { bytes: wav, format: 'wav' }, language: 'english', vocabulary: moments[i] ?? [] })));
      expect(pool.processes).toBeLessThanOrEqual(2);
      expect(results.every((r) => r.ok || r.message === NOT_CAUGHT)).toBe(true);
      const first = results[0];
      expect(first?.ok && first.text).toContain('rooftops');
    } finally {
      await pool.close();
    }
    expect(pool.processes).toBe(0);
  });

  it('per-request mode runs at most poolSize processes at once', async () => {
    const once = new PocketsphinxTranscriber({ mode: 'per-request', poolSize: 1 });
    try {
      const wav = say('Over the rooftops');
      const rs = await Promise.all([0, 1, 2].map(() => once.transcribe({ audio: { bytes: wav, format: 'wav' }, language: 'english', vocabulary: ['rooftops', 'roofs', 'market'] })));
      for (const r of rs) expect(r.ok && r.text).toContain('rooftops');
      expect(once.spawned).toBe(3);
      expect(once.maxConcurrent).toBe(1);
    } finally {
      await once.close();
    }
  });
});
