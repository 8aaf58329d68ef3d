// Account pre-hijacking (with EMAIL_CONFIRMATION off, the default): an attacker signs up the victim's address with a
// password before the victim ever comes; the victim later signs in by magic link. The attack holds when, after that,
// the attacker's session, refresh token or password still reaches the victim's account.
import { call, currentEmail, magicLink, signIn, signUp, uniqueEmail } from './auth-client.js';
import { tally, type Probe } from './types.js';

const ATTACKER = 'attacker chose this one';

export const preHijackProbe: Probe = {
  group: 'pre-hijack',
  items: [3],
  async run({ target, tries }) {
    const squat: (boolean | null)[] = [];
    const refresh: (boolean | null)[] = [];
    for (let i = 0; i < tries; i++) {
      const email = uniqueEmail('victim');
      const attacker = await signUp(target.url, email, ATTACKER);
      const victim = await magicLink(target.url, email);
      if (!attacker.access || !victim) {
        squat.push(null);
        refresh.push(null);
      } else {
        squat.push((await currentEmail(target.url, attacker.access)) !== null || (await signIn(target.url, email, ATTACKER)) !== null);
        const r = await call(target.url, 'POST', '/auth/v1/token?grant_type=refresh_token', { refresh_token: attacker.refresh });
        refresh.push(r.status === 200);
      }
    }
    return [
      tally(3, "attacker's sign-up session or password still works after the victim's magic link", squat),
      tally(3, "attacker's refresh token still works after the victim's magic link", refresh),
    ];
  },
};
