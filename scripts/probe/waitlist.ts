// Waitlist invitations: a signed-in user redeems a made-up invite_token (taking it before its real holder), and the
// token of an invitation link reaches the request log in clear.
import { randomBytes } from 'node:crypto';
import { signUp, uniqueEmail } from './auth-client.js';
import { tally, type Probe } from './types.js';

export const waitlistProbe: Probe = {
  group: 'waitlist',
  items: [12],
  async run({ target, tries }) {
    const redeemed: (boolean | null)[] = [];
    const logged: boolean[] = [];
    for (let i = 0; i < tries; i++) {
      // A new player each time: one redemption per account is all a made-up token would ever need.
      const email = uniqueEmail('invitee');
      const { access } = await signUp(target.url, email, 'correct horse battery 1');
      const token = randomBytes(16).toString('hex');
      const res = await fetch(`${target.url}/marketing/waitlist_redeem`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${access ?? ''}` },
        body: new URLSearchParams({ email, invite_token: token }),
      });
      await res.arrayBuffer();
      redeemed.push(res.status >= 200 && res.status < 300 ? true : res.status >= 400 && res.status < 500 ? false : null);
      const page = await fetch(`${target.url}/browse?invite_token=${token}`);
      await page.arrayBuffer();
      // The request log is written as the answer goes out: give it a moment to reach the pipe.
      await new Promise((r) => setTimeout(r, 50));
      logged.push(target.output.join('').includes(token));
    }
    return [
      tally(12, 'a made-up invite_token redeemed', redeemed),
      tally(12, "an invitation link's token written to the request log", logged),
    ];
  },
};
