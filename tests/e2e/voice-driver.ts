// Speaking to the game through Chromium's fake microphone. The fake device reads its WAV file again each time the page
// opens the microphone (a new getUserMedia restarts it from the beginning), so one Chromium serves a whole run: the
// test puts the next answer's clip at the microphone's path (an atomic rename), taps REC, and the page's own silence
// rule stops the recording 3 s after the clip's speech ends. Between answers the file holds silence.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Page, WebSocket } from 'playwright-core';
import { decodeClientFrame, decodeServerFrame } from '../../engine/protocol/codec.js';
import type { UserInput } from '../../engine/protocol/user-input.js';
import { decodeSpeech } from '../../server/voice/audio.js';
import { encodeWav } from '../../server/voice/wav.js';
import { DESKTOP, fakeMicrophoneArgs, PHONE } from './harness.js';
import { settle, subScreen } from './game-driver.js';

export const AUDIO_DIR = join(import.meta.dirname, '..', '..', 'fixtures', 'audio');

/** A WAV of `seconds` of silence, 16 kHz mono 16-bit. */
export function silentWav(seconds = 0.5): Buffer {
  const samples = Math.round(16000 * seconds);
  const b = Buffer.alloc(44 + samples * 2);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + samples * 2, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(16000, 24);
  b.writeUInt32LE(32000, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36);
  b.writeUInt32LE(samples * 2, 40);
  return b;
}

/** The fake microphone's file: what the next getUserMedia plays (once). */
export class FakeMic {
  readonly dir = mkdtempSync(join(tmpdir(), 'looptale-mic-'));
  readonly path = join(this.dir, 'mic.wav');
  readonly #silence = join(this.dir, 'silence.wav');

  constructor() {
    writeFileSync(this.#silence, silentWav());
    this.silence();
  }

  /** Chromium's flags for this microphone. */
  get args(): string[] {
    return fakeMicrophoneArgs(this.path);
  }

  /** The next recording plays this WAV. */
  load(wav: string): void {
    copyFileSync(wav, `${this.path}.next`);
    renameSync(`${this.path}.next`, this.path);
  }

  silence(): void {
    this.load(this.#silence);
  }

  /** An MP3 clip as a 16 kHz WAV the fake device can play (decoded once). */
  async wavOf(mp3: string): Promise<string> {
    const out = join(this.dir, `${basename(mp3, '.mp3')}.wav`);
    if (existsSync(out)) return out;
    const d = await decodeSpeech({ bytes: new Uint8Array(readFileSync(mp3)), format: 'mp3' });
    if (!d.ok) throw new Error(`${mp3}: ${d.message}`);
    writeFileSync(out, encodeWav(d.samples, d.sampleRate));
    return out;
  }

  /** The recording for a try: the clean WAV first, then each voice's MP3 in turn. */
  async variant(clip: Clip, attempt: number): Promise<string> {
    if (attempt <= 1 || clip.mp3s.length === 0) return clip.wav;
    return this.wavOf(clip.mp3s[(attempt - 2) % clip.mp3s.length] ?? '');
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A line's recordings: the clean voice's WAV, and MP3s of every voice (the clean one first) for another try. */
export type Clip = { text: string; wav: string; mp3s: string[] };

/** The clips of a story by their words (fixtures/audio/<story>/<lang>/*.json; a line needs the clean voice's WAV). */
export function clips(story: string, lang: 'en' | 'fr' = 'en', voice = 'm3-175-50'): Map<string, Clip> {
  const dir = join(AUDIO_DIR, story, lang);
  const out = new Map<string, Clip>();
  const metas = readdirSync(dir).filter((n) => n.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { text: string; voice: { id: string }; files: { wav?: string; mp3?: string } })
    // The clean voice first.
    .sort((a, b) => Number(b.voice.id === voice) - Number(a.voice.id === voice));
  for (const m of metas) {
    const c = out.get(m.text) ?? { text: m.text, wav: '', mp3s: [] };
    if (m.voice.id === voice && m.files.wav) c.wav = join(dir, m.files.wav);
    // Noisy voices are left out: their noise never reads as silence, so the recording would not stop by itself.
    if (m.files.mp3 && !m.voice.id.includes('noise')) c.mp3s.push(join(dir, m.files.mp3));
    out.set(m.text, c);
  }
  for (const [k, c] of out) if (!c.wav) out.delete(k);
  return out;
}

export function clipFor(all: Map<string, Clip>, text: string): Clip {
  const c = all.get(text);
  if (!c) throw new Error(`no WAV clip says "${text}"`);
  return c;
}

/** Every USER_INPUT the page sent over its sockets: the JSON and the size of the audio after it. */
export type SentInput = { input: UserInput; audioBytes: number };

/** The page's socket traffic: USER_INPUTs sent, and the words the server heard (GAME_OUTPUT transcribed_player_answer). */
export function recordTraffic(page: Page): { sent: SentInput[]; heard: string[] } {
  const sent: SentInput[] = [];
  const heard: string[] = [];
  page.on('websocket', (ws: WebSocket) => {
    ws.on('framesent', (f) => {
      if (typeof f.payload === 'string') return;
      const d = decodeClientFrame(new Uint8Array(f.payload));
      if (d.ok && d.frame.type === 'USER_INPUT') sent.push({ input: d.frame.input, audioBytes: d.frame.audio?.length ?? 0 });
    });
    ws.on('framereceived', (f) => {
      if (typeof f.payload === 'string') return;
      const d = decodeServerFrame(new Uint8Array(f.payload));
      if (d.ok && d.frame.type === 'GAME_OUTPUT' && !d.frame.output.is_starting_dialogue) heard.push(d.frame.output.transcribed_player_answer);
    });
  });
  return { sent, heard };
}

/** Waits for the end of the run (YOU WON / YOU LOOSE), the last reply heard out. */
export async function untilEnd(page: Page, timeoutMs = 90_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const s = await settle(page, { timeoutMs: Math.max(1000, until - Date.now()) });
    if (s === 'game_won' || s === 'game_lost') return s;
    if (Date.now() > until) throw new Error(`the run did not end (${s})`);
    await page.waitForTimeout(250);
  }
}

const STATE = '[data-testid="record-button"]';

export async function recordState(page: Page): Promise<string | null> {
  return page.locator(STATE).getAttribute('data-state', { timeout: 5000 }).catch(() => null);
}

/** How many times the page marked `name` (the voice loop's performance marks, web/src/game/voice/marks.ts). */
export async function marks(page: Page, name: string): Promise<{ count: number; last: unknown }> {
  return page.evaluate((n) => {
    const all = performance.getEntriesByName(n) as PerformanceMark[];
    return { count: all.length, last: (all.at(-1)?.detail as unknown) ?? null };
  }, name);
}

/** The words of the player's caption (without the 'You' label). */
export async function playerCaption(page: Page): Promise<string> {
  const text = await page.locator('[data-testid="caption-player"]').textContent({ timeout: 5000 }).catch(() => null);
  return (text ?? '').replace(/^You/, '').trim();
}

/**
 * Waits until the player can speak: in game, the record button REC and enabled. Start / Start next moment and
 * overlays are handled on the way (settle); a reply still playing is skipped (SKIP) when `skip` is set, else heard out.
 */
export async function untilIdle(page: Page, opts: { skip?: boolean; timeoutMs?: number } = {}): Promise<void> {
  const until = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    const screen = await settle(page, { timeoutMs: Math.max(1000, until - Date.now()) });
    if (screen !== 'in_game') throw new Error(`the run ended (${screen}) while waiting to speak`);
    const button = page.locator(STATE);
    const state = await recordState(page);
    if (state === 'IDLE' && (await button.isEnabled({ timeout: 1000 }).catch(() => false))) return;
    if (state === 'GAME_SPEAKING' && opts.skip && (await button.isEnabled({ timeout: 1000 }).catch(() => false))) await button.click({ timeout: 2000 }).catch(() => undefined);
    if (Date.now() > until) {
      if (process.env.GAME_E2E_DEBUG) await page.screenshot({ path: join(tmpdir(), `looptale-voice-fail-${Date.now()}.png`) }).catch(() => undefined);
      throw new Error(`the record button stayed ${state} (sub-screen ${await subScreen(page)})`);
    }
    await page.waitForTimeout(100);
  }
}

export type Spoken = { heard: string; sentBytes: number; stoppedBy: unknown };

/**
 * Speaks one clip: REC, the clip plays into the microphone, the page stops on the silence after it and sends the MP3;
 * resolves with what the server heard (the player's caption) once the game answered.
 */
export async function speak(page: Page, mic: FakeMic, clip: Clip | string, opts: { skip?: boolean; whileRecording?: () => Promise<void>; micAfter?: string } = {}): Promise<Spoken> {
  const t0 = Date.now();
  const lap = (what: string): void => {
    if (process.env.GAME_E2E_DEBUG) process.stderr.write(`[voice] +${Date.now() - t0} ms ${what}\n`);
  };
  const sentBefore = (await marks(page, 'looptale:audio-sent')).count;
  // A reply's audio may arrive just as REC is tapped (the tap then skips it): wait for REC again and retry. The clip
  // goes in only once REC shows (barge-in listens while a reply plays: it would hear it too).
  for (let tap = 1; ; tap++) {
    await untilIdle(page, { skip: opts.skip ?? true });
    mic.load(typeof clip === 'string' ? clip : clip.wav);
    await page.locator(STATE).click();
    const started = await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-state') === 'PLAYER_SPEAKING', STATE, { timeout: 5000 }).then(() => true, () => false);
    if (started) {
      lap('recording');
      await opts.whileRecording?.();
      break;
    }
    mic.silence();
    if (tap >= 5) throw new Error(`REC did not start recording (${await recordState(page)})`);
  }
  // No tap on STOP: the recording ends by itself, > 3000 ms after the speech.
  await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-state') !== 'PLAYER_SPEAKING', STATE, { timeout: 30_000 });
  if (opts.micAfter) mic.load(opts.micAfter);
  else mic.silence();
  lap('stopped');
  const speechEnd = await marks(page, 'looptale:speech-end');
  await page.waitForFunction((n) => performance.getEntriesByName('looptale:audio-sent').length > n, sentBefore, { timeout: 15_000 });
  const sent = (await marks(page, 'looptale:audio-sent')).last as { bytes: number };
  // The answer: the game stops thinking and the player's caption shows what was heard (a reply's audio may start
  // before the turn is applied, while the game view is read), or the run moved on to another sub-screen.
  await page.waitForFunction((sel) => (document.querySelector(sel)?.getAttribute('data-state') !== 'PROCESSING'
    && !document.querySelector('[data-testid="caption-player"].is-pending'))
    || document.querySelector('[data-testid="game-screen"]')?.getAttribute('data-sub-screen') !== 'in_game', STATE, { timeout: 60_000 });
  lap('answered');
  return { heard: await playerCaption(page), sentBytes: sent.bytes, stoppedBy: (speechEnd.last as { by?: string } | null)?.by };
}

/**
 * Plays lines by voice: settles (Start, Start next moment, overlays), speaks each line's clip, retrying a line the
 * recogniser did not catch (up to `tries` times). Returns the sub-screen it ends on and what was heard.
 */
export async function playSpoken(page: Page, mic: FakeMic, all: Map<string, Clip>, lines: readonly string[], tries = 4, opts: { toEnd?: boolean } = {}): Promise<{ end: string; heard: Spoken[] }> {
  const heard: Spoken[] = [];
  for (const line of lines) {
    const clip = clipFor(all, line);
    for (let attempt = 1; ; attempt++) {
      const r = await speak(page, mic, await mic.variant(clip, attempt));
      heard.push(r);
      if (process.env.GAME_E2E_DEBUG) process.stderr.write(`[voice] try ${attempt} "${line}" heard as "${r.heard}" (${r.sentBytes} B, by ${String(r.stoppedBy)})\n`);
      const caught = (await page.locator('[data-testid="caption-miss"], [data-testid="caption-hint"]').count()) === 0;
      if (caught || attempt >= tries) break;
    }
  }
  return { end: opts.toEnd === false ? (await subScreen(page)) ?? '' : await untilEnd(page), heard };
}

/**
 * With GAME_VOICE_SHOTS=<dir>: the page as it is now at 390x844 and 1440x900 (`<name>.phone.png`, `.desktop.png`),
 * then back to the page's size. For looking at the record button's states (REC, STOP, SKIP).
 */
export async function shoot(page: Page, name: string): Promise<void> {
  const dir = process.env.GAME_VOICE_SHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const size = page.viewportSize();
  for (const [label, vp] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
    await page.setViewportSize(vp);
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(dir, `${name}.${label}.png`) });
  }
  if (size) await page.setViewportSize(size);
}
