// Account enumeration: whether an address has an account shows in the answer or the time of a password reset, a magic
// link with create_user:false (on a default server), or a sign-up (with EMAIL_CONFIRMATION on: off, a new account
// gets a session at once, which cannot be hidden). Requests for known and unknown addresses alternate; a try holds
// when the known address's answer differs from the unknown ones', and the timing holds when the medians of the two
// sides differ by more than the noise (at least 3 ms; twice the gap between the medians of the unknown side's halves).
import { call, lastEmail, signUp, uniqueEmail, type Answer } from './auth-client.js';
import type { Target } from './target.js';
import { tally, type Probe, type Row } from './types.js';

const PASSWORD = 'known account passphrase';

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** The answer with what differs by nature (ids, times, the address itself) blanked. */
function shape(a: Answer, email: string): string {
  return JSON.stringify({ status: a.status, body: a.body }, (k, v: unknown) => (k === 'id' || k.endsWith('_at') ? '*' : v === email ? '<email>' : v));
}

/** Accounts for `n` addresses; with `confirm`, each confirmed through its emailed link. */
async function accounts(t: Target, n: number, confirm: boolean): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const email = uniqueEmail('known');
    await signUp(t.url, email, PASSWORD);
    if (confirm) {
      const mail = await lastEmail(t.url, email, 'signup');
      if (mail) await (await fetch(mail.link, { redirect: 'manual' })).arrayBuffer();
    }
    out.push(email);
  }
  return out;
}

async function measure(name: string, known: string[], ask: (email: string) => Promise<Answer>): Promise<Row[]> {
  await ask(uniqueEmail('warm'));
  const knownMs: number[] = [];
  const unknownMs: number[] = [];
  const knownShapes: string[] = [];
  const unknownShapes = new Map<string, number>();
  for (const [i, k] of known.entries()) {
    const u = uniqueEmail('nobody');
    for (const email of i % 2 ? [k, u] : [u, k]) {
      const a = await ask(email);
      if (email === k) {
        knownMs.push(a.ms);
        knownShapes.push(shape(a, email));
      } else {
        unknownMs.push(a.ms);
        unknownShapes.set(shape(a, email), (unknownShapes.get(shape(a, email)) ?? 0) + 1);
      }
    }
  }
  const usual = [...unknownShapes].sort((a, b) => b[1] - a[1])[0]?.[0];
  const k = median(knownMs);
  const u = median(unknownMs);
  const half = Math.floor(unknownMs.length / 2);
  const noise = Math.max(3, Math.abs(median(unknownMs.slice(0, half)) - median(unknownMs.slice(half))) * 2);
  const ms = (x: number): string => x.toFixed(1);
  return [
    tally(6, `${name}: a known address answered differently`, knownShapes.map((s) => s !== usual)),
    tally(6, `${name}: known and unknown addresses told apart by time`, [Math.abs(k - u) > noise], { known_ms: ms(k), unknown_ms: ms(u), noise_ms: ms(noise) }),
  ];
}

export const enumerationProbe: Probe = {
  group: 'enumeration',
  items: [6],
  async run({ target, tries, startOther }) {
    const known = await accounts(target, tries, false);
    const rows = [
      ...await measure('password reset', known, (email) => call(target.url, 'POST', '/auth/v1/recover', { email })),
      ...await measure('magic link, create_user:false', known, (email) => call(target.url, 'POST', '/auth/v1/otp', { email, create_user: false })),
    ];
    const confirming = await startOther({ EMAIL_CONFIRMATION: 'true' });
    const confirmed = await accounts(confirming, tries, true);
    rows.push(...await measure('sign-up (EMAIL_CONFIRMATION on)', confirmed, (email) => call(confirming.url, 'POST', '/auth/v1/signup', { email, password: 'a sign-up passphrase' })));
    return rows;
  },
};
