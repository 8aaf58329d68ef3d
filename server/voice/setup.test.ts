import { readdirSync, readFileSync } from 'node:fs';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { parseVoiceConfig } from './config.js';
import { isPocketsphinxAvailable } from './pocketsphinx.js';
import { EspeakPool } from './espeak-pool.js';
import { createVoice, FRENCH_NEEDS_HTTP, routingTranscriber } from './setup.js';
import { NoTranscriber, type Transcriber } from './transcriber.js';
import { encodeWav } from './wav.js';

const log = pino({ level: 'silent' });
const sphinx = await isPocketsphinxAvailable();
const CLIP = new URL('../../fixtures/audio/lantern-keeper/en/dead-end.en.l3.m3-175-50.wav', import.meta.url);
const silence = { bytes: encodeWav(new Int16Array(1600), 16000), format: 'wav' as const };

describe('voice configuration', () => {
  it('has defaults that run offline', () => {
    const r = parseVoiceConfig({});
    expect(r.ok && r.config).toMatchObject({
      STT_PROVIDER: 'auto', TTS_PROVIDER: 'auto', STT_MODEL: 'whisper-1', TTS_MODEL: 'tts-1', VOICE_MAX_AUDIO_SECONDS: 30,
      POCKETSPHINX_POOL_SIZE: 2, TTS_VOICES: ['alloy', 'echo', 'fable', 'onyx', 'nova', 'shimmer'], TTS_MP3_KBPS: 64,
    });
  });

  it('reads lists, maps and numbers, treats blank values as unset, and names a bad value', () => {
    const r = parseVoiceConfig({ TTS_VOICES: 'a, b', TTS_VOICE_MAP: 'bram=onyx, nell=nova', VOICE_MAX_AUDIO_SECONDS: '12', STT_BASE_URL: ' ', OTHER: 'x' });
    expect(r.ok && [r.config.TTS_VOICES, r.config.TTS_VOICE_MAP, r.config.VOICE_MAX_AUDIO_SECONDS, r.config.STT_BASE_URL]).toEqual([['a', 'b'], { bram: 'onyx', nell: 'nova' }, 12, undefined]);
    expect(parseVoiceConfig({ STT_PROVIDER: 'whisper' })).toMatchObject({ ok: false, message: expect.stringMatching(/^Invalid voice setting STT_PROVIDER/) as unknown });
    expect(parseVoiceConfig({ STT_BASE_URL: 'ftp://x' })).toMatchObject({ ok: false, message: expect.stringMatching(/STT_BASE_URL: must be an http/) as unknown });
    expect(parseVoiceConfig({ TTS_VOICE_MAP: 'bram' })).toMatchObject({ ok: false });
  });
});

describe('routingTranscriber', () => {
  const fake = (name: string): Transcriber => ({ name, transcribe: (req) => Promise.resolve({ ok: true, text: `${name}:${req.language}`, recogniser: name }) });

  it('sends each language to its recogniser, and explains a missing one', async () => {
    const t = routingTranscriber({ english: fake('pocketsphinx') });
    expect(t.name).toBe('pocketsphinx');
    expect(await t.transcribe({ audio: silence, language: 'english', vocabulary: [] })).toMatchObject({ ok: true, text: 'pocketsphinx:english' });
    expect(await t.transcribe({ audio: silence, language: 'french', vocabulary: [] })).toEqual({ ok: false, message: FRENCH_NEEDS_HTTP });
  });
});

describe('createVoice', () => {
  it('auto: pocketsphinx for English when installed, French explained, eSpeak for speech', async () => {
    const v = await createVoice({}, log);
    try {
      const d = v.describe();
      expect(d.tts).toMatchObject({ provider: 'espeak', active: true, languages: { english: 'espeak', french: 'espeak' } });
      expect(v.synthesizer?.name).toBe('espeak');
      expect(d.stt.languages.french).toBe('none');
      expect(d.stt.missing).toContain('STT_BASE_URL (French)');
      expect(d.stt.howToEnable).toMatch(/STT_BASE_URL/);
      expect(await v.transcriber.transcribe({ audio: silence, language: 'french', vocabulary: [] })).toEqual({ ok: false, message: FRENCH_NEEDS_HTTP });
      if (sphinx.ok) expect(d.stt).toMatchObject({ provider: 'pocketsphinx', active: true, languages: { english: 'pocketsphinx' } });
      else expect(d.stt.provider).toBe('none');
      // The Hearing plugins this configuration turned on (looptale doctor lists them): the app's words always.
      expect(d.stt.plugins).toEqual([...(sphinx.ok ? [{ id: 'pocketsphinx', languages: ['english'] }] : []), { id: 'app', languages: ['english', 'french'] }]);
    } finally {
      await v.close();
    }
  });

  // #14 (memory): an idle server holds no eSpeak worker (WASM engine + MP3 encoder, ~80 MB each) until a line is spoken,
  // and no pocketsphinx_continuous process until one is heard. The persistent decoders (looptale-asr, ~16 MB each,
  // half of it the model's shared file pages) are the exception: started with the server, while forking it is cheap.
  it('loads voice lazily: no eSpeak worker and no pocketsphinx process until a line is spoken or heard', async () => {
    const v = await createVoice({ POCKETSPHINX_ENGINE: 'continuous' }, log);
    try {
      const pool = v.synthesizer;
      expect(pool).toBeInstanceOf(EspeakPool);
      if (!(pool instanceof EspeakPool)) return;
      expect(pool.size).toBeGreaterThan(0);
      await new Promise((r) => setImmediate(r));
      expect(pool.started).toBe(0);
      expect(recogniserProcesses()).toEqual([]);

      const chunks: Uint8Array[] = [];
      for await (const chunk of pool.speak({ text: 'The lantern is lit.', language: 'english', emotion: 'neutral', intensity: 0.5 })) chunks.push(chunk);
      expect(chunks.length).toBeGreaterThan(0);
      expect(pool.started).toBe(1);

      if (sphinx.ok) {
        const audio = { bytes: new Uint8Array(readFileSync(CLIP)), format: 'wav' as const };
        await v.transcriber.transcribe({ audio, language: 'english', vocabulary: ['light the lantern', 'walk away', 'go back'] });
        expect(recogniserProcesses().length).toBeGreaterThan(0);
      }
    } finally {
      await v.close();
    }
  });

  it('auto with STT_BASE_URL and TTS_BASE_URL: HTTP for both languages', async () => {
    const v = await createVoice({ STT_BASE_URL: 'http://127.0.0.1:9/v1', STT_API_KEY: 'k', TTS_BASE_URL: 'http://127.0.0.1:9/v1' }, log);
    try {
      const d = v.describe();
      expect(d.stt).toMatchObject({ provider: 'http', languages: { english: 'http', french: 'http' }, missing: [] });
      expect(d.stt.plugins).toEqual([{ id: 'http', languages: ['english', 'french'] }, { id: 'app', languages: ['english', 'french'] }]);
      expect(d.tts).toMatchObject({ provider: 'http', active: true });
    } finally {
      await v.close();
    }
  });

  it('none: no recogniser, no speech; a misconfigured http provider is reported, not thrown', async () => {
    const v = await createVoice({ STT_PROVIDER: 'none', TTS_PROVIDER: 'none' }, log);
    expect(v.transcriber).toBeInstanceOf(NoTranscriber);
    expect(v.synthesizer).toBeNull();
    expect(v.describe().tts.active).toBe(false);
    await v.close();
    const w = await createVoice({ STT_PROVIDER: 'http', TTS_PROVIDER: 'none' }, log);
    expect(w.describe().stt).toMatchObject({ provider: 'none', active: false });
    expect(w.describe().stt.missing).toContain('STT_BASE_URL');
    await w.close();
    const bad = await createVoice({ VOICE_MAX_AUDIO_SECONDS: 'lots', TTS_PROVIDER: 'none', STT_PROVIDER: 'none' }, log);
    expect(bad.describe().stt.missing[0]).toMatch(/^Invalid voice setting VOICE_MAX_AUDIO_SECONDS/);
    await bad.close();
  });
});

/** The command lines of this process's children that run pocketsphinx. */
function recogniserProcesses(): string[] {
  const kids = readdirSync(`/proc/${process.pid}/task`).flatMap((t) => readFileSync(`/proc/${process.pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean));
  return kids.flatMap((pid) => {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      return cmd.includes('pocketsphinx') ? [cmd] : [];
    } catch {
      return []; // ended meanwhile
    }
  });
}

describe.runIf(sphinx.ok)('createVoice: persistent decoders (looptale-asr)', () => {
  it('starts POCKETSPHINX_DECODERS of them with the server, or says why not', async () => {
    const v = await createVoice({ POCKETSPHINX_DECODERS: '2' }, log);
    try {
      const engine = v.describe().stt.engine ?? '';
      if (engine.startsWith('looptale-asr')) {
        expect(recogniserProcesses().filter((c) => c.includes('looptale-asr'))).toHaveLength(2);
      } else {
        expect(engine).toMatch(/^pocketsphinx_continuous, a process per decode \(slower\): /);
        expect(v.describe().stt.missing.join(' ')).toMatch(/npm run build:asr/);
      }
    } finally {
      await v.close();
    }
  });
});
