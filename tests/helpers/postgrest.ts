// A PostgREST stand-in for tests, as a `fetch` for supabase-js / postgrest-js: PostgREST itself cannot be installed here,
// so this turns the requests the real client builds into the SQL PostgREST 12 builds for them (the shapes of its
// Query/QueryBuilder.hs and Query/Statements.hs: the pgrst_source CTE, "schema"."table"."column" filters with
// parameters, LEFT JOIN LATERAL embeds, json_to_record(set) writes) and runs it as PostgREST does: connected as
// `authenticator`, one transaction per request (READ ONLY for reads), first
//   select set_config('search_path', ...), set_config('role', <the token's role>, true),
//          set_config('request.jwt.claims', <the token's claims>, true), set_config('request.method', ...), ...
// then the statement, and PostgREST's status codes and error bodies (42501: 401 for anon, 403 otherwise; 406 PGRST116
// when one object is asked for and the result is not one row).
//
// The subset: GET (select with columns, aliases and one level of embedded tables, eq/neq/gt/gte/lt/lte/is/in filters
// with not., order, limit/offset, single objects), POST (insert), PATCH (update), DELETE. Tokens are HS256 JWTs, as a
// Supabase project signs them; without one the request runs as anon.
import { jwtVerify, type JWTPayload } from 'jose';
import pg from 'pg';

const SCHEMA = 'public';
const q = (id: string): string => `"${id.replace(/"/g, '""')}"`;
const qi = (table: string): string => `${q(SCHEMA)}.${q(table)}`;

type Fk = { table: string; cols: string[]; ftable: string; fcols: string[] };
type Embed = { name: string; alias: string; cols: string[]; fk: Fk; toOne: boolean };
type Filter = { col: string; not: boolean; op: string; value: string };

export type PostgrestStandin = {
  fetch: typeof fetch;
  /** Every statement run, in order, with its parameters (what a test may print or inspect). */
  readonly log: { sql: string; values: unknown[] }[];
  close(): Promise<void>;
};

/** `authenticatorUrl`: the database as the `authenticator` role; `jwtSecret`: the project's JWT secret. */
export function postgrestStandin(authenticatorUrl: string, jwtSecret: string): PostgrestStandin {
  const pool = new pg.Pool({ connectionString: authenticatorUrl, max: 2 });
  const secret = new TextEncoder().encode(jwtSecret);
  const log: { sql: string; values: unknown[] }[] = [];
  let fks: Promise<Fk[]> | null = null;
  const types = new Map<string, Promise<Map<string, string>>>();

  const foreignKeys = (): Promise<Fk[]> => (fks ??= pool.query<Fk>(
    `SELECT cl.relname AS "table", array_agg(a.attname::text ORDER BY k.ord) AS cols, fcl.relname AS ftable,
            array_agg(fa.attname::text ORDER BY k.ord) AS fcols
     FROM pg_constraint con JOIN pg_class cl ON cl.oid = con.conrelid JOIN pg_class fcl ON fcl.oid = con.confrelid
     CROSS JOIN LATERAL unnest(con.conkey, con.confkey) WITH ORDINALITY AS k (attnum, fattnum, ord)
     JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
     JOIN pg_attribute fa ON fa.attrelid = con.confrelid AND fa.attnum = k.fattnum
     WHERE con.contype = 'f' AND cl.relnamespace = $1::regnamespace AND fcl.relnamespace = $1::regnamespace
     GROUP BY con.oid, cl.relname, fcl.relname`, [SCHEMA]).then((r) => r.rows));

  const columnTypes = (table: string): Promise<Map<string, string>> => {
    let t = types.get(table);
    if (!t) {
      t = pool.query<{ n: string; t: string }>(
        `SELECT attname AS n, format_type(atttypid, atttypmod) AS t FROM pg_attribute
         WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`, [qi(table)],
      ).then((r) => new Map(r.rows.map((x) => [x.n, x.t])));
      types.set(table, t);
    }
    return t;
  };

  async function embedOf(table: string, item: string, n: number): Promise<Embed> {
    const m = /^(?:(\w+):)?(\w+)(?:!(\w+))?\((.*)\)$/.exec(item);
    if (!m?.[2] || m[4] === undefined) throw new HttpError(400, 'PGRST100', `unsupported select item ${item}`);
    const name = m[2];
    const all = await foreignKeys();
    const toOne = all.filter((f) => f.table === table && f.ftable === name);
    const toMany = all.filter((f) => f.table === name && f.ftable === table);
    const found = [...toOne.map((fk) => ({ fk, toOne: true })), ...toMany.map((fk) => ({ fk, toOne: false }))];
    if (found.length !== 1 || !found[0]) {
      throw new HttpError(found.length ? 300 : 400, found.length ? 'PGRST201' : 'PGRST200', `${found.length} relationships between '${table}' and '${name}'`);
    }
    return { name: m[1] ?? name, alias: `${table}_${name}_${n}`, cols: m[4].split(','), fk: found[0].fk, toOne: found[0].toOne };
  }

  /** The select list split at top-level commas (embeds hold commas inside parentheses). */
  function splitSelect(select: string): string[] {
    const out: string[] = [];
    let depth = 0;
    let cur = '';
    for (const c of select) {
      if (c === ',' && depth === 0) {
        out.push(cur);
        cur = '';
        continue;
      }
      if (c === '(') depth++;
      if (c === ')') depth--;
      cur += c;
    }
    if (cur) out.push(cur);
    return out;
  }

  function selectItem(table: string, item: string): string {
    if (item === '*') return `${qi(table)}.*`;
    const m = /^(?:(\w+):)?(\w+)$/.exec(item);
    if (!m?.[2]) throw new HttpError(400, 'PGRST100', `unsupported select item ${item}`);
    return `${qi(table)}.${q(m[2])}${m[1] ? ` AS ${q(m[1])}` : ''}`;
  }

  function filtersOf(params: URLSearchParams): Filter[] {
    const out: Filter[] = [];
    for (const [col, raw] of params) {
      if (['select', 'order', 'limit', 'offset', 'columns', 'on_conflict'].includes(col)) continue;
      const m = /^(not\.)?(eq|neq|gt|gte|lt|lte|is|in)\.(.*)$/s.exec(raw);
      if (!m?.[2] || m[3] === undefined) throw new HttpError(400, 'PGRST100', `unsupported filter ${col}=${raw}`);
      out.push({ col, not: Boolean(m[1]), op: m[2], value: m[3] });
    }
    return out;
  }

  /** PostgREST's pgFmtFilter: `NOT "schema"."table"."col" = $n`, values as parameters of unknown type. */
  function where(table: string, filters: Filter[], values: unknown[]): string[] {
    const ops: Record<string, string> = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' };
    return filters.map((f) => {
      const field = `${qi(table)}.${q(f.col)}`;
      const not = f.not ? 'NOT ' : '';
      if (f.op === 'is') {
        const v = ({ null: 'NULL', true: 'TRUE', false: 'FALSE', unknown: 'UNKNOWN' } as Record<string, string>)[f.value.toLowerCase()];
        if (!v) throw new HttpError(400, 'PGRST100', `is.${f.value}`);
        return `${not}${field} IS ${v}`;
      }
      if (f.op === 'in') {
        const items = f.value.replace(/^\(|\)$/g, '').split(',').map((s) => s.replace(/^"|"$/g, ''));
        values.push(`{${items.map((s) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`);
        return `${not}${field} = ANY ($${values.length})`;
      }
      values.push(f.value);
      return `${not}${field} ${ops[f.op] ?? '='} $${values.length}`;
    });
  }

  function orderBy(table: string, order: string | null): string {
    if (!order) return '';
    const terms = order.split(',').map((t) => {
      const [col = '', ...mods] = t.split('.');
      const dir = mods.includes('desc') ? ' DESC' : mods.includes('asc') ? ' ASC' : '';
      const nulls = mods.includes('nullsfirst') ? ' NULLS FIRST' : mods.includes('nullslast') ? ' NULLS LAST' : '';
      return `${qi(table)}.${q(col)}${dir}${nulls}`;
    });
    return `ORDER BY ${terms.join(', ')}`;
  }

  async function readSql(table: string, params: URLSearchParams, single: boolean): Promise<{ sql: string; values: unknown[] }> {
    const values: unknown[] = [];
    const items = splitSelect(params.get('select') ?? '*');
    const cols: string[] = [];
    const joins: string[] = [];
    let n = 0;
    for (const item of items) {
      if (!item.includes('(')) {
        cols.push(selectItem(table, item));
        continue;
      }
      const e = await embedOf(table, item, ++n);
      const sub = `${e.fk.table === table ? e.fk.ftable : e.fk.table}_${n}`;
      const subCols = e.cols.map((c) => (c === '*' ? `${q(sub)}.*` : `${q(sub)}.${q(c)}`)).join(', ');
      const cond = e.toOne
        ? e.fk.cols.map((c, i) => `${q(sub)}.${q(e.fk.fcols[i] ?? '')} = ${qi(table)}.${q(c)}`).join(' AND ')
        : e.fk.cols.map((c, i) => `${q(sub)}.${q(c)} = ${qi(table)}.${q(e.fk.fcols[i] ?? '')}`).join(' AND ');
      const inner = `SELECT ${subCols} FROM ${qi(e.toOne ? e.fk.ftable : e.fk.table)} AS ${q(sub)} WHERE ${cond}`;
      if (e.toOne) {
        cols.push(`row_to_json(${q(e.alias)}.*)::jsonb AS ${q(e.name)}`);
        joins.push(`LEFT JOIN LATERAL ( ${inner} ) AS ${q(e.alias)} ON TRUE`);
      } else {
        cols.push(`COALESCE( ${q(e.alias)}.${q(e.alias)}, '[]') AS ${q(e.name)}`);
        joins.push(`LEFT JOIN LATERAL ( SELECT json_agg(${q(e.alias)})::jsonb AS ${q(e.alias)} FROM (${inner} ) AS ${q(e.alias)} ) AS ${q(e.alias)} ON TRUE`);
      }
    }
    const conds = where(table, filtersOf(params), values);
    let range = '';
    const limit = params.get('limit');
    const offset = params.get('offset');
    if (limit !== null || offset !== null) {
      let l = 'ALL';
      if (limit !== null) {
        values.push(limit);
        l = `$${values.length}`;
      }
      values.push(offset ?? '0');
      range = `LIMIT ${l} OFFSET $${values.length}`;
    }
    const select = `SELECT ${cols.join(', ')} FROM ${qi(table)} ${joins.join(' ')}${conds.length ? ` WHERE ${conds.join(' AND ')}` : ''} ${orderBy(table, params.get('order'))} ${range}`;
    const body = single ? "coalesce(json_agg(_postgrest_t)->0, 'null')" : "coalesce(json_agg(_postgrest_t), '[]')";
    return {
      sql: `WITH pgrst_source AS ( ${select} ) SELECT null::bigint AS total_result_set, pg_catalog.count(_postgrest_t) AS page_total, ${body} AS body, ` +
        "nullif(current_setting('response.headers', true), '') AS response_headers, nullif(current_setting('response.status', true), '') AS response_status " +
        'FROM ( SELECT * FROM pgrst_source ) _postgrest_t',
      values,
    };
  }

  async function writeSql(method: string, table: string, params: URLSearchParams, payload: unknown, returning: boolean, single: boolean): Promise<{ sql: string; values: unknown[] }> {
    const values: unknown[] = [];
    let mutate: string;
    if (method === 'DELETE') {
      const conds = where(table, filtersOf(params), values);
      mutate = `DELETE FROM ${qi(table)} ${conds.length ? ` WHERE ${conds.join(' AND ')}` : ''} ${returning ? `RETURNING ${qi(table)}.*` : 'RETURNING 1'}`;
    } else {
      const rows = Array.isArray(payload) ? (payload as Record<string, unknown>[]) : [payload as Record<string, unknown>];
      const cols = params.get('columns')?.split(',') ?? Object.keys(rows[0] ?? {});
      const types = await columnTypes(table);
      values.push(JSON.stringify(payload));
      const typed = cols.map((c) => `${q(c)} ${types.get(c) ?? 'text'}`).join(', ');
      const body = `FROM (SELECT $1::json AS json_data) pgrst_payload, LATERAL (SELECT ${cols.map(q).join(', ')} FROM ${Array.isArray(payload) ? 'json_to_recordset' : 'json_to_record'}(pgrst_payload.json_data) AS _(${typed}) ) pgrst_body `;
      if (method === 'POST') {
        mutate = `INSERT INTO ${qi(table)}(${cols.map(q).join(', ')}) SELECT ${cols.map((c) => `"pgrst_body".${q(c)}`).join(', ')} ${body} ${returning ? `RETURNING ${qi(table)}.*` : 'RETURNING 1'}`;
      } else {
        const conds = where(table, filtersOf(params), values);
        mutate = `UPDATE ${qi(table)} SET ${cols.map((c) => `${q(c)} = "pgrst_body".${q(c)}`).join(', ')} ${body}${conds.length ? ` WHERE ${conds.join(' AND ')}` : ''} ${returning ? `RETURNING ${qi(table)}.*` : 'RETURNING 1'}`;
      }
    }
    const out = returning ? (single ? "coalesce(json_agg(_postgrest_t)->0, 'null')" : "coalesce(json_agg(_postgrest_t), '[]')") : "''";
    return {
      sql: `WITH pgrst_source AS (${mutate}) SELECT '' AS total_result_set, pg_catalog.count(_postgrest_t) AS page_total, array[]::text[] AS header, ${out} AS body, ` +
        "nullif(current_setting('response.headers', true), '') AS response_headers, nullif(current_setting('response.status', true), '') AS response_status " +
        `FROM (${returning ? `SELECT ${q(table)}.* FROM "pgrst_source" AS ${q(table)}` : 'SELECT * FROM pgrst_source'}) _postgrest_t`,
      values,
    };
  }

  async function claimsOf(req: Request): Promise<JWTPayload & { role: string }> {
    const auth = req.headers.get('authorization');
    const token = auth?.replace(/^Bearer /i, '') ?? '';
    if (!token) return { role: 'anon' };
    try {
      const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
      return { ...payload, role: typeof payload.role === 'string' ? payload.role : 'anon' };
    } catch {
      throw new HttpError(401, 'PGRST301', 'JWSError JWSInvalidSignature');
    }
  }

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const table = decodeURIComponent(url.pathname.replace(/^.*\/rest\/v1\//, ''));
    const claims = await claimsOf(req);
    const single = (req.headers.get('accept') ?? '').includes('application/vnd.pgrst.object+json');
    const prefer = req.headers.get('prefer') ?? '';
    const returning = /return=representation/.test(prefer);
    const method = req.method.toUpperCase();
    const stmt = method === 'GET'
      ? await readSql(table, url.searchParams, single)
      : await writeSql(method, table, url.searchParams, method === 'DELETE' ? null : JSON.parse(await req.text()) as unknown, returning, single);
    const client = await pool.connect();
    try {
      await client.query(method === 'GET' ? 'BEGIN ISOLATION LEVEL READ COMMITTED READ ONLY' : 'BEGIN ISOLATION LEVEL READ COMMITTED');
      const pre = {
        sql: 'select set_config(\'search_path\', $1, true), set_config(\'role\', $2, true), set_config(\'request.jwt.claims\', $3, true), ' +
          'set_config(\'request.method\', $4, true), set_config(\'request.path\', $5, true), set_config(\'request.headers\', $6, true), set_config(\'request.cookies\', $7, true)',
        values: ['"public", "extensions"', claims.role, JSON.stringify(claims), method, url.pathname, JSON.stringify({ accept: req.headers.get('accept') ?? '*/*' }), '{}'],
      };
      log.push(pre, stmt);
      await client.query(pre.sql, pre.values);
      const r = await client.query<{ page_total: string; body: unknown }>(stmt.sql, stmt.values);
      const row = r.rows[0];
      const total = Number(row?.page_total ?? 0);
      if (single && total !== 1) {
        await client.query('ROLLBACK');
        return json(406, { code: 'PGRST116', details: `The result contains ${total} rows`, hint: null, message: 'JSON object requested, multiple (or no) rows returned' });
      }
      await client.query('COMMIT');
      if (method === 'GET' || returning) return json(method === 'POST' ? 201 : 200, row?.body ?? null);
      return new Response(null, { status: method === 'POST' ? 201 : 204 });
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      const err = e as { code?: string; message?: string; detail?: string; hint?: string };
      if (!err.code) throw e;
      const status = err.code === '42501' ? (claims.role === 'anon' ? 401 : 403) : err.code === '23505' ? 409 : 400;
      return json(status, { code: err.code, details: err.detail ?? null, hint: err.hint ?? null, message: err.message ?? '' });
    } finally {
      client.release();
    }
  }

  return {
    log,
    fetch: async (input, init) => {
      const req = new Request(input, init);
      try {
        return await handle(req);
      } catch (e) {
        if (e instanceof HttpError) return json(e.status, { code: e.code, details: null, hint: null, message: e.message });
        throw e;
      }
    },
    close: () => pool.end(),
  };
}

class HttpError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}
