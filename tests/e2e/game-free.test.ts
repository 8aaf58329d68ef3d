// The 'Free!' notification (issue #10 §1, spec: 2000 ms): a turn served from the LLM brain's cache costs no interaction
// and says so. The server runs the LLM brain with its cache on (LLM_CACHE=true) against tests/helpers/fake-openai.ts,
// the local OpenAI-compatible stand-in the LLM tests use (no model runs in this sandbox); everything else is real:
// server (PGlite), web build, Chromium. The same question asked twice in the same situation is a cache hit.
// ~15-30 s on the shared 2-core machine.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { fakeMicrophoneArgs, type Harness, signUp, startHarness } from './harness.js';
import { LANTERN, openGame, seenTexts, settle, typeLine, WATCH_SCRIPT } from './game-driver.js';

let h: Harness;
let llm: FakeOpenAI;

/** The model's answer to the Learn moment's question; no new fact, so asking again is the same situation. */
const ANSWER = {
  reply: 'Always at high tide, near midnight. Something covers the lamp.', emotion: 'normal', intensity: 2, outcome: 'continue',
  next_moment_id: null, perfect: false, score: 70, facts: [], battle: null, award: null, equip: null, upgrade: null,
  selection: null, matched: 'when',
};

const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  llm = await startFakeOpenAI();
  llm.respond = () => ({ decision: ANSWER });
  // The in-process server reads BRAIN and LLM_* from the process environment (as tests/llm-brain.test.ts does).
  const env = { BRAIN: 'llm', LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', LLM_CACHE: 'true', LLM_TIMEOUT_MS: '20000' };
  for (const [k, v] of Object.entries(env)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  h = await startHarness({ args: fakeMicrophoneArgs(), env });
}, 240_000);

afterAll(async () => {
  await h?.close();
  await llm?.close();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

/** The remaining-interactions ring of the menu ('n of max'), the menu opened and closed again. */
async function remaining(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Menu' }).click();
  const menu = page.locator('[data-testid="game-menu"]');
  await menu.waitFor();
  const ring = (await page.locator('[data-testid="menu-remaining"] svg').getAttribute('aria-label')) ?? '';
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  return ring;
}

describe('the game screen, a free turn', () => {
  it("shows 'Free!' when the answer comes from the brain's cache, and the turn costs no interaction", async () => {
    const account = await signUp(h.url);
    const page = await h.newPage({ signedInAs: account });
    await page.addInitScript({ content: WATCH_SCRIPT });
    await openGame(page, h.url, LANTERN, { via: 'api' });
    expect(await settle(page)).toBe('in_game');
    const line = 'When does the light go dark?';
    await typeLine(page, line);
    expect(await page.locator('[data-testid="caption-character"]').textContent()).toContain(ANSWER.reply);
    expect(llm.requests).toHaveLength(1);
    const free = async (): Promise<boolean> => ((await seenTexts(page)).notification ?? []).some((t) => t.includes('Free!'));
    expect(await free()).toBe(false);
    const before = await remaining(page);
    expect(await settle(page)).toBe('in_game');
    // Asked again: no call to the model, the cached answer, and the notification.
    await typeLine(page, line);
    await page.locator('[data-testid="notification"]', { hasText: 'Free!' }).waitFor({ state: 'attached', timeout: 30_000 }).catch(() => undefined);
    expect(await free()).toBe(true);
    // It shows for its 2000 ms (the shared queue's timing, unit-tested there) and goes by itself.
    await page.locator('[data-testid="notification"]', { hasText: 'Free!' }).waitFor({ state: 'detached', timeout: 30_000 });
    expect(llm.requests).toHaveLength(1);
    expect(await remaining(page)).toBe(before);
    await page.close();
  }, 120_000);
});
