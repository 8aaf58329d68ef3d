// `npm run bench -- web`: the web app's figures, in real Chromium against a real server (the e2e harness).
//   bundle: the JS and CSS /browse loads, gzip-compressed as the server sends them (goal <= 150 KB of JS), and the
//           lazily loaded chunks (admin, game) with a check that /browse loaded none of them.
//   paint:  time to the first catalogue card painted (public and personal catalogue), median of N page loads, side by
//           side with the baseline of a static page from the same server (/privacy.html's first contentful paint):
//           the ratio is the figure that survives a busy machine.
//   game:   the game screen (#10): /game's JS size, frame rate of the card fan and forging at 4x CPU slowdown, and the
//           voice loop's speech end -> first reply audio (scripts/bench/lib/web-game.ts).
// Modular: each section is a function of the harness; BENCH_WEB_SECTIONS=game (comma-separated) runs only those.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { type Harness, PASSWORD, signUp, startHarness } from '../../tests/e2e/harness.js';
import { gameBench } from './lib/web-game.js';

const DIST = join(import.meta.dirname, '..', '..', 'web', 'dist');
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 5);

function gzipBytes(file: string): number {
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
}

const round = (n: number) => Math.round(n * 10) / 10;

/** Which of the built assets /browse requested, and their gzip sizes. */
export async function bundle(h: Harness): Promise<Record<string, unknown>> {
  const page = await h.newPage();
  const loaded = new Set<string>();
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/assets/')) loaded.add(u.pathname.slice('/assets/'.length));
  });
  await page.goto(`${h.url}/browse`, { waitUntil: 'networkidle' });
  await page.getByTestId('story-card').first().waitFor();
  await page.context().close();
  const assets = readdirSync(join(DIST, 'assets')).filter((f) => /\.(js|css)$/.test(f));
  const size = (f: string) => ({ file: f, bytes: statSync(join(DIST, 'assets', f)).size, gzip_bytes: gzipBytes(join(DIST, 'assets', f)) });
  const browse = assets.filter((f) => loaded.has(f)).map(size);
  const lazy = assets.filter((f) => !loaded.has(f)).map(size);
  const sum = (xs: { gzip_bytes: number }[]) => xs.reduce((a, x) => a + x.gzip_bytes, 0);
  const js = browse.filter((x) => x.file.endsWith('.js'));
  const css = browse.filter((x) => x.file.endsWith('.css'));
  return {
    browse_js_gzip_bytes: sum(js),
    browse_css_gzip_bytes: sum(css),
    browse_js_goal_bytes: 150 * 1024,
    browse_js_within_goal: sum(js) <= 150 * 1024,
    admin_loaded_by_browse: browse.some((x) => x.file.startsWith('admin-area')),
    game_loaded_by_browse: browse.some((x) => x.file.startsWith('game-page')),
    browse_files: browse,
    lazy_files: lazy,
  };
}

/** Milliseconds from navigation start to the first story card whose image has painted. */
async function firstCardMs(page: Page, url: string): Promise<number> {
  await page.goto(url);
  // Page code as strings: scripts/ compile without the DOM types.
  await page.waitForFunction(`(() => {
    const img = document.querySelector('[data-testid="story-card"] img');
    return img !== null && img.complete && img.naturalWidth > 0;
  })()`, undefined, { timeout: 30_000 });
  // The frame after the image decoded is the one the player sees.
  return page.evaluate<number>('new Promise((r) => requestAnimationFrame(() => r(performance.now())))');
}

async function fcpMs(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'load' });
  return page.evaluate<number>(`new Promise((resolve) => {
    const found = performance.getEntriesByName('first-contentful-paint')[0];
    if (found) return resolve(found.startTime);
    new PerformanceObserver((list) => {
      const e = list.getEntriesByName('first-contentful-paint')[0];
      if (e) resolve(e.startTime);
    }).observe({ type: 'paint', buffered: true });
  })`);
}

/** First catalogue paint, public and personal, against a static page's first paint. Fresh context per load (cold cache). */
export async function paint(h: Harness): Promise<Record<string, unknown>> {
  const account = await signUp(h.url, undefined, PASSWORD);
  const pub: number[] = [];
  const personal: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    for (const [list, signedIn, path] of [[baseline, false, '/privacy.html'], [pub, false, '/browse'], [personal, true, '/browse']] as const) {
      // bypassCSP: the measuring snippets are strings (scripts/ compile without DOM types), which the app's CSP forbids.
      const page = await h.newPage(signedIn ? { signedInAs: account, bypassCSP: true } : { bypassCSP: true });
      list.push(path === '/privacy.html' ? await fcpMs(page, `${h.url}${path}`) : await firstCardMs(page, `${h.url}${path}`));
      await page.context().close();
    }
  }
  const base = median(baseline);
  return {
    runs: RUNS,
    baseline_static_page_fcp_ms: round(base),
    public_first_card_ms: round(median(pub)),
    personal_first_card_ms: round(median(personal)),
    public_ratio_to_baseline: round(median(pub) / base),
    personal_ratio_to_baseline: round(median(personal) / base),
    samples_ms: { baseline: baseline.map(round), public: pub.map(round), personal: personal.map(round) },
  };
}

export async function run(): Promise<Record<string, unknown>> {
  const sections = (process.env.BENCH_WEB_SECTIONS ?? 'bundle,paint,game').split(',');
  const h = await startHarness();
  try {
    const out: Record<string, unknown> = { at: new Date().toISOString() };
    if (sections.includes('bundle')) out.bundle = await bundle(h);
    if (sections.includes('paint')) out.paint = await paint(h);
    if (sections.includes('game')) out.game = await gameBench(h);
    return out;
  } finally {
    await h.close();
  }
}
