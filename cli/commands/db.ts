// `looptale db status` and `looptale db migrate`: the schema of the server's database (DATABASE_URL or DATA_DIR, or the
// flags), for deployments that apply migrations before starting the servers (MIGRATE_ON_START=false) without the
// Supabase CLI. Both read and write the ledger `supabase db push` uses, so either tool may apply a migration.
// Exit codes: 0 up to date (status) or done (migrate), 1 migrations pending (status), 2 bad usage or database unavailable.
import type { Command } from 'commander';
import { migrate, migrationStatus } from '../../server/db/migrate.js';
import { dbOptions, withDb, type DbOptions } from '../lib/database.js';
import { CliError, runCommand } from '../lib/story-file.js';

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

export function register(program: Command): void {
  const db = program.command('db').description('the database schema: migration status, apply migrations');

  dbOptions(db.command('status').description('list the migrations this version has that the database has not applied'))
    .addHelpText('after', `
Examples:
  $ looptale db status
  $ looptale db status --database-url "postgresql://postgres.<ref>:<password>@aws-0-<region>.pooler.supabase.com:5432/postgres"

Exit codes: 0 up to date, 1 migrations pending, 2 database unavailable.`)
    .action((o: DbOptions) => runCommand(() => withDb(o, async (conn, where) => {
      const { pending, unknown } = await migrationStatus(conn);
      const lines = [pending.length === 0 ? `${cap(where)} is up to date.` : `${cap(where)} misses ${pending.length} migration${pending.length === 1 ? '' : 's'}:`];
      for (const f of pending) lines.push(`  ${f}`);
      if (unknown.length > 0) lines.push(`Applied there but unknown to this version (a newer one applied them): ${unknown.join(', ')}`);
      process.stdout.write(`${lines.join('\n')}\n`);
      return pending.length === 0 ? 0 : 1;
    }, { asIs: true })));

  dbOptions(db.command('migrate').description('apply the migrations the database has not applied (what the server does on start)'))
    .addHelpText('after', `
Examples:
  $ looptale db migrate --data-dir ./data
  $ DATABASE_URL=postgresql://... looptale db migrate

Exit codes: 0 done, 2 a migration failed (nothing applied) or database unavailable.`)
    .action((o: DbOptions) => runCommand(() => withDb(o, async (conn, where) => {
      let applied: string[];
      try {
        applied = await migrate(conn);
      } catch (e) {
        // One transaction: nothing of this run is applied.
        throw new CliError(`a migration failed on ${where}, nothing applied: ${e instanceof Error ? e.message : String(e)}`);
      }
      process.stdout.write(applied.length === 0 ? `${cap(where)} was up to date.\n` : `Applied to ${where}:\n${applied.map((f) => `  ${f}`).join('\n')}\n`);
      return 0;
    }, { asIs: true })));
}
