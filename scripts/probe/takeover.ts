// A stolen access token made a permanent takeover: with the token of a session signed in a while ago (longer than
// REAUTHENTICATION_WINDOW_S), the thief sets a new password with no current password, or moves the account to their
// own email at once.
import { call, currentEmail, magicLink, signIn, signUp, sleep, uniqueEmail } from './auth-client.js';
import { REAUTH_WINDOW_S } from './target.js';
import { tally, type Probe } from './types.js';

const PASSWORD = 'the owner knows this one';

export const takeoverProbe: Probe = {
  group: 'takeover',
  items: [5],
  async run({ target, tries }) {
    // Accounts whose address was proved by a magic link, then given a password, then signed in: the stolen sessions.
    const owners: { email: string; token: string }[] = [];
    for (let i = 0; i < tries; i++) {
      const email = uniqueEmail('owner');
      await signUp(target.url, email, PASSWORD);
      const proved = await magicLink(target.url, email);
      if (proved) await call(target.url, 'PUT', '/auth/v1/user', { password: PASSWORD }, proved);
      const token = await signIn(target.url, email, PASSWORD);
      if (token) owners.push({ email, token });
    }
    await sleep((REAUTH_WINDOW_S + 1) * 1000);
    const password: boolean[] = [];
    const email: boolean[] = [];
    for (const [i, o] of owners.entries()) {
      const stolen = `the thief would like this ${i}`;
      await call(target.url, 'PUT', '/auth/v1/user', { password: stolen }, o.token);
      password.push((await signIn(target.url, o.email, stolen)) !== null);
      const thief = uniqueEmail('thief');
      await call(target.url, 'PUT', '/auth/v1/user', { email: thief }, o.token);
      email.push((await currentEmail(target.url, o.token)) === thief);
    }
    const lost = tries - owners.length;
    return [
      tally(5, 'old session token alone sets a new password', password, lost ? { setup_failed: lost } : undefined),
      tally(5, "old session token alone moves the account to the thief's email", email),
    ];
  },
};
