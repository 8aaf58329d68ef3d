// The browser test harness: a real game server (every module, PGlite in a temp DATA_DIR, on an ephemeral port, the
// fixture stories seeded, the dev outbox on) serving the real build of the web app, and the system Chromium driven by
// playwright-core. Every browser test and the screenshot script start here.
//
//   const h = await startHarness();                 // server + browser
//   const page = await h.newPage({ viewport: PHONE });
//   await page.goto(`${h.url}/browse`);
//   ...
//   await h.close();
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { buildWeb, DIST, isStale } from '../../scripts/build-web.js';
import { spawnServer, type ServerProcess } from '../helpers/server-process.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const PHONE = { width: 390, height: 844 } as const;
/** The smallest phone the layout is held to. */
export const SMALL_PHONE = { width: 360, height: 640 } as const;
export const DESKTOP = { width: 1440, height: 900 } as const;
export const STORIES_DIR = join(import.meta.dirname, '..', '..', 'fixtures', 'stories');
export const PASSWORD = 'correct horse battery staple';

/** Flags for a quiet, headless Chromium in a container (the machine notes' list). */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

/**
 * Chromium's fake microphone playing a WAV once (offline-voice.md: pad the clip with >= 0.5 s of silence, the device
 * runs at 44.1 kHz stereo; turn off echoCancellation, noiseSuppression and autoGainControl in getUserMedia).
 */
export function fakeMicrophoneArgs(wavFile?: string): string[] {
  return [
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    ...(wavFile ? [`--use-file-for-fake-audio-capture=${wavFile}%noloop`] : []),
  ];
}

/** Builds web/dist once if its sources changed (a lock keeps parallel test files from building twice). */
export async function ensureWebBuilt(): Promise<void> {
  if (!isStale()) return;
  const lock = join(tmpdir(), 'looptale-web-build.lock');
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another worker builds: wait for it (a lock older than 3 minutes is a crashed build's).
      try {
        if (Date.now() - statSync(lock).mtimeMs > 180_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        // gone meanwhile
      }
      await new Promise((r) => setTimeout(r, 250));
      if (!isStale()) return;
    }
  }
  try {
    if (isStale()) await buildWeb({ quiet: true });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  if (!existsSync(join(DIST, 'index.html'))) throw new Error('web/dist was not built');
}

export type Harness = {
  server: TestServer;
  /** http://127.0.0.1:PORT, the app and the API. */
  url: string;
  browser: Browser;
  /** A fresh context (its own storage) and page; `signedInAs` starts it with that account's session. */
  newPage(opts?: BrowserContextOptions & { signedInAs?: Account }): Promise<Page>;
  close(): Promise<void>;
};

export type HarnessOptions = {
  /** Server environment on top of the harness's (seeded stories, dev outbox on, text-only voice). */
  env?: Record<string, string>;
  /** More Chromium flags (fakeMicrophoneArgs(...)). */
  args?: string[];
};

/**
 * E2E_WEB_DIST serves another build of the web app instead of this checkout's (a copy of an earlier web/dist, to see a
 * browser test fail on the code before a change, or to take "before" screenshots while the sources change).
 */
const OTHER_DIST = process.env.E2E_WEB_DIST;

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  if (!OTHER_DIST) await ensureWebBuilt();
  const server = await startTestServer({
    SEED_STORIES: 'true', STORIES_DIR, DEV_OUTBOX: 'true', AUTH_RATE_LIMIT_SCALE: '20', ...(OTHER_DIST ? { WEB_DIST: OTHER_DIST } : {}), ...opts.env,
  });
  const b = await withBrowser(server.url, () => server.close(), opts.args ?? []);
  return { ...b, server };
}

/**
 * The harness with the server in its own process and voice on (pocketsphinx recognition, eSpeak replies as MP3
 * AUDIO_ANSWER frames): eSpeak's worker thread does not start inside the test runner's workers.
 */
export async function startVoiceHarness(opts: HarnessOptions = {}): Promise<BrowserHarness> {
  await ensureWebBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'looptale-e2e-voice-'));
  let server: ServerProcess;
  try {
    // A generous recognition deadline: on a loaded machine a late recognition would be a miss, not a slow turn.
    server = await spawnServer({
      SEED_STORIES: 'true', STORIES_DIR, DATA_DIR: dataDir, DEV_OUTBOX: 'true', AUTH_RATE_LIMIT_SCALE: '20', VOICE: 'on',
      POCKETSPHINX_TIMEOUT_MS: '60000', ...opts.env,
    }); // spawnServer's default 120 s: on a busy machine this server (decoder, eSpeak) can take over a minute to start
  } catch (e) {
    rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
  return withBrowser(server.url, async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, opts.args ?? []);
}

export type BrowserHarness = Omit<Harness, 'server'>;

async function withBrowser(url: string, closeServer: () => Promise<void>, args: string[]): Promise<BrowserHarness> {
  let browser: Browser;
  try {
    browser = await launchChromium(args);
  } catch (e) {
    await closeServer();
    throw e;
  }
  const contexts = new Set<BrowserContext>();
  return {
    url,
    browser,
    async newPage(o = {}) {
      const { signedInAs, ...options } = o;
      const context = await browser.newContext({ viewport: DESKTOP, ...options });
      contexts.add(context);
      if (signedInAs) await context.addInitScript({ content: storeSessionScript(sessionKey(url), signedInAs.session) });
      const page = await context.newPage();
      // A page error fails loudly in the test's output rather than passing unseen.
      page.on('pageerror', (e) => process.stderr.write(`[page error] ${e.message}\n`));
      return page;
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      await closeServer();
    },
  };
}

export function launchChromium(args: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS, ...args] });
}

/** A persistent context in a fresh profile directory (for flags that need one, e.g. a new fake-microphone file per run). */
export async function launchPersistent(args: string[] = [], options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'looptale-chromium-'));
  const context = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS, ...args], viewport: DESKTOP, ...options });
  return { context, close: async () => { await context.close().catch(() => undefined); rmSync(dir, { recursive: true, force: true }); } };
}

// ---- accounts

export type Session = { access_token: string; refresh_token: string; expires_in: number; expires_at?: number; token_type: string; user: { id: string; email?: string } };
export type Account = { email: string; password: string; session: Session };

let accounts = 0;

/** A fresh address for this run (tests never share accounts). */
export function freshEmail(prefix = 'player'): string {
  return `${prefix}-${Date.now().toString(36)}-${(accounts++).toString(36)}@example.com`;
}

/** Signs up through the API (what the modal does, without the browser): the account and its session. */
export async function signUp(url: string, email = freshEmail(), password = PASSWORD): Promise<Account> {
  const res = await fetch(`${url}/auth/v1/signup`, { method: 'POST', headers: { 'content-type': 'application/json', apikey: 'test' }, body: JSON.stringify({ email, password }) });
  if (!res.ok) throw new Error(`sign-up failed (${res.status}): ${await res.text()}`);
  const session = (await res.json()) as Session;
  return { email, password, session: { ...session, expires_at: session.expires_at ?? Math.floor(Date.now() / 1000) + session.expires_in } };
}

/** supabase-js's storage key for the app's auth session on this host. */
export function sessionKey(url: string): string {
  return `sb-${new URL(url).hostname}-auth-token`;
}

/** A script run in the page before its own: the session where supabase-js looks for it. */
function storeSessionScript(key: string, session: Session): string {
  return `window.localStorage.setItem(${JSON.stringify(key)}, ${JSON.stringify(JSON.stringify(session))});`;
}

// ---- the dev outbox

export type OutboxMessage = { to: string; type: string; subject: string; link: string; code: string };

/** The last email the server "sent" to `email` (DEV_OUTBOX), waiting for it up to `timeoutMs`. */
export async function lastEmail(url: string, email: string, type?: string, timeoutMs = 10_000): Promise<OutboxMessage> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${url}/dev/outbox?email=${encodeURIComponent(email)}`);
    if (!res.ok) throw new Error(`GET /dev/outbox answered ${res.status}: is DEV_OUTBOX on?`);
    const list = (await res.json()) as OutboxMessage[];
    const found = list.filter((m) => m.to === email && (!type || m.type === type)).at(-1);
    if (found) return found;
    if (Date.now() > until) throw new Error(`no ${type ?? ''} email for ${email} in the dev outbox`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
