// The web bench's voice figure (issue #10 §3), run by scripts/bench/lib/web-game.ts: in Chromium with the fake
// microphone against a server with voice on, N answers of The Lantern Keeper are spoken (the recording stopped by the
// silence rule), and for each the browser's time from the end of the speech (mark looptale:speech-end) to the first
// reply audio playing (looptale:first-audio-play) is set beside the server's own total for the same turn (frame in ->
// first AUDIO_ANSWER out, from the run's transcript, by input id). What the browser adds is the difference: the MP3
// encoding's tail, sending, and starting the reply's playback. Lives with the browser tests: it runs page code.
import type { Page } from 'playwright-core';
import { decodeClientFrame } from '../../engine/protocol/codec.js';
import { type Account, signUp, startVoiceHarness } from './harness.js';
import { LANTERN, LANTERN_WIN, openGame, settle, subScreen } from './game-driver.js';
import { type Clip, clipFor, clips, FakeMic, speak } from './voice-driver.js';

export type VoiceTurn = { input_id: string; heard: string; browser_ms: number | null; server_total_ms: number | null };

/** The ids of the audio USER_INPUTs the page sends, in order. */
function audioInputs(page: Page): string[] {
  const ids: string[] = [];
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => {
      if (typeof f.payload === 'string') return;
      const d = decodeClientFrame(new Uint8Array(f.payload));
      if (d.ok && d.frame.type === 'USER_INPUT' && (d.frame.audio?.length ?? 0) > 0) ids.push(d.frame.input.input_id);
    });
  });
  return ids;
}

/**
 * The page's marks (one document's; a new page load starts a new timeline): the speech ends in order, and the first
 * reply audio that played after each answer with the input it belongs to.
 */
async function documentMarks(page: Page): Promise<{ ends: number[]; plays: { at: number; input_id: string | null }[] }> {
  return page.evaluate(() => ({
    ends: performance.getEntriesByName('looptale:speech-end').map((e) => e.startTime),
    plays: (performance.getEntriesByName('looptale:first-audio-play') as PerformanceMark[]).map((e) => ({
      at: e.startTime, input_id: ((e.detail as { input_id?: string | null } | null)?.input_id) ?? null,
    })),
  }));
}

/** The server's total of each spoken turn of a run, by input id (the run's transcript; a miss has no line). */
async function serverTotals(url: string, account: Account, runIds: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const id of runIds) {
    const res = await fetch(`${url}/api/player-stories/${id}/transcript`, { headers: { authorization: `Bearer ${account.session.access_token}` } });
    for (const line of (await res.text()).split('\n').filter(Boolean)) {
      const l = JSON.parse(line) as { kind: string; stages?: Record<string, number>; event?: { input_id?: string } };
      const total = l.stages?.total;
      if (l.kind === 'event' && l.stages?.stt !== undefined && l.event?.input_id && total !== undefined) out.set(l.event.input_id, total);
    }
  }
  return out;
}

/**
 * Speaks a clip and waits for its reply's first audio to start playing (answering sooner would discard that audio:
 * incoming audio is dropped while the player records). A reply with no audio gives up after 60 s.
 */
async function speakAndHear(page: Page, mic: FakeMic, clip: Clip | string): Promise<{ heard: string }> {
  // A moment's opening line can still be on its way (IDLE between its GAME_OUTPUT and its audio): let it arrive, so
  // its audio is not taken for the reply's.
  await page.waitForTimeout(1500);
  const played = await page.evaluate(() => performance.getEntriesByName('looptale:first-audio-play').length);
  const r = await speak(page, mic, clip);
  await page.waitForFunction((n) => performance.getEntriesByName('looptale:first-audio-play').length > n, played, { timeout: 60_000 }).catch(() => undefined);
  return r;
}

/**
 * Speaks answers of The Lantern Keeper's winning plan until `turns` of them were caught (again from a new run when one
 * ends); one Chromium. A line the recogniser did not catch is said again in another voice (the e2e tests' variants,
 * up to 4 tries): a miss has no server total (no transcript line), so it is counted in `misses`, not measured. At most
 * 3x `turns` recordings in all. A reply still playing when the next answer is due is skipped, once its first audio
 * started (the figure is unaffected).
 */
export async function voiceLatency(turns: number): Promise<{ turns: VoiceTurn[]; misses: number }> {
  const mic = new FakeMic();
  const h = await startVoiceHarness({ args: mic.args });
  try {
    const account = await signUp(h.url);
    const page = await h.newPage({ signedInAs: account });
    const ids = audioInputs(page);
    const all = clips('lantern-keeper');
    const runs: string[] = [];
    const out: VoiceTurn[] = [];
    let misses = 0;
    let caught = 0;
    let spoken = 0;
    const maxSpoken = turns * 3;
    while (caught < turns && spoken < maxSpoken) {
      const idsBefore = ids.length;
      const heard: string[] = [];
      // The first run from the launch screen as a player starts one; later ones through the API (the launch screen of a
      // won story offers the ended run first).
      runs.push(await openGame(page, h.url, LANTERN, runs.length === 0 ? {} : { via: 'api' }));
      // The first reply of a server warms its speech engines up: wait for the opening line's audio.
      await settle(page);
      await page.waitForFunction(() => document.querySelector('[data-dialogue-audio] audio') !== null, undefined, { timeout: 90_000 }).catch(() => undefined);
      plan: for (const line of LANTERN_WIN) {
        for (let attempt = 1; attempt <= 4; attempt++) {
          if (caught >= turns || spoken >= maxSpoken) break plan;
          if ((await subScreen(page)) !== 'in_game' && (await settle(page)) !== 'in_game') break plan;
          const r = await speakAndHear(page, mic, await mic.variant(clipFor(all, line), attempt));
          spoken++;
          heard.push(r.heard);
          // Caught: no miss caption or hint, and the caption is words, not the pending audio length ('[1.0 s]').
          const miss = (await page.locator('[data-testid="caption-miss"], [data-testid="caption-hint"]').count()) > 0
            || !r.heard || /^\[[\d.]+ s\]$/.test(r.heard);
          if (!miss) {
            caught++;
            break;
          }
          misses++;
        }
      }
      // Speech end k goes with the k-th audio input of this page load; its reply's first audio is found by input id.
      const { ends, plays } = await documentMarks(page);
      ids.slice(idsBefore).forEach((id, k) => {
        const end = ends[k];
        const play = plays.find((p) => p.input_id === id);
        out.push({ input_id: id, heard: heard[k] ?? '', browser_ms: end !== undefined && play ? play.at - end : null, server_total_ms: null });
      });
      if (heard.length === 0) break;
    }
    const server = await serverTotals(h.url, account, runs);
    for (const t of out) t.server_total_ms = server.get(t.input_id) ?? null;
    return { misses, turns: out };
  } finally {
    await h.close();
    mic.close();
  }
}
