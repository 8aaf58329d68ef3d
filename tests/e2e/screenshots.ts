// `npm run screenshots`: every screen registered in tests/e2e/shots/*.ts, at 360x640 (small), 390x844 (phone) and 1440x900
// (desktop),
// against a real server with the fixture stories, into SCREENSHOTS_DIR (default .tmp/screenshots/). Open the PNGs and
// look. `npm run screenshots -- browse login` takes only the shots whose name contains one of the words; a word
// starting with '=' takes the shot of exactly that name (`=game-won` and not game-won-ticket).
//
// A shot module exports `shots: Shot[]`; a shot gets a fresh page (signed in when it asks) and leaves it showing the
// screen to capture. Add a file per feature (shots/catalogue.ts, shots/game.ts...) rather than editing others'.
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { type Account, DESKTOP, type Harness, PHONE, signUp, SMALL_PHONE, startHarness } from './harness.js';

export type ShotContext = { harness: Harness; account: Account | null; viewport: 'small' | 'phone' | 'desktop' };

export type Shot = {
  /** File name stem: `${name}.${viewport}.png`. */
  name: string;
  /** Start signed in as a fresh account. */
  signedIn?: boolean;
  /** Brings the page to the screen (navigate, click, wait for what must show). */
  setup: (page: Page, ctx: ShotContext) => Promise<void>;
  /** Capture the whole scrollable page rather than the viewport. */
  fullPage?: boolean;
};

const OUT = process.env.SCREENSHOTS_DIR ?? join(import.meta.dirname, '..', '..', '.tmp', 'screenshots');

async function loadShots(): Promise<Shot[]> {
  const dir = join(import.meta.dirname, 'shots');
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts')).sort();
  const all: Shot[] = [];
  for (const f of files) {
    const mod = (await import(pathToFileURL(join(dir, f)).href)) as { shots?: Shot[] };
    all.push(...(mod.shots ?? []));
  }
  return all;
}

/** Waits for fonts and images to settle so the capture shows the page as a person sees it. */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    await Promise.all([...document.images].filter((i) => !i.complete).map((i) => new Promise((r) => { i.onload = r; i.onerror = r; })));
  });
  await page.waitForTimeout(350); // the 300 ms transitions of the spec finish
}

async function main(): Promise<void> {
  const words = process.argv.slice(2);
  const picks = (name: string, w: string) => (w.startsWith('=') ? name === w.slice(1) : name.includes(w));
  const shots = (await loadShots()).filter((s) => words.length === 0 || words.some((w) => picks(s.name, w)));
  mkdirSync(OUT, { recursive: true });
  const harness = await startHarness();
  const written: string[] = [];
  try {
    for (const shot of shots) {
      for (const [viewport, size] of [['small', SMALL_PHONE], ['phone', PHONE], ['desktop', DESKTOP]] as const) {
        const account = shot.signedIn ? await signUp(harness.url) : null;
        const page = await harness.newPage({ viewport: size, deviceScaleFactor: 1, ...(account ? { signedInAs: account } : {}) });
        try {
          await shot.setup(page, { harness, account, viewport });
          await settle(page);
          const file = join(OUT, `${shot.name}.${viewport}.png`);
          await page.screenshot({ path: file, fullPage: shot.fullPage ?? false });
          written.push(file);
        } catch (e) {
          process.stderr.write(`screenshot ${shot.name} (${viewport}) failed: ${(e as Error).message}\n`);
          process.exitCode = 1;
        } finally {
          await page.context().close().catch(() => undefined);
        }
      }
    }
  } finally {
    await harness.close();
  }
  process.stdout.write(`${written.length} screenshots in ${OUT}\n${written.map((f) => `  ${f}`).join('\n')}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
