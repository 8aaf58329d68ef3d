// `looptale story authors <story-id>`, `looptale user role` and `looptale admins`: who may change a story, and each
// user's role (player, author, admin). Authors of a story (and admins,
// for every story) write its media through /storage/v1; see server/store/authors.ts. People are named by their email
// (an account of this server) or their user id (with AUTH_PROVIDER=supabase, the `sub` of their Supabase tokens).
import type { Command } from 'commander';
import type { Queryable } from '../../server/db/db.js';
import { AuthorsRepo, USER_ROLES, type UserRole } from '../../server/store/authors.js';
import { isUuid } from '../../server/store/rows.js';
import { dbOptions, withDb, type DbOptions } from '../lib/database.js';
import { CliError, runCommand } from '../lib/story-file.js';

type Options = DbOptions & { add: string[]; remove: string[] };

const collect = (v: string, all: string[]): string[] => [...all, v];

/** A user id from an email or an id; a usage error (exit 2) when nobody matches. */
async function userIdOf(q: Queryable, who: string): Promise<string> {
  const text = who.trim().toLowerCase();
  if (isUuid(text)) return text;
  const r = await q.query<{ id: string }>('SELECT id::text FROM looptale_auth.users WHERE lower(email) = $1', [who.trim().toLowerCase()]);
  const id = r.rows[0]?.id;
  if (!id) throw new CliError(`No account with the email ${who}: they must sign up first, or give their user id (with AUTH_PROVIDER=supabase, the id of their Supabase account).`);
  return id;
}

async function describe(q: Queryable, ids: readonly { user_id: string }[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const r = await q.query<{ id: string; email: string | null }>('SELECT id::text, email FROM looptale_auth.users WHERE id = ANY($1::uuid[])', [ids.map((x) => x.user_id)]);
  const email = new Map(r.rows.map((x) => [x.id, x.email]));
  return ids.map((x) => `  ${x.user_id}  ${email.get(x.user_id) ?? '(no local account)'}`);
}

export function addAuthors(story: Command): void {
  dbOptions(story
    .command('authors')
    .description("list, add or remove a story's authors (they may change its media)")
    .argument('<story-id>', 'story id')
    .option('--add <email|id>', 'make this person an author (repeatable)', collect, [])
    .option('--remove <email|id>', 'remove this author (repeatable)', collect, []))
    .addHelpText('after', `
Examples:
  $ looptale story authors 8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a --add maker@example.com
  $ looptale story authors 8b800bd3-b107-4b49-81d1-b7a4b8dcbc5a

Exit codes: 0 done, 1 no such story, 2 unknown person, bad usage or database unavailable.`)
    .action((storyId: string, o: Options) => runCommand(() => withDb(o, async (db, where) => {
      const exists = isUuid(storyId) && (await db.query('SELECT 1 FROM blueprint_stories WHERE id = $1', [storyId])).rows.length > 0;
      if (!exists) throw new CliError(`No story ${storyId} in ${where}.`, 1);
      const repo = new AuthorsRepo(db);
      for (const who of o.add) process.stdout.write(`${(await repo.addAuthor(storyId, await userIdOf(db, who))) ? 'added' : 'already an author'}: ${who}\n`);
      for (const who of o.remove) process.stdout.write(`${(await repo.removeAuthor(storyId, await userIdOf(db, who))) ? 'removed' : 'not an author'}: ${who}\n`);
      const lines = await describe(db, await repo.authors(storyId));
      process.stdout.write(lines.length ? `Authors of ${storyId}:\n${lines.join('\n')}\n` : `Story ${storyId} has no authors (only admins may change its media).\n`);
      return 0;
    })));
}

export function register(program: Command): void {
  const user = program.command('user').description("a user's role: player (the default), author (makes stories) or admin (every story)");
  dbOptions(user
    .command('role')
    .description("show or set a user's role: player, author (creates stories, edits those they own or were invited to) or admin (edits every story)")
    .argument('<email|id>', 'the user: the email of an account of this server, or a user id')
    .argument('[role]', `the role to set: ${USER_ROLES.join(', ')}`))
    .addHelpText('after', `
Examples:
  $ looptale user role maker@example.com author
  $ looptale user role maker@example.com

Exit codes: 0 done, 2 unknown person or role, bad usage or database unavailable.`)
    .action((who: string, role: string | undefined, o: DbOptions) => runCommand(() => withDb(o, async (db) => {
      if (role !== undefined && !(USER_ROLES as readonly string[]).includes(role)) throw new CliError(`Unknown role '${role}': choose one of ${USER_ROLES.join(', ')}.`);
      const repo = new AuthorsRepo(db);
      const id = await userIdOf(db, who);
      if (role === undefined) {
        process.stdout.write(`${who}: ${await repo.userRole(id)}\n`);
        return 0;
      }
      const before = await repo.setRole(id, role as UserRole);
      process.stdout.write(before === role ? `${who}: ${role} (unchanged)\n` : `${who}: ${role} (was ${before})\n`);
      return 0;
    })));
  dbOptions(program
    .command('admins')
    .description('list, grant or revoke the admin role (admins may change every story\'s media)')
    .option('--add <email|id>', 'grant the admin role (repeatable)', collect, [])
    .option('--remove <email|id>', 'revoke the admin role (repeatable)', collect, []))
    .addHelpText('after', `
Examples:
  $ looptale admins --add lead@example.com
  $ looptale admins

Exit codes: 0 done, 2 unknown person, bad usage or database unavailable.`)
    .action((o: Options) => runCommand(() => withDb(o, async (db) => {
      const repo = new AuthorsRepo(db);
      for (const who of o.add) process.stdout.write(`${(await repo.grantAdmin(await userIdOf(db, who))) ? 'granted' : 'already an admin'}: ${who}\n`);
      for (const who of o.remove) process.stdout.write(`${(await repo.revokeAdmin(await userIdOf(db, who))) ? 'revoked' : 'not an admin'}: ${who}\n`);
      const lines = await describe(db, await repo.admins());
      process.stdout.write(lines.length ? `Admins:\n${lines.join('\n')}\n` : 'No admins.\n');
      return 0;
    })));
}
