// A player's own data: GET /api/me/export (everything stored about the caller, as JSON, with each run's transcript)
// and POST /api/me/delete (the account and everything it owns, after a re-authentication and a typed confirmation).
// Which rows are the player's is read from the database itself, not listed here: every table with a user_id column,
// and every table that reaches one of those through foreign keys (a run's moments, opponents, transcript lines,
// prompt logs...), so a table added later is exported and deleted without anyone remembering to add it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { toJsonl, type TranscriptLine } from '../../engine/sim/transcript.js';
import type { Queryable } from '../db/db.js';
import { HttpError } from '../http/errors.js';
import { route } from '../http/route.js';
import { requireSession, type AuthContext } from './context.js';
import { AuthApiError } from './errors.js';
import { checkProof, consumeNonce } from './reauthentication.js';
import { identitiesOf, userJson, type UserRow } from './users.js';

/** A table holding the player's rows, and the condition (on `$1`, the user id) that finds them. */
export type OwnedTable = { table: string; where: string; depth: number };

/** Columns never exported: digests of secrets (they prove nothing to the player and help an attacker). */
const SECRET_COLUMNS = new Set(['encrypted_password', 'token_hash', 'link_hash', 'otp_hash', 'auth_code_hash', 'code_verifier', 'state_hash']);
const MAX_DEPTH = 4;

/** Every table with the player's rows, listed from the catalog: deepest descendants first (the order to delete in). */
export async function ownedTables(q: Queryable): Promise<OwnedTable[]> {
  const direct = await q.query<{ t: string }>(
    `SELECT format('%I.%I', c.table_schema, c.table_name) AS t FROM information_schema.columns c
       JOIN information_schema.tables tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name AND tb.table_type = 'BASE TABLE'
      WHERE c.column_name = 'user_id' AND c.table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
  );
  const fks = await q.query<{ child: string; parent: string; child_cols: string; parent_cols: string }>(
    `SELECT (SELECT format('%I.%I', n.nspname, r.relname) FROM pg_class r JOIN pg_namespace n ON n.oid = r.relnamespace WHERE r.oid = c.conrelid) AS child,
            (SELECT format('%I.%I', n.nspname, r.relname) FROM pg_class r JOIN pg_namespace n ON n.oid = r.relnamespace WHERE r.oid = c.confrelid) AS parent,
            (SELECT string_agg(quote_ident(a.attname), ',' ORDER BY k.i) FROM unnest(c.conkey) WITH ORDINALITY AS k(n, i) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n) AS child_cols,
            (SELECT string_agg(quote_ident(a.attname), ',' ORDER BY k.i) FROM unnest(c.confkey) WITH ORDINALITY AS k(n, i) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n) AS parent_cols
       FROM pg_constraint c WHERE c.contype = 'f' ORDER BY 1, 2, 3`,
  );
  const withUserId = new Set(direct.rows.map((r) => r.t));
  const found = new Map<string, OwnedTable>();
  for (const t of withUserId) found.set(t, { table: t, where: 'user_id::text = $1', depth: 0 });
  // Tables without user_id reached from owned ones (the auth users table is handled on its own, by id).
  let frontier = [...found.values()];
  for (let depth = 1; depth <= MAX_DEPTH && frontier.length; depth++) {
    const next: OwnedTable[] = [];
    for (const parent of frontier) {
      for (const fk of fks.rows.filter((f) => f.parent === parent.table && !withUserId.has(f.child) && f.child !== parent.table)) {
        const cond = `(${fk.child_cols}) IN (SELECT ${fk.parent_cols} FROM ${parent.table} WHERE ${parent.where})`;
        const had = found.get(fk.child);
        if (had) {
          if (!had.where.includes(cond)) had.where = `(${had.where}) OR ${cond}`;
          continue;
        }
        const t = { table: fk.child, where: cond, depth };
        found.set(fk.child, t);
        next.push(t);
      }
    }
    frontier = next;
  }
  return [...found.values()].sort((a, b) => b.depth - a.depth || a.table.localeCompare(b.table));
}

const withoutSecrets = (row: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(row).filter(([k]) => !SECRET_COLUMNS.has(k)).map(([k, v]) => [k, Buffer.isBuffer(v) ? `(${v.length} bytes)` : v]));

/** Everything stored about the user: the account, the rows of every owned table, and each run's transcript (JSONL). */
export type AccountExport = { exported_at: string; account: Record<string, unknown>; tables: Record<string, unknown[]>; transcripts: Record<string, string> };

export async function exportAccount(q: Queryable, user: UserRow, now: Date): Promise<AccountExport> {
  const tables: Record<string, unknown[]> = {};
  for (const t of await ownedTables(q)) {
    if (t.table === 'looptale_auth.one_time_tokens' || t.table === 'looptale_auth.flow_state') continue;
    const rows = (await q.query<Record<string, unknown>>(`SELECT * FROM ${t.table} WHERE ${t.where}`, [user.id])).rows;
    if (rows.length) tables[t.table] = rows.map(withoutSecrets);
  }
  const lines = (tables['looptale_private.player_story_transcripts'] ?? []) as { player_story_id: string; seq: number; line: TranscriptLine }[];
  const transcripts: Record<string, string> = {};
  for (const id of [...new Set(lines.map((l) => l.player_story_id))]) {
    const run = lines.filter((l) => l.player_story_id === id).sort((a, b) => a.seq - b.seq).map((l, i) => (l.line.kind === 'event' ? { ...l.line, index: i - 1 } : l.line));
    transcripts[id] = toJsonl(run);
  }
  return { exported_at: now.toISOString(), account: userJson(user, await identitiesOf(q, user.id)), tables, transcripts };
}

/** Deletes the user and every owned row, in one transaction. Returns the number of rows deleted per table. */
export async function deleteAccount(q: Queryable, user: UserRow): Promise<Record<string, number>> {
  await q.query('SET CONSTRAINTS ALL DEFERRED');
  const deleted: Record<string, number> = {};
  for (const t of await ownedTables(q)) {
    const r = await q.query(`DELETE FROM ${t.table} WHERE ${t.where}`, [user.id]);
    if (r.rowCount) deleted[t.table] = r.rowCount;
  }
  // Rate-limit counters keyed by the address (shared store on PostgreSQL).
  if (user.email) {
    await q.query("DELETE FROM looptale_private.auth_limits WHERE right(key, length($1) + 1) = ':' || $1", [user.email]);
  }
  const r = await q.query('DELETE FROM looptale_auth.users WHERE id = $1', [user.id]);
  deleted['looptale_auth.users'] = r.rowCount;
  return deleted;
}

const DeleteBody = z.object({
  /** The account's email address, typed again: a deletion cannot be a stray click. */
  confirm: z.string().max(320),
  current_password: z.string().max(1024).optional(),
  nonce: z.string().max(32).optional(),
});
const Deleted = z.object({ deleted: z.literal(true), rows: z.record(z.string(), z.number()) });
const Export = z.object({ exported_at: z.string(), account: z.record(z.string(), z.unknown()), tables: z.record(z.string(), z.array(z.unknown())), transcripts: z.record(z.string(), z.string()) });

/** Auth's errors in the /api shape. */
function asHttp(e: unknown): never {
  if (e instanceof AuthApiError) throw new HttpError(e.status, `auth/${e.errorCode}`, e.message);
  throw e;
}

export function accountDataRoutes(app: FastifyInstance, ctx: AuthContext): void {
  const session = (req: FastifyRequest) => requireSession(ctx, req).catch(asHttp);

  route(app, { method: 'GET', url: '/api/me/export', summary: 'Everything stored about the caller, as JSON, with the transcript of each run', tags: ['account'], auth: 'user', response: Export },
    async ({ req, reply }) => {
      const { user } = await session(req);
      void reply.header('content-disposition', 'attachment; filename="looptale-data.json"').header('cache-control', 'no-store');
      return ctx.db.tx((q) => exportAccount(q, user, new Date(ctx.now())));
    });

  route(app, { method: 'POST', url: '/api/me/delete', summary: "Deletes the caller's account and everything it owns (runs, transcripts, tickets, feedback, uploads, sessions): the email typed again, and a recent sign-in, the current password or a reauthentication nonce", tags: ['account'], auth: 'user', body: DeleteBody, response: Deleted },
    async ({ req, body }) => {
      const { user, sessionId } = await session(req);
      if (body.confirm.trim().toLowerCase() !== (user.email ?? '').toLowerCase()) {
        throw new HttpError(400, 'account/confirmation_mismatch', 'Type the email address of this account to confirm its deletion.');
      }
      const proof = await checkProof(ctx, req, user, sessionId, { nonce: body.nonce, currentPassword: body.current_password }).catch(asHttp);
      const out = await ctx.db.tx(async (q) => {
        if (proof === 'nonce') {
          const bad = await consumeNonce(ctx, q, user, body.nonce ?? '');
          if (bad) return { error: bad };
        }
        const ended = await ctx.sessions.end(q, { userId: user.id }, 'account_deleted');
        return { error: null, ended, rows: await deleteAccount(q, user) };
      });
      if (out.error) asHttp(out.error);
      ctx.sessions.announce(out.ended, 'account_deleted');
      ctx.log.info({ user: user.id, tables: Object.keys(out.rows).length }, 'account deleted');
      return { deleted: true as const, rows: out.rows };
    });
}
