// `npm run bench -- studio`: the studio's flow graph speed goals, against a real server and headless
// Chromium (the e2e harness) with a generated story of BENCH_STUDIO_MOMENTS (2,000) moments and about
// BENCH_STUDIO_TRANSITIONS (5,000) transitions (scripts/bench/lib/studio-story.ts):
//   layout:  ELK's automatic layout (web/src/studio/flow/auto-layout.ts) of 500 moments in Node, each run and the
//            edge crossings; goal < 1 s;
//   open:    the flow page from navigation start to the draft loaded, its moments drawn and the next frame, median of
//            BENCH_STUDIO_RUNS (3) loads; goal < 2 s;
//   drag:    frames per second while a moment is dragged across the graph at 4x CPU slowdown (CDP
//            Emulation.setCPUThrottlingRate), beside the same page idle; goal >= 50 fps;
//   bundle:  the admin chunk's size (raw, gzip) beside the JS /browse loads (scripts/bench/web.ts).
// The load average is printed with the figures: the machine is shared.
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import ElkBundled from 'elkjs/lib/elk.bundled.js';
import type { Page } from 'playwright-core';
import { DESKTOP, type Harness, signUp, startHarness } from '../../tests/e2e/harness.js';
import { autoLayout, countCrossings } from '../../web/src/studio/flow/auto-layout.js';
import { edgeInfos, momentsOf } from '../../web/src/studio/flow/flow-model.js';
import { branchingStory } from './lib/studio-story.js';
import { bundle } from './web.js';

const MOMENTS = Number(process.env.BENCH_STUDIO_MOMENTS ?? 2000);
const TRANSITIONS = Number(process.env.BENCH_STUDIO_TRANSITIONS ?? 5000);
const RUNS = Number(process.env.BENCH_STUDIO_RUNS ?? 3);
const THROTTLE = 4;
const DRAG_MS = 4000;
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export async function layoutBench(): Promise<Record<string, unknown>> {
  const doc = branchingStory(500, 1250);
  const input = { nodes: momentsOf(doc).map((m) => ({ id: String(m.id) })), edges: edgeInfos(doc) };
  const elk = new ElkBundled.default();
  const ms: number[] = [];
  let crossings = 0;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const at = await autoLayout(elk, input, String(doc.first_moment_id));
    ms.push(round(performance.now() - t0, 0));
    if (i === 0) crossings = countCrossings(input, at);
  }
  return { moments: input.nodes.length, edges: input.edges.length, runs_ms: ms, median_ms: median(ms), crossings, goal_ms: 1000, meets_goal: median(ms) < 1000 };
}

type Frames = { fps: number; frames: number; window_ms: number; long_frames: number; worst_frame_ms: number };
function frameStats(t: number[]): Frames {
  const gaps = t.slice(1).map((x, i) => x - (t[i] ?? x));
  const span = (t.at(-1) ?? 0) - (t[0] ?? 0);
  return { fps: span > 0 ? round(((t.length - 1) * 1000) / span) : 0, frames: t.length, window_ms: round(span, 0), long_frames: gaps.filter((g) => g > 25).length, worst_frame_ms: round(Math.max(0, ...gaps)) };
}
// Page code as strings: scripts/ compile without the DOM types.
const RECORD = (ms: number) => `new Promise((resolve) => {
  const t = []; const start = performance.now();
  const f = (now) => { t.push(now); if (now - start < ${ms}) requestAnimationFrame(f); else resolve(t); };
  requestAnimationFrame(f);
})`;
const NEXT_FRAME = 'new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())))';

/** Navigation start -> moments drawn, and -> the frame after (the page answers), in the page's own clock. */
async function openOnce(page: Page, url: string): Promise<{ draft_ms: number; drawn_ms: number; next_frame_ms: number; nodes: number }> {
  await page.goto(url, { waitUntil: 'commit' });
  // The flow page mounts once the draft is loaded (the story layout's part); its moments are drawn after.
  await page.getByTestId('flow-page').waitFor({ state: 'attached', timeout: 60_000 });
  const draft = await page.evaluate<number>('performance.now()');
  await page.locator('.flow-node').first().waitFor({ state: 'attached', timeout: 60_000 });
  const drawn = await page.evaluate<number>('performance.now()');
  const next = await page.evaluate<number>(NEXT_FRAME);
  const nodes = await page.evaluate<number>('document.querySelectorAll(".flow-node").length');
  return { draft_ms: round(draft, 0), drawn_ms: round(drawn, 0), next_frame_ms: round(next, 0), nodes };
}

async function dragFps(page: Page): Promise<{ idle: Frames; drag: Frames; moved: boolean }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  try {
    const idle = frameStats(await page.evaluate<number[]>(RECORD(DRAG_MS)));
    const target = page.locator('.react-flow__node').first();
    const box = await target.boundingBox();
    if (!box) throw new Error('bench: no moment on screen to drag');
    const x0 = box.x + box.width / 2;
    const y0 = box.y + box.height / 2;
    await page.mouse.move(x0, y0);
    await page.mouse.down();
    const recording = page.evaluate<number[]>(RECORD(DRAG_MS));
    const until = Date.now() + DRAG_MS;
    for (let i = 0; Date.now() < until; i++) {
      // Back and forth across 300 px, a few pixels a step, as a hand would.
      const phase = (i % 100) / 100;
      await page.mouse.move(x0 + 300 * Math.sin(phase * Math.PI * 2), y0 + 80 * Math.sin(phase * Math.PI * 4));
    }
    const drag = frameStats(await recording);
    await page.mouse.move(x0 + 120, y0 + 40, { steps: 3 });
    await page.mouse.up();
    const after = await target.boundingBox();
    return { idle, drag, moved: after !== null && Math.abs(after.x - box.x) > 50 };
  } finally {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await cdp.detach();
  }
}

async function pageBench(h: Harness): Promise<Record<string, unknown>> {
  const author = await signUp(h.url);
  await h.server.services.authors.setRole(author.session.user.id, 'author');
  const doc = { ...branchingStory(MOMENTS, TRANSITIONS), id: randomUUID(), name: 'Studio bench' };
  const bytes = Buffer.byteLength(JSON.stringify(doc));
  const res = await fetch(`${h.url}/api/authoring/stories`, {
    method: 'POST',
    headers: { authorization: `Bearer ${author.session.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ story: doc }),
  });
  if (res.status !== 201) throw new Error(`bench: the generated story was refused: ${res.status} ${(await res.text()).slice(0, 300)}`);
  const url = `${h.url}/admin/stories/${String(doc.id)}/flow`;
  const page = await h.newPage({ signedInAs: author, viewport: DESKTOP });
  try {
    const loads = [];
    for (let i = 0; i < RUNS; i++) loads.push(await openOnce(page, url));
    const open = median(loads.map((l) => l.next_frame_ms));
    // Let the automatic layout and the validation settle before dragging.
    await page.locator('.flow-toolbar__count', { hasText: 'laying out' }).waitFor({ state: 'hidden', timeout: 120_000 });
    const drag = await dragFps(page);
    return {
      story: { moments: momentsOf(doc).length, transitions: edgeInfos(doc).filter((e) => e.kind === 'transition').length, bytes },
      open: { loads, median_ms: open, goal_ms: 2000, meets_goal: open < 2000 },
      drag: { cpu_slowdown: THROTTLE, ...drag, goal_fps: 50, meets_goal: drag.drag.fps >= 50 },
    };
  } finally {
    await page.context().close();
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const load_before = loadavg().map((x) => round(x, 2));
  const layout = await layoutBench();
  const h = await startHarness();
  try {
    const flow = await pageBench(h);
    const b = await bundle(h);
    const lazy = (b.lazy_files as { file: string; bytes: number; gzip_bytes: number }[]).filter((f) => /^(admin-area|elk-worker|validate-worker).*\.js$/.test(f.file));
    return {
      at: new Date().toISOString(),
      load_average: { before: load_before, after: loadavg().map((x) => round(x, 2)) },
      layout_500: layout,
      ...flow,
      bundle: { browse_js_gzip_bytes: b.browse_js_gzip_bytes, admin_loaded_by_browse: b.admin_loaded_by_browse, studio_chunks: lazy },
    };
  } finally {
    await h.close();
  }
}
