// `looptale account export` and `looptale account delete`: a player's own data on a game server, through the same API
// as the web app's profile page (GET /api/me/export, POST /api/me/delete). Signs in with --email and --password (the
// password also re-authenticates the deletion), or uses --token.
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { Api, ApiError } from '../lib/game-client.js';

type Opts = { url: string; email?: string; password?: string; token?: string };

function withAccount(c: Command): Command {
  return c
    .option('--url <url>', 'game server', process.env.LOOPTALE_URL ?? 'http://127.0.0.1:8787')
    .option('--email <email>', 'account email; env LOOPTALE_EMAIL', process.env.LOOPTALE_EMAIL)
    .option('--password <password>', 'account password; env LOOPTALE_PASSWORD', process.env.LOOPTALE_PASSWORD)
    .option('--token <token>', 'an access token instead of email and password; env LOOPTALE_TOKEN', process.env.LOOPTALE_TOKEN);
}

async function signedIn(o: Opts): Promise<Api> {
  if (o.token) return new Api(o.url, o.token);
  if (!o.email || !o.password) throw new UsageError('give --email and --password (or --token)');
  const api = new Api(o.url);
  await api.signIn(o.email, o.password);
  return api;
}

class UsageError extends Error {}

async function run(action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (e) {
    const usage = e instanceof UsageError;
    process.stderr.write(`looptale account: ${e instanceof ApiError || usage ? e.message : String(e)}\n`);
    process.exitCode = usage ? 2 : 1;
  }
}

export function register(program: Command): void {
  const account = program.command('account').description("a player's own data on a game server: export it, or delete the account");
  withAccount(account.command('export'))
    .description('write everything the server stores about the account (JSON, with each run\'s transcript) to a file')
    .option('--out <file>', 'where to write it', 'looptale-data.json')
    .action((o: Opts & { out: string }) => run(async () => {
      const api = await signedIn(o);
      const data = await api.request<{ tables: Record<string, unknown[]>; transcripts: Record<string, string> }>('GET', '/api/me/export');
      writeFileSync(o.out, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
      process.stdout.write(`wrote ${o.out}: ${Object.keys(data.tables).length} tables, ${Object.keys(data.transcripts).length} transcripts\n`);
    }));
  withAccount(account.command('delete'))
    .description('delete the account and everything it owns (runs, transcripts, tickets, feedback, uploads, sessions); cannot be undone')
    .requiredOption('--confirm <email>', "the account's email address again, to confirm")
    .action((o: Opts & { confirm: string }) => run(async () => {
      const api = await signedIn(o);
      const body: Record<string, string> = { confirm: o.confirm };
      // A fresh sign-in is enough; the password, when given, also covers a --token from an old session.
      if (o.password) body.current_password = o.password;
      const out = await api.request<{ rows: Record<string, number> }>('POST', '/api/me/delete', body);
      const n = Object.values(out.rows).reduce((a, b) => a + b, 0);
      process.stdout.write(`account deleted: ${n} rows in ${Object.keys(out.rows).length} tables\n`);
    }));
}
