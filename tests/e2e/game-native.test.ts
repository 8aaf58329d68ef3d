// The native wrapper's bridge (docs/native-bridge.md) with a scripted wrapper injected into the page: the page reports
// its states (idle, processing) and asks for recordings; the wrapper answers START_RECORDING with RECORDING_STARTED
// and a RECORDING_COMPLETE carrying 16 kHz PCM of a fixture clip and its own transcription, which plays a turn;
// RECORDING_ERROR brings the button back to REC. Real server (text-only voice: the wrapper's words are used).
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, signUp, startHarness } from './harness.js';
import { LANTERN, LANTERN_WIN, openGame, settle } from './game-driver.js';
import { clipFor, clips, recordState, recordTraffic } from './voice-driver.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 240_000);

afterAll(async () => {
  await h?.close();
});

/**
 * The wrapper: keeps what the page posts in window.__native.out; on START_RECORDING it starts, then completes with
 * window.__native.pcm (base64) and window.__native.words, or fails when window.__native.fail is set.
 */
const WRAPPER = `(() => {
  const native = { out: [], pcm: '', words: '', fail: false };
  window.__native = native;
  const send = (e) => setTimeout(() => window.looptaleNativeEvent(JSON.stringify(e)), 50);
  window.LooptaleNative = {
    version: 'e2e-1.0',
    postMessage(json) {
      const m = JSON.parse(json);
      native.out.push(m);
      if (m.type !== 'START_RECORDING') return;
      send({ type: 'RECORDING_STARTED' });
      setTimeout(() => {
        if (native.fail) window.looptaleNativeEvent({ type: 'RECORDING_ERROR', message: 'microphone busy' });
        else window.looptaleNativeEvent({ type: 'RECORDING_COMPLETE', audioData: native.pcm, format: 'pcm', sampleRate: 16000, bitsPerSample: 16, channels: 1, transcription: native.words });
      }, 400);
    },
  };
})();`;

type Posted = { type: string; state?: string };

async function posted(page: Page): Promise<Posted[]> {
  return page.evaluate(() => (window as unknown as { __native: { out: Posted[] } }).__native.out);
}

describe('the native wrapper bridge', () => {
  it('plays a turn from a RECORDING_COMPLETE with PCM and the wrapper\'s transcription, and reports the game states', async () => {
    const account = await signUp(h.url);
    const page = await h.newPage({ signedInAs: account });
    await page.addInitScript({ content: WRAPPER });
    const { sent } = recordTraffic(page);
    await openGame(page, h.url, LANTERN);
    expect(await settle(page)).toBe('in_game');
    // The clip's samples without the WAV header: 16 kHz, 16-bit, mono PCM.
    const wav = readFileSync(clipFor(clips('lantern-keeper'), LANTERN_WIN[0]).wav);
    const pcm = wav.subarray(44);
    await page.evaluate(([b64, words]) => {
      const n = (window as unknown as { __native: { pcm: string; words: string } }).__native;
      n.pcm = b64;
      n.words = words;
    }, [pcm.toString('base64'), LANTERN_WIN[0]] as const);
    await page.waitForFunction(() => document.querySelector('[data-testid="record-button"]:not([disabled])')?.getAttribute('data-state') === 'IDLE', undefined, { timeout: 30_000 });
    await page.locator('[data-testid="record-button"]').click();
    // The turn is played: the words the wrapper heard and the character's reply show.
    await page.locator('[data-testid="caption-player"]:not(.is-pending)').filter({ hasText: LANTERN_WIN[0] }).waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => document.querySelector('[data-testid="record-button"]')?.getAttribute('data-state') === 'IDLE', undefined, { timeout: 30_000 });
    expect(await page.locator('[data-testid="caption-character"]').textContent()).toBeTruthy();
    const answer = sent.filter((s) => !s.input.is_starting_dialogue);
    expect(answer).toHaveLength(1);
    expect(answer[0]?.input).toMatchObject({ transcription: LANTERN_WIN[0], audio_format: 'pcm16', sample_rate: 16000, channels: 1, bits_per_sample: 16 });
    expect(answer[0]?.audioBytes).toBe(pcm.length);
    // The page told the wrapper: idle at first, the tap, then processing and idle again.
    const out = await posted(page);
    const kinds = out.map((m) => (m.type === 'GAME_STATE' ? `state:${m.state ?? ''}` : m.type));
    expect(kinds[0]).toBe('state:idle');
    const tap = kinds.indexOf('START_RECORDING');
    expect(tap).toBeGreaterThan(0);
    expect(kinds.slice(tap)).toEqual(expect.arrayContaining(['state:processing', 'state:idle']));
    expect(kinds.indexOf('state:processing', tap)).toBeLessThan(kinds.lastIndexOf('state:idle'));
    await page.close();
  }, 120_000);

  it('goes back to REC after a RECORDING_ERROR, with nothing sent', async () => {
    const account = await signUp(h.url);
    const page = await h.newPage({ signedInAs: account });
    await page.addInitScript({ content: WRAPPER });
    const { sent } = recordTraffic(page);
    await openGame(page, h.url, LANTERN);
    expect(await settle(page)).toBe('in_game');
    await page.evaluate(() => {
      (window as unknown as { __native: { fail: boolean } }).__native.fail = true;
    });
    await page.waitForFunction(() => document.querySelector('[data-testid="record-button"]:not([disabled])')?.getAttribute('data-state') === 'IDLE', undefined, { timeout: 30_000 });
    await page.locator('[data-testid="record-button"]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="record-button"]')?.getAttribute('data-state') === 'PLAYER_SPEAKING', undefined, { timeout: 10_000 });
    await page.waitForFunction(() => document.querySelector('[data-testid="record-button"]')?.getAttribute('data-state') === 'IDLE', undefined, { timeout: 10_000 });
    expect(await recordState(page)).toBe('IDLE');
    expect(sent.filter((s) => !s.input.is_starting_dialogue)).toHaveLength(0);
    await page.close();
  }, 120_000);
});
