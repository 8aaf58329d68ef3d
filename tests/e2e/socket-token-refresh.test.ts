// A long game outlives its first access token: when supabase-js refreshes the session (TOKEN_REFRESHED), the web app
// hands the new token to the server over the open game socket (ACCESS_TOKEN), so the server does not close it with
// 4001 when the first token expires and the game does not drop into 'Reconnecting...'. Real server with 60 s tokens,
// real web build, real Chromium; waits out the first token's expiry (~70 s).
import type { WebSocket } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANTERN, openGame } from './game-driver.js';
import { type Harness, signUp, startHarness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ env: { ACCESS_TOKEN_TTL_S: '60' } });
}, 240_000);

afterAll(async () => {
  await h?.close();
});

const text = (payload: string | Buffer): string => (typeof payload === 'string' ? payload : payload.toString('utf8'));

describe('the game socket and token refreshes', () => {
  it('sends ACCESS_TOKEN with each refreshed token, and the socket stays open past the first token\'s expiry', async () => {
    const account = await signUp(h.url);
    const page = await h.newPage({ signedInAs: account });
    const sockets: WebSocket[] = [];
    const tokensSent: string[] = [];
    page.on('websocket', (ws) => {
      if (!ws.url().includes('/ws')) return;
      sockets.push(ws);
      ws.on('framesent', (f) => {
        const t = text(f.payload);
        if (t.startsWith('ACCESS_TOKEN\0')) tokensSent.push((JSON.parse(t.slice('ACCESS_TOKEN\0'.length)) as { access_token: string }).access_token);
      });
    });
    await openGame(page, h.url, LANTERN, { via: 'api' });
    await page.locator('.start-screen__name').waitFor();
    expect(sockets).toHaveLength(1);
    const firstExpiry = (account.session.expires_at ?? 0) * 1000;
    // supabase-js refreshes a token that expires within 90 s on its 30 s tick: the refresh comes within about 30 s.
    await expect.poll(() => tokensSent.length, { timeout: 45_000, interval: 500 }).toBeGreaterThan(0);
    expect(tokensSent[0]).not.toBe(account.session.access_token);
    // Past the first token's expiry (the server sweeps every second): the same socket is still open.
    await page.waitForTimeout(Math.max(0, firstExpiry - Date.now()) + 4000);
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.isClosed()).toBe(false);
    expect(await page.getByText('Reconnecting...').count()).toBe(0);
    await page.close();
  }, 180_000);
});
