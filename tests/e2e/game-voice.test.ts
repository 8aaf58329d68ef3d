// The game played by voice in Chromium (issue #10 §2, §3): every answer is a fixture clip played into Chromium's fake
// microphone, recorded by the page (processing off, 4096-sample blocks, the silence rule stops it), MP3-encoded in a
// worker and sent with no transcription; a real server in its own process recognises it with pocketsphinx and answers
// with eSpeak MP3 audio, which the page plays. Asserts what the player sees and hears: captions, the record button's
// states, the dialogue audio elements (played to the end, or skipped).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserHarness, signUp, startVoiceHarness } from './harness.js';
import { LANTERN, LANTERN_WIN, openGame, settle, typeLine } from './game-driver.js';
import { clipFor, clips, FakeMic, marks, playSpoken, recordTraffic, recordState, speak, untilIdle } from './voice-driver.js';

let h: BrowserHarness;
let mic: FakeMic;
const lantern = clips('lantern-keeper');

beforeAll(async () => {
  mic = new FakeMic();
  h = await startVoiceHarness({ args: mic.args });
}, 240_000);

afterAll(async () => {
  await h?.close();
  mic?.close();
});

/** The words of a line as the recogniser writes them: lower case, no punctuation. */
function words(text: string): string {
  return text.toLowerCase().replace(/[^a-z ]/g, '').replace(/\s+/g, ' ').trim();
}

/** The dialogue audio elements and their states (web/src/game/audio-out.ts). */
async function audioStates(page: Page): Promise<string[]> {
  return page.locator('[data-dialogue-audio] audio').evaluateAll((els) => els.map((e) => (e as HTMLAudioElement).dataset.state ?? ''));
}

describe('the game screen, spoken', () => {
  it('plays a whole Lantern Keeper run by voice to YOU WON and the golden ticket popup', async () => {
    const account = await signUp(h.url);
    const page = await h.newPage({ signedInAs: account });
    const { sent, heard: serverHeard } = recordTraffic(page);
    await openGame(page, h.url, LANTERN);
    expect(await settle(page)).toBe('in_game');
    // The opening line is heard to its end before the player speaks.
    await page.waitForFunction(() => document.querySelector('[data-dialogue-audio] audio[data-state="ended"]') !== null, undefined, { timeout: 60_000 });
    const first = await speak(page, mic, clipFor(lantern, LANTERN_WIN[0]), { skip: false });
    expect(words(first.heard)).toBe(words(LANTERN_WIN[0]));
    expect(first.stoppedBy).toBe('silence');
    const { end, heard } = await playSpoken(page, mic, lantern, LANTERN_WIN.slice(1));
    expect(end).toBe('game_won');
    expect(await page.locator('.end-screen__title').textContent()).toBe('YOU WON');
    const popup = page.locator('[data-testid="golden-ticket-popup"]');
    await popup.waitFor({ timeout: 10_000 });
    expect(await popup.textContent()).toContain('GOLDEN TICKET EARNED!');
    // Every answer was recorded audio, stopped by the silence rule, sent as MP3 with no transcription.
    for (const s of [first, ...heard]) expect(s.stoppedBy).toBe('silence');
    const answers = sent.filter((s) => !s.input.is_starting_dialogue);
    expect(answers.length).toBe(1 + heard.length);
    for (const a of answers) {
      expect(a.input.transcription).toBeUndefined();
      expect(a.input.audio_format).toBe('mp3');
      expect(a.audioBytes).toBeGreaterThan(1000);
    }
    // What the server heard is what the clips say (a line not caught was said again).
    const said = new Set(LANTERN_WIN.map(words));
    expect(new Set(serverHeard.map(words).filter((t) => said.has(t)))).toEqual(said);
    expect((await marks(page, 'looptale:first-audio-play')).count).toBeGreaterThan(0);
    await page.close();
  }, 420_000);

  it('SKIP stops the reply that is playing, and the rest of that reply is not played', async () => {
    const account = await signUp(h.url);
    const page = await h.newPage({ signedInAs: account });
    await openGame(page, h.url, LANTERN);
    expect(await settle(page)).toBe('in_game');
    // The opening line is heard (its audio follows its GAME_OUTPUT).
    await page.waitForFunction(() => document.querySelector('[data-dialogue-audio] audio[data-state="ended"]') !== null, undefined, { timeout: 60_000 });
    expect(await settle(page)).toBe('in_game');
    await untilIdle(page);
    const before = (await audioStates(page)).length;
    await typeLine(page, LANTERN_WIN[0]);
    // The reply plays: the button says SKIP; a tap stops it and the player may speak at once.
    await page.waitForFunction((n) => [...document.querySelectorAll('[data-dialogue-audio] audio')].slice(n).some((a) => (a as HTMLAudioElement).dataset.state === 'playing'), before, { timeout: 30_000 });
    expect(await recordState(page)).toBe('GAME_SPEAKING');
    expect(await page.locator('[data-testid="record-button"]').textContent()).toBe('SKIP');
    const id = await page.locator('[data-dialogue-audio] audio[data-state="playing"]').getAttribute('data-id');
    await page.locator('[data-testid="record-button"]').click();
    const el = page.locator(`[data-dialogue-audio] audio[data-id="${id}"]`);
    expect(await el.getAttribute('data-state')).toBe('skipped');
    expect(await el.evaluate((a) => (a as HTMLAudioElement).paused)).toBe(true);
    await untilIdle(page, { timeoutMs: 10_000 });
    expect(await page.locator('[data-testid="record-button"]').textContent()).toBe('REC');
    // Nothing of the reply plays after the tap (its later sentences, arriving late, are dropped).
    await page.waitForTimeout(1500);
    expect(await audioStates(page)).not.toContain('playing');
    await page.close();
  }, 120_000);
});
