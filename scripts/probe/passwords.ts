// Sign-ups with the passwords attackers try first: the most common ones long enough to pass a length check (from the
// ranked list @zxcvbn-ts/language-common ships; the server's check reads the same package, but the probe only needs
// the most common few, which any list has).
import { dictionary } from '@zxcvbn-ts/language-common';
import { signUp, uniqueEmail } from './auth-client.js';
import { tally, type Probe } from './types.js';

export const passwordsProbe: Probe = {
  group: 'passwords',
  items: [8],
  async run({ target, tries }) {
    const common = (dictionary['passwords-common'] as readonly string[]).filter((p) => p.length >= 8).slice(0, tries);
    const outcomes: (boolean | null)[] = [];
    for (const password of common) {
      const { answer } = await signUp(target.url, uniqueEmail('common'), password);
      outcomes.push(answer.status === 200 ? true : answer.status === 422 ? false : null);
    }
    return [tally(8, `sign-up with one of the ${common.length} most common passwords of 8+ characters`, outcomes, { first: common.slice(0, 3).join(',') })];
  },
};
