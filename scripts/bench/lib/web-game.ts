// The game screen's section of `npm run bench -- web` (issue #10 §3), in real Chromium against the e2e harness:
//   size:    the JS and CSS /game/{id} loads (raw and gzip), the part of it /browse does not load, and the lazy chunks
//            the game loads later (story graph, MP3 worker);
//   fps:     the frame rate at 4x CPU slowdown (CDP Emulation.setCPUThrottlingRate) while the card fan opens, closes
//            and tilts under the pointer, and while the forging overlay plays (character card, then item card), beside
//            the same page idle at the same slowdown (the ratio survives a busy machine); goal >= 55 fps;
//   latency: speech end -> first reply audio playing (the voice loop's performance marks), p50/p95 over 20 spoken turns
//            (BENCH_WEB_VOICE_TURNS; 0 skips), beside the server's own total for the same turns (the run's transcript);
//            goal: the browser adds <= 60 ms.
// Page code is passed as strings: scripts/ compile without the DOM types.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { type Harness, PASSWORD, signUp } from '../../../tests/e2e/harness.js';
import { CLOCKWORK, CLOCKWORK_WIN, openGame, playPlan, settle, typeLine } from '../../../tests/e2e/game-driver.js';
import { ratio, round, summarize } from './stats.js';

const DIST = join(import.meta.dirname, '..', '..', '..', 'web', 'dist');
const THROTTLE = Number(process.env.BENCH_WEB_CPU_SLOWDOWN ?? 4);
const WINDOW_MS = Number(process.env.BENCH_WEB_FPS_MS ?? 4000);
const FPS_GOAL = 55;
const ADDED_GOAL_MS = 60;

type Frames = { fps: number; frames: number; window_ms: number; long_frames: number; worst_frame_ms: number };

/** requestAnimationFrame timestamps -> frames per second, frames longer than 1.5 vsyncs, the worst frame. */
function frameStats(t: number[]): Frames {
  const gaps = t.slice(1).map((x, i) => x - (t[i] ?? x));
  const span = (t.at(-1) ?? 0) - (t[0] ?? 0);
  return {
    fps: span > 0 ? round(((t.length - 1) * 1000) / span, 1) : 0,
    frames: t.length,
    window_ms: round(span, 0),
    long_frames: gaps.filter((g) => g > 25).length,
    worst_frame_ms: round(Math.max(0, ...gaps), 1),
  };
}

/** Records rAF timestamps for `ms` in the page (resolves with them). */
const RECORD = (ms: number) => `new Promise((resolve) => {
  const t = [];
  const start = performance.now();
  const f = (now) => { t.push(now); if (now - start < ${ms}) requestAnimationFrame(f); else resolve(t); };
  requestAnimationFrame(f);
})`;

/** The assets a page requested under /assets/. */
function trackAssets(page: Page): Set<string> {
  const loaded = new Set<string>();
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/assets/')) loaded.add(u.pathname.slice('/assets/'.length));
  });
  return loaded;
}

function sizes(files: Iterable<string>) {
  const list = [...files].filter((f) => /\.(js|css|wasm)$/.test(f)).sort().map((f) => {
    const body = readFileSync(join(DIST, 'assets', f));
    return { file: f, bytes: body.length, gzip_bytes: gzipSync(body, { level: 9 }).length };
  });
  const sum = (ext: string, k: 'bytes' | 'gzip_bytes') => list.filter((x) => x.file.endsWith(ext)).reduce((a, x) => a + x[k], 0);
  return { js_bytes: sum('.js', 'bytes'), js_gzip_bytes: sum('.js', 'gzip_bytes'), css_bytes: sum('.css', 'bytes'), css_gzip_bytes: sum('.css', 'gzip_bytes'), files: list };
}

async function size(h: Harness, account: Awaited<ReturnType<typeof signUp>>): Promise<Record<string, unknown>> {
  const browsePage = await h.newPage({ signedInAs: account });
  const browse = trackAssets(browsePage);
  await browsePage.goto(`${h.url}/browse`, { waitUntil: 'networkidle' });
  await browsePage.context().close();

  const page = await h.newPage({ signedInAs: account });
  const runId = await openGame(page, h.url, CLOCKWORK, { via: 'api' });
  // A second context for the cold load of /game/{id} alone (the first went through /browse to read the session).
  await page.context().close();
  const cold = await h.newPage({ signedInAs: account });
  const game = trackAssets(cold);
  await cold.goto(`${h.url}/game/${runId}`, { waitUntil: 'networkidle' });
  await cold.locator('[data-testid="game-screen"]').waitFor({ timeout: 30_000 });
  const first = new Set(game);
  // What the game loads later: the story graph with the menu.
  await settle(cold);
  await cold.getByRole('button', { name: 'Menu' }).click();
  await cold.locator('[data-testid="story-node"]').first().waitFor({ timeout: 30_000 });
  await cold.context().close();
  const later = [...game].filter((f) => !first.has(f));
  return {
    game_first_load: sizes(first),
    game_only: sizes([...first].filter((f) => !browse.has(f))),
    loaded_later: sizes(later),
    note: 'game_first_load: every JS/CSS file a cold /game/{id} requests; game_only: those /browse does not load; loaded_later: the menu\'s story graph (the MP3 worker and its WASM load with the first recording, not measured here)',
  };
}

/** Frame rate while the pointer sweeps the hand's fans (hover opens them, each card tilts), and idle, at the slowdown. */
export async function cardFanFps(page: Page): Promise<{ idle: Frames; card_fan: Frames }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  try {
    const idle = frameStats(await page.evaluate<number[]>(RECORD(WINDOW_MS)));
    const hand = await page.locator('.in-game__hand').boundingBox();
    if (!hand) throw new Error('no hand on screen');
    const recording = page.evaluate<number[]>(RECORD(WINDOW_MS));
    const until = Date.now() + WINDOW_MS;
    const y = hand.y + hand.height * 0.6;
    while (Date.now() < until) {
      // In along the fans, out below them: the fans open, tilt card by card and close again.
      for (let i = 0; i <= 12 && Date.now() < until; i++) await page.mouse.move(hand.x + (hand.width * i) / 12, y, { steps: 2 });
      await page.mouse.move(hand.x + hand.width / 2, hand.y - 120, { steps: 2 });
    }
    const card_fan = frameStats(await recording);
    return { idle, card_fan };
  } finally {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await cdp.detach();
  }
}

/** Starts recording frames when the forging overlay appears, until it goes (character card 3000 ms, item card 5000 ms). */
const WATCH_FORGING = `(() => {
  window.__forging = null;
  const obs = new MutationObserver(() => {
    if (window.__forging || !document.querySelector('[data-testid="forging-overlay"]')) return;
    const t = [];
    window.__forging = { t, done: false, phases: [] };
    const f = (now) => {
      t.push(now);
      const el = document.querySelector('[data-testid="forging-overlay"]');
      const phase = el && el.getAttribute('data-phase');
      if (phase && !window.__forging.phases.includes(phase)) window.__forging.phases.push(phase);
      if (el && now - t[0] < 9000) requestAnimationFrame(f); else window.__forging.done = true;
    };
    requestAnimationFrame(f);
    obs.disconnect();
  });
  obs.observe(document.body, { subtree: true, childList: true });
})()`;

async function forgingFps(page: Page): Promise<Frames & { phases: string[] }> {
  // The Clockwork Siege up to its Equip moment; the next line equips the Chime-Hammer: the forging overlay.
  await playPlan(page, CLOCKWORK_WIN.slice(0, 8));
  const line = CLOCKWORK_WIN[8];
  if (typeof line !== 'string') throw new Error('plan step 8 is not a line');
  await page.evaluate(WATCH_FORGING);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  try {
    await typeLine(page, line);
    await page.waitForFunction('window.__forging && window.__forging.done', undefined, { timeout: 60_000 });
    const r = await page.evaluate<{ t: number[]; phases: string[] }>('window.__forging');
    return { ...frameStats(r.t), phases: r.phases };
  } finally {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await cdp.detach();
  }
}

type VoiceTurn = { input_id: string; heard: string; browser_ms: number | null; server_total_ms: number | null };

/**
 * Speech end -> first reply audio in the browser beside the server's total for the same turns (tests/e2e/
 * voice-latency.ts, which runs page code and so compiles with the browser tests: loaded by path here).
 */
async function latency(): Promise<Record<string, unknown>> {
  const turns = Number(process.env.BENCH_WEB_VOICE_TURNS ?? 20);
  if (turns <= 0) return { skipped: 'BENCH_WEB_VOICE_TURNS=0' };
  const root = join(import.meta.dirname, '..', '..', '..');
  const mod = (await import(pathToFileURL(join(root, 'tests', 'e2e', 'voice-latency.ts')).href)) as { voiceLatency: (n: number) => Promise<{ turns: VoiceTurn[]; misses: number }> };
  const r = await mod.voiceLatency(turns);
  const paired = r.turns.filter((t): t is VoiceTurn & { browser_ms: number; server_total_ms: number } => t.browser_ms !== null && t.server_total_ms !== null);
  // The page marks the first audio that plays after an answer: a late opening line's audio can come first. Such a
  // turn shows less time in the browser than on the server, which cannot be: left out, and counted.
  const both = paired.filter((t) => t.browser_ms >= t.server_total_ms);
  const browser = summarize(both.map((t) => t.browser_ms), 1);
  const server = summarize(both.map((t) => t.server_total_ms), 1);
  const added = summarize(both.map((t) => t.browser_ms - t.server_total_ms), 1);
  return {
    turns_spoken: r.turns.length, turns_paired: both.length, misattributed: paired.length - both.length, misses: r.misses, goal_added_ms: ADDED_GOAL_MS,
    browser_speech_end_to_first_audio_ms: browser, server_total_ms: server, browser_added_ms: added,
    p50_added_ms: browser.p50 === null || server.p50 === null ? null : round(browser.p50 - server.p50, 1),
    p95_added_ms: browser.p95 === null || server.p95 === null ? null : round(browser.p95 - server.p95, 1),
    within_goal: added.p50 !== null && added.p50 <= ADDED_GOAL_MS,
    per_turn: r.turns,
  };
}

export async function gameBench(h: Harness): Promise<Record<string, unknown>> {
  const account = await signUp(h.url, undefined, PASSWORD);
  const out: Record<string, unknown> = { size: await size(h, account) };

  const page = await h.newPage({ signedInAs: account, bypassCSP: true });
  await openGame(page, h.url, CLOCKWORK, { via: 'api' });
  // Four characters and two items in the hand (after the Upgrade's reward), as in a real mid-run screen.
  await playPlan(page, CLOCKWORK_WIN.slice(0, 7));
  const fan = await cardFanFps(page);
  await page.context().close();

  const forgingPage = await h.newPage({ signedInAs: account, bypassCSP: true });
  await openGame(forgingPage, h.url, CLOCKWORK, { via: 'api' });
  const forging = await forgingFps(forgingPage);
  await forgingPage.context().close();

  out.fps = {
    cpu_slowdown: THROTTLE, goal_fps: FPS_GOAL, window_ms: WINDOW_MS,
    idle: fan.idle, card_fan: fan.card_fan, forging,
    card_fan_within_goal: fan.card_fan.fps >= FPS_GOAL, forging_within_goal: forging.fps >= FPS_GOAL,
    card_fan_ratio_to_idle: ratio(fan.card_fan.fps, fan.idle.fps), forging_ratio_to_idle: ratio(forging.fps, fan.idle.fps),
  };
  out.latency = await latency();
  return out;
}
