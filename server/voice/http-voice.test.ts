// The HTTP providers against a fake OpenAI-compatible server on an ephemeral port (fakes of paid APIs: tests only).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { toInt16 } from './audio.js';
import { HttpTranscriber, apiUrl, vocabularyPrompt } from './http-stt.js';
import { HttpSynthesizer } from './http-tts.js';
import { encodeMp3, loadMp3Encoder } from './mp3.js';
import { encodeWav } from './wav.js';

type Seen = { path: string; auth: string | undefined; contentType: string; body: Buffer };
type Reply = { status: number; body: string | Buffer; type?: string; delayMs?: number };

let server: Server;
let base = '';
const seen: Seen[] = [];
let replies: Reply[] = [];

function read(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts)));
  });
}

beforeAll(async () => {
  await loadMp3Encoder();
  server = createServer((req, res) => {
    void read(req).then((body) => {
      seen.push({ path: req.url ?? '', auth: req.headers.authorization, contentType: req.headers['content-type'] ?? '', body });
      const r = replies.shift() ?? { status: 500, body: 'no reply queued' };
      setTimeout(() => {
        res.writeHead(r.status, { 'content-type': r.type ?? 'application/json' });
        res.end(r.body);
      }, r.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  seen.length = 0;
  replies = [];
});

/** A log that keeps every line, to check what is (not) written. */
function memoryLog(): { log: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const log = pino({ level: 'debug' }, { write: (s: string) => lines.push(s) });
  return { log, lines };
}

const tone = (rate: number, seconds: number): Int16Array => {
  const x = new Float32Array(rate * seconds);
  for (let i = 0; i < x.length; i++) x[i] = 0.3 * Math.sin((2 * Math.PI * 300 * i) / rate);
  return toInt16(x);
};

describe('HTTP speech-to-text', () => {
  it('posts the audio, model, language and vocabulary prompt as multipart, with the key, and returns the text', async () => {
    const { log, lines } = memoryLog();
    const stt = new HttpTranscriber({ baseUrl: base, apiKey: 'sk-test-SECRET', model: 'whisper-1', log });
    replies.push({ status: 200, body: JSON.stringify({ text: ' Quand est-ce que la lumière s’éteint ? ' }) });
    const mp3 = encodeMp3(tone(22050, 1), 22050, 48);
    const r = await stt.transcribe({ audio: { bytes: mp3, format: 'mp3' }, language: 'french', vocabulary: ['quand', 'marée', 'Ysolde'] });
    expect(r).toEqual({ ok: true, text: 'Quand est-ce que la lumière s’éteint ?', recogniser: 'http:whisper-1' });
    const req = seen[0];
    expect(req?.path).toBe('/v1/audio/transcriptions');
    expect(req?.auth).toBe('Bearer sk-test-SECRET');
    expect(req?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    const body = req?.body.toString('latin1') ?? '';
    expect(body).toMatch(/name="model"\r\n\r\nwhisper-1\r\n/);
    expect(body).toMatch(/name="language"\r\n\r\nfr\r\n/);
    expect(body).toContain('name="prompt"\r\n\r\nquand, marée'.replace('é', '\u00c3\u00a9'));
    expect(body).toMatch(/name="file"; filename="speech\.mp3"\r\nContent-Type: audio\/mpeg/);
    // The original MP3 is sent as is.
    expect(req?.body.includes(Buffer.from(mp3))).toBe(true);
    expect(lines.join('\n')).not.toContain('SECRET');
  });

  it('drops a NUL and replaces a lone surrogate in the text, which no store can hold', async () => {
    const stt = new HttpTranscriber({ baseUrl: base, model: 'm' });
    replies.push({ status: 200, body: '{"text":"Spring\\u0000 \\ud800 "}' });
    const r = await stt.transcribe({ audio: { bytes: encodeWav(tone(16000, 1), 16000), format: 'wav' }, language: 'english', vocabulary: [] });
    expect(r).toEqual({ ok: true, text: 'Spring \ufffd', recogniser: 'http:m' });
  });

  it('sends raw PCM as a 16 kHz WAV', async () => {
    const stt = new HttpTranscriber({ baseUrl: base, model: 'm' });
    replies.push({ status: 200, body: JSON.stringify({ text: 'hello' }) });
    const pcm = tone(16000, 1);
    await stt.transcribe({ audio: { bytes: new Uint8Array(pcm.buffer), format: 'pcm16' }, language: 'english', vocabulary: [] });
    expect(seen[0]?.auth).toBeUndefined();
    expect(seen[0]?.body.includes(Buffer.from(encodeWav(pcm, 16000)))).toBe(true);
    expect(seen[0]?.body.toString('latin1')).toContain('filename="speech.wav"');
    expect(seen[0]?.body.toString('latin1')).not.toContain('name="prompt"');
  });

  it('retries once on a server error, then explains', async () => {
    const stt = new HttpTranscriber({ baseUrl: base, model: 'm' });
    const wav = encodeWav(tone(16000, 1), 16000);
    replies.push({ status: 503, body: 'busy' }, { status: 200, body: JSON.stringify({ text: 'second time lucky' }) });
    expect(await stt.transcribe({ audio: { bytes: wav, format: 'wav' }, language: 'english', vocabulary: [] })).toMatchObject({ ok: true, text: 'second time lucky' });
    expect(seen.length).toBe(2);
    replies.push({ status: 500, body: 'x' }, { status: 502, body: 'y' });
    expect(await stt.transcribe({ audio: { bytes: wav, format: 'wav' }, language: 'english', vocabulary: [] })).toEqual({
      ok: false, message: 'The speech-to-text provider answered HTTP 502: try again, or type your answer.',
    });
    expect(seen.length).toBe(4);
  });

  it('does not retry a refused key, and says which setting to check', async () => {
    const stt = new HttpTranscriber({ baseUrl: base, apiKey: 'bad', model: 'm' });
    replies.push({ status: 401, body: '{"error":"invalid key"}' });
    expect(await stt.transcribe({ audio: { bytes: encodeWav(tone(16000, 1), 16000), format: 'wav' }, language: 'english', vocabulary: [] })).toEqual({
      ok: false, message: 'The speech-to-text provider refused the request (HTTP 401): check STT_API_KEY.',
    });
    expect(seen.length).toBe(1);
  });

  it('times out, retries once, then explains', async () => {
    const stt = new HttpTranscriber({ baseUrl: base, model: 'm', timeoutMs: 500 });
    replies.push({ status: 200, body: '{"text":"late"}', delayMs: 1500 }, { status: 200, body: '{"text":"late"}', delayMs: 1500 });
    expect(await stt.transcribe({ audio: { bytes: encodeWav(tone(16000, 1), 16000), format: 'wav' }, language: 'english', vocabulary: [] })).toEqual({
      ok: false, message: 'The speech-to-text provider took too long to answer: try again, or type your answer.',
    });
  });

  it('checks the audio before sending anything', async () => {
    const stt = new HttpTranscriber({ baseUrl: base, model: 'm', maxSeconds: 2 });
    expect(await stt.transcribe({ audio: { bytes: new Uint8Array(10), format: 'mp3' }, language: 'english', vocabulary: [] })).toEqual({ ok: false, message: 'The audio could not be decoded as MP3.' });
    expect(await stt.transcribe({ audio: { bytes: encodeWav(tone(16000, 3), 16000), format: 'wav' }, language: 'english', vocabulary: [] })).toEqual({ ok: false, message: 'The audio is longer than 2 seconds.' });
    expect(seen.length).toBe(0);
  });

  it('answers "didn\'t catch that" for an empty transcript', async () => {
    const stt = new HttpTranscriber({ baseUrl: base, model: 'm' });
    replies.push({ status: 200, body: '{"text":"  "}' });
    expect(await stt.transcribe({ audio: { bytes: encodeWav(tone(16000, 1), 16000), format: 'wav' }, language: 'english', vocabulary: [] })).toEqual({ ok: false, message: "Sorry, I didn't catch that.", notCaught: true });
  });

  it('builds URLs and prompts', () => {
    expect(apiUrl('https://api.example.com/v1/', 'audio/speech')).toBe('https://api.example.com/v1/audio/speech');
    expect(apiUrl('http://localhost:8000', 'audio/speech')).toBe('http://localhost:8000/v1/audio/speech');
    expect(apiUrl('https://x.test/openai/v1', 'audio/transcriptions')).toBe('https://x.test/openai/v1/audio/transcriptions');
    expect(vocabularyPrompt(['a', 'b'])).toBe('a, b');
    expect(vocabularyPrompt(Array.from({ length: 500 }, () => 'lantern')).length).toBeLessThanOrEqual(600);
  });
});

describe('HTTP text-to-speech', () => {
  it('asks for MP3 per sentence with the character voice, and yields each in order', async () => {
    const tts = new HttpSynthesizer({ baseUrl: base, apiKey: 'sk-tts-SECRET', model: 'tts-1', voices: ['alloy', 'nova'], voiceMap: { bram: 'onyx' } });
    replies.push({ status: 200, body: Buffer.from('mp3-one'), type: 'audio/mpeg', delayMs: 50 }, { status: 200, body: Buffer.from('mp3-two'), type: 'audio/mpeg' });
    const chunks: string[] = [];
    for await (const c of tts.speak({ text: 'Push on three, all of you! Now heave together.', language: 'english', emotion: 'anger', intensity: 5, speaker: 'bram' })) chunks.push(Buffer.from(c).toString());
    expect(chunks).toEqual(['mp3-one', 'mp3-two']);
    const bodies = seen.map((s) => JSON.parse(s.body.toString()) as Record<string, unknown>);
    expect(seen.every((s) => s.path === '/v1/audio/speech' && s.auth === 'Bearer sk-tts-SECRET')).toBe(true);
    expect(bodies.map((b) => b.input).sort()).toEqual(['Now heave together.', 'Push on three, all of you!']);
    expect(bodies[0]).toMatchObject({ model: 'tts-1', voice: 'onyx', response_format: 'mp3', speed: 1.15 });
  });

  it('keeps one voice per character: story name, then map, then a stable pick', () => {
    const tts = new HttpSynthesizer({ baseUrl: base, model: 'tts-1', voices: ['alloy', 'echo', 'fable', 'onyx', 'nova', 'shimmer'], voiceMap: { bram: 'onyx' } });
    expect(tts.voiceFor({ voice: { name: 'verse' }, speaker: 'bram' })).toBe('verse');
    expect(tts.voiceFor({ speaker: 'bram' })).toBe('onyx');
    const picks = ['nell', 'wren', 'ysolde', 'marthe', 'orla', 'tam'].map((s) => tts.voiceFor({ speaker: s }));
    expect(picks).toEqual(['nell', 'wren', 'ysolde', 'marthe', 'orla', 'tam'].map((s) => tts.voiceFor({ speaker: s })));
    expect(new Set(picks).size).toBeGreaterThan(2);
    expect(tts.voiceFor({})).toBe('alloy');
  });

  it('skips a sentence that fails (after one retry on 5xx) and goes on with the next', async () => {
    const tts = new HttpSynthesizer({ baseUrl: base, model: 'tts-1', voices: ['alloy'] });
    replies.push({ status: 500, body: 'x', delayMs: 20 }, { status: 200, body: Buffer.from('two'), type: 'audio/mpeg' }, { status: 500, body: 'x' });
    const chunks: string[] = [];
    for await (const c of tts.speak({ text: 'First sentence here. Second sentence here.', language: 'english', emotion: 'normal', intensity: 1 })) chunks.push(Buffer.from(c).toString());
    expect(chunks).toEqual(['two']);
  });
});
