// `looptale waitlist invite EMAIL`: issues a waitlist invitation for one address and prints its sign-up link
// (`<url>/?invite_token=...`). Only the invitee, signed in with that address, can redeem it (server/auth/waitlist.ts);
// the server keeps the token's digest, so the link printed here is the only copy: send it to the invitee.
import type { Command } from 'commander';
import { issueInvitation } from '../../server/auth/waitlist.js';
import { normalizeEmail } from '../../server/auth/users.js';
import { dbOptions, withDb, type DbOptions } from '../lib/database.js';
import { CliError, runCommand } from '../lib/story-file.js';

export function register(program: Command): void {
  const waitlist = program.command('waitlist').description('waitlist invitations');
  dbOptions(waitlist
    .command('invite')
    .description('invite one address: prints the link that lets its owner sign up and redeem the invitation')
    .argument('<email>', "the invitee's email address")
    .option('--url <url>', "the web app's public address", process.env.PUBLIC_URL ?? 'http://localhost:8787'))
    .action((email: string, o: DbOptions & { url: string }) => runCommand(() => withDb(o, async (db) => {
      if (!normalizeEmail(email)) throw new CliError(`Not an email address: ${email}`);
      const token = await issueInvitation(db, email);
      process.stdout.write(`${o.url.replace(/\/$/, '')}/?invite_token=${encodeURIComponent(token)}\n`);
      return 0;
    })));
}
