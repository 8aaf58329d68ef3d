// A player asks for their data and then for the account's deletion, as the privacy page promises they may. Here the
// "attack" is the refusal: a try holds when the server offers no way (no export of what it keeps, or the account
// and its sign-in still there after the deletion was asked for with the email typed again and the password).
import { call, currentEmail, signIn, signUp, uniqueEmail } from './auth-client.js';
import { tally, type Probe } from './types.js';

const PASSWORD = 'keeper of the marsh lantern';

export const accountDataProbe: Probe = {
  group: 'account-data',
  items: [7],
  async run({ target, tries }) {
    const stories = (await (await fetch(`${target.url}/api/stories`)).json()) as { id: string }[];
    const exported: (boolean | null)[] = [];
    const deleted: (boolean | null)[] = [];
    for (let i = 0; i < Math.min(tries, 10); i++) {
      const email = uniqueEmail('leaving');
      const { access } = await signUp(target.url, email, PASSWORD);
      if (!access) {
        exported.push(null);
        deleted.push(null);
        continue;
      }
      const run = await call(target.url, 'POST', '/api/player-stories', { blueprint_story_id: stories[0]?.id, language: 'english' }, access);
      const out = await call(target.url, 'GET', '/api/me/export', undefined, access);
      exported.push(!(out.status === 200 && JSON.stringify(out.body).includes(email) && JSON.stringify(out.body).includes(String(run.body.id))));
      await call(target.url, 'POST', '/api/me/delete', { confirm: email, current_password: PASSWORD }, access);
      deleted.push((await currentEmail(target.url, access)) !== null || (await signIn(target.url, email, PASSWORD)) !== null);
    }
    return [
      tally(7, "a player cannot export their data (account, runs)", exported),
      tally(7, 'a player cannot delete their account (still signs in after asking)', deleted),
    ];
  },
};
