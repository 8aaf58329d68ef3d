// What a game page did lately, kept so that a stuck driver can say it: its HTTP requests and their answers, its socket
// frames (decoded: which USER_INPUT went, which GAME_OUTPUT / ERROR_MESSAGE came), socket closes and console messages.
// game-driver.ts starts it when it opens a game and prints it (with what the screen shows) when the game does not settle.
import type { Page, WebSocket } from 'playwright-core';
import { decodeClientFrame, decodeServerFrame } from '../../engine/protocol/codec.js';

const KEEP = 60;
const trails = new WeakMap<Page, string[]>();

function note(trail: string[], t0: number, text: string): void {
  trail.push(`+${((Date.now() - t0) / 1000).toFixed(1)}s ${text}`);
  if (trail.length > KEEP) trail.splice(0, trail.length - KEEP);
}

function clientFrame(payload: string | Buffer): string {
  if (typeof payload === 'string') return `text ${payload.slice(0, 80)}`;
  const d = decodeClientFrame(new Uint8Array(payload));
  if (!d.ok) return 'undecodable';
  if (d.frame.type !== 'USER_INPUT') return d.frame.type;
  const i = d.frame.input;
  return `USER_INPUT ${i.input_id.slice(0, 8)} ${i.is_starting_dialogue ? 'start' : JSON.stringify(i.transcription ?? `[${d.frame.audio?.length ?? 0} B audio]`)}`;
}

function serverFrame(payload: string | Buffer): string | null {
  if (typeof payload === 'string') return `text ${payload.slice(0, 80)}`;
  const d = decodeServerFrame(new Uint8Array(payload));
  if (!d.ok) return 'undecodable';
  const f = d.frame;
  if (f.type === 'GAME_OUTPUT') {
    const o = f.output;
    return `GAME_OUTPUT ${o.input_id.slice(0, 8)}${o.complete_the_moment ? ' complete' : ''} ${o.loop_status}`;
  }
  if (f.type === 'AUDIO_ANSWER') return `AUDIO_ANSWER ${f.header.input_id.slice(0, 8)} ${f.audio.length} B`;
  return f.type === 'ERROR_MESSAGE' ? `ERROR_MESSAGE ${JSON.stringify(f)}`.slice(0, 200) : f.type;
}

/** Adds a line of the driver's own (what it saw, what it pressed) to the page's trail. */
export function notePage(page: Page, text: string): void {
  const trail = trails.get(page);
  if (trail) note(trail, starts.get(page) ?? Date.now(), text);
}

const starts = new WeakMap<Page, number>();

/** Starts keeping the page's trail (once per page). */
export function watchPage(page: Page): void {
  if (trails.has(page)) return;
  const trail: string[] = [];
  trails.set(page, trail);
  const t0 = Date.now();
  starts.set(page, t0);
  const api = (url: string): boolean => url.includes('/api/') || url.includes('/auth/');
  page.on('request', (r) => { if (api(r.url())) note(trail, t0, `-> ${r.method()} ${new URL(r.url()).pathname}`); });
  page.on('response', (r) => { if (api(r.url())) note(trail, t0, `<- ${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`); });
  page.on('requestfailed', (r) => note(trail, t0, `xx ${r.method()} ${new URL(r.url()).pathname}: ${r.failure()?.errorText ?? '?'}`));
  page.on('console', (m) => note(trail, t0, `console.${m.type()} ${m.text().slice(0, 200)}`));
  page.on('websocket', (ws: WebSocket) => {
    note(trail, t0, `ws open ${new URL(ws.url()).pathname}`);
    ws.on('framesent', (f) => note(trail, t0, `ws> ${clientFrame(f.payload)}`));
    ws.on('framereceived', (f) => {
      const s = serverFrame(f.payload);
      if (s) note(trail, t0, `ws< ${s}`);
    });
    ws.on('socketerror', (e) => note(trail, t0, `ws error ${e}`));
    ws.on('close', () => note(trail, t0, 'ws closed'));
  });
}

/** What the game screen shows now and the page's trail, for an error message. */
export async function describePage(page: Page): Promise<string> {
  const shown = await page.evaluate(() => {
    // Typed here: the benches compile this file without the DOM lib.
    type El = { getAttribute(name: string): string | null; textContent: string | null; disabled?: boolean };
    const doc = (globalThis as unknown as { document: { querySelector(s: string): El | null; querySelectorAll(s: string): Iterable<El> } }).document;
    const attr = (sel: string, name: string): string | null => doc.querySelector(sel)?.getAttribute(name) ?? null;
    const text = (sel: string): string | null => doc.querySelector(sel)?.textContent?.trim().slice(0, 160) ?? null;
    const end = doc.querySelector('.end-screen button');
    return {
      subScreen: attr('[data-testid="game-screen"]', 'data-sub-screen'),
      momentComplete: attr('[data-testid="game-screen"]', 'data-moment-complete') !== null,
      endButton: end ? { text: end.textContent, disabled: end.disabled ?? null } : null,
      recordButton: attr('[data-testid="record-button"]', 'data-state'),
      errorDialog: text('[data-testid="error-dialog"]'),
      connection: text('[data-testid="connection-overlay"]'),
      audio: [...doc.querySelectorAll('[data-dialogue-audio] audio')].map((e) => e.getAttribute('data-state')),
      overlays: [...doc.querySelectorAll('[data-testid$="-overlay"], [data-game-dialog]')].map((e) => e.getAttribute('data-testid') ?? 'dialog'),
    };
  }).catch((e: unknown) => ({ unreadable: String(e) }));
  return `shows ${JSON.stringify(shown)}; last of the page:\n  ${(trails.get(page) ?? ['(not watched)']).join('\n  ')}`;
}
