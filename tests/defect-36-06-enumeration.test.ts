// Account enumeration: sign-up answered 422 user_already_exists, a magic link with create_user:false answered 422
// otp_disabled for unknown addresses, and a password reset took twice as long for an address with an account (its
// email was sent before the answer). Now the three answer the same whether the address has an account or not
// (sign-up: with EMAIL_CONFIRMATION on; off, a new account gets a session at once, which cannot be hidden), and in the
// same time: the emails go out after the answer. Measured: requests for known and unknown addresses interleaved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANON_KEY, follow, lastEmail, supabaseClient, uniqueEmail } from './helpers/auth.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const PASSWORD = 'known account passphrase';
const ROUNDS = 16;

let srv: TestServer;
const known: string[] = [];
beforeAll(async () => {
  srv = await startTestServer({ EMAIL_CONFIRMATION: 'true', DEV_OUTBOX: 'true', AUTH_RATE_LIMIT_SCALE: '1000' });
  for (let i = 0; i < ROUNDS + 1; i++) {
    const email = uniqueEmail('known');
    expect((await supabaseClient(srv.url).auth.signUp({ email, password: PASSWORD })).error).toBeNull();
    await follow((await lastEmail(srv.url, email, 'signup')).link);
    known.push(email);
  }
}, 120_000);
afterAll(async () => {
  await srv.close();
});

type Answer = { status: number; body: Record<string, unknown>; ms: number };

async function call(path: string, body: Record<string, unknown>): Promise<Answer> {
  const t = performance.now();
  const res = await fetch(`${srv.url}/auth/v1${path}`, { method: 'POST', headers: { apikey: ANON_KEY, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as Record<string, unknown>;
  return { status: res.status, body: json, ms: performance.now() - t };
}

/** The answer with what differs by nature (ids, times, the address itself) blanked. */
function shape(a: Answer, email: string): string {
  return JSON.stringify({ status: a.status, body: a.body }, (k, v: unknown) => (k === 'id' || k.endsWith('_at') ? '*' : v === email ? '<email>' : v));
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Runs `ask` for known and unknown addresses, interleaved; returns the shapes and the timings of each side. */
async function measure(ask: (email: string) => Promise<Answer>): Promise<{ shapes: Set<string>; knownMs: number[]; unknownMs: number[] }> {
  const shapes = new Set<string>();
  const knownMs: number[] = [];
  const unknownMs: number[] = [];
  await ask(uniqueEmail('warm'));
  for (let i = 0; i < ROUNDS; i++) {
    const k = known[i]!;
    const u = uniqueEmail('nobody');
    for (const [email, into] of (i % 2 ? [[k, knownMs], [u, unknownMs]] : [[u, unknownMs], [k, knownMs]]) as [string, number[]][]) {
      const a = await ask(email);
      shapes.add(shape(a, email));
      into.push(a.ms);
    }
  }
  return { shapes, knownMs, unknownMs };
}

function expectSameTime(name: string, m: { knownMs: number[]; unknownMs: number[] }): void {
  const k = median(m.knownMs);
  const u = median(m.unknownMs);
  // Noise: how far apart the medians of the two halves of the unknown side are, at least 3 ms.
  const noise = Math.max(3, Math.abs(median(m.unknownMs.slice(0, ROUNDS / 2)) - median(m.unknownMs.slice(ROUNDS / 2))) * 2);
  console.log(`${name}: median known ${k.toFixed(1)} ms, unknown ${u.toFixed(1)} ms, allowed difference ${noise.toFixed(1)} ms`);
  expect(Math.abs(k - u), `${name}: known ${k.toFixed(1)} ms vs unknown ${u.toFixed(1)} ms`).toBeLessThan(noise);
}

describe('defect 36.6: sign-up, magic link and reset answer the same, in the same time, for any address', () => {
  it('password reset', async () => {
    const m = await measure((email) => call('/recover', { email }));
    expect([...m.shapes]).toEqual([JSON.stringify({ status: 200, body: {} })]);
    expectSameTime('recover', m);
    // The known addresses did get their email.
    expect((await lastEmail(srv.url, known[0]!, 'recovery')).link).toContain('type=recovery');
  }, 120_000);

  it('magic link with create_user: false', async () => {
    const m = await measure((email) => call('/otp', { email, create_user: false }));
    expect([...m.shapes]).toEqual([JSON.stringify({ status: 200, body: {} })]);
    expectSameTime('otp create_user:false', m);
    expect((await lastEmail(srv.url, known[1]!, 'magiclink')).link).toContain('type=magiclink');
  }, 120_000);

  it('sign-up (EMAIL_CONFIRMATION on)', async () => {
    const m = await measure((email) => call('/signup', { email, password: 'a sign-up passphrase' }));
    expect(m.shapes.size).toBe(1);
    expect([...m.shapes][0]).toContain('"identities":[]');
    expectSameTime('signup', m);
  }, 120_000);
});
