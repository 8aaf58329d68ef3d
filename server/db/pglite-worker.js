// Worker-thread side of server/db/pglite.ts: the embedded PostgreSQL (PGlite, WASM) runs here, so its query execution
// and file I/O never block the server's event loop. Plain JavaScript: Node starts it as is, without the TypeScript
// loader (a worker does not inherit it, and it would cost start-up time and memory for a few lines).
// Messages: { id, op: 'open', dataDir, settings } | { id, op: 'query', sql, params } | { id, op: 'exec', sql } | { id, op: 'close' }.
// Each gets exactly one reply { id, ok: true, rows, affected } or { id, ok: false, error } (error: message, name and
// the database's fields such as code and detail). Requests are served one at a time, in order.
import { parentPort } from 'node:worker_threads';
import './pglite-private-fs.js';
import { PGlite, parse, protocol } from '@electric-sql/pglite';

const port = parentPort;
if (!port) throw new Error('pglite-worker.js must run in a worker thread');

/** @type {PGlite | null} */
let db = null;
let chain = Promise.resolve();
/** Inside BEGIN ... COMMIT/ROLLBACK (files are synced after each statement outside a transaction, as PGlite does). */
let inTx = false;
/** Prepared statements by text: { name, paramTypes }. */
const statements = new Map();

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/**
 * A named prepared statement through the wire protocol (PGlite's query() parses and plans every time): Parse and
 * Describe once per text, then Bind, Execute, Sync, in one call into the engine.
 */
async function preparedQuery(sql, params) {
  const { serialize } = protocol;
  let st = statements.get(sql);
  if (!st) {
    const name = `looptale_${statements.size + 1}`;
    const r = await db.execProtocol(concat([serialize.parse({ name, text: sql, types: [] }), serialize.describe({ type: 'S', name }), serialize.sync()]), { syncToFs: false });
    st = { name, paramTypes: parse.parseDescribeStatementResults(r.messages) };
    statements.set(sql, st);
  }
  const values = params.map((v, i) => {
    if (v === null || v === undefined) return null;
    const serializer = db.serializers[st.paramTypes[i]];
    return serializer ? serializer(v) : String(v);
  });
  const r = await db.execProtocol(concat([serialize.bind({ statement: st.name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]), { syncToFs: false });
  if (!inTx) await db.syncToFs();
  const [res] = parse.parseResults(r.messages, db.parsers);
  return { rows: res?.rows ?? [], affected: res?.affectedRows ?? res?.rows?.length ?? 0 };
}

function errorOf(e) {
  if (!(e instanceof Error)) return { message: String(e), name: 'Error' };
  const out = { message: e.message, name: e.name };
  for (const [k, v] of Object.entries(e)) if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) out[k] = v;
  return out;
}

async function handle(m) {
  switch (m.op) {
    case 'open': {
      // relaxedDurability off: every commit is flushed before it is acknowledged.
      // settings: PostgreSQL parameters given at start (-c name=value), e.g. shared_buffers.
      const startParams = [...PGlite.defaultStartParams, ...Object.entries(m.settings ?? {}).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
      db = m.dataDir === null ? new PGlite({ startParams }) : new PGlite(m.dataDir, { relaxedDurability: false, startParams });
      await db.waitReady;
      // Prepared statements (the commit's few shapes) use one generic plan instead of planning each execution.
      await db.exec('SET plan_cache_mode = force_generic_plan');
      return { rows: [], affected: 0 };
    }
    case 'query': {
      if (m.prepare) return preparedQuery(m.sql, m.params);
      const r = await db.query(m.sql, m.params);
      return { rows: r.rows, affected: r.affectedRows ?? r.rows.length };
    }
    case 'exec': {
      await db.exec(m.sql);
      if (/^\s*BEGIN\b/i.test(m.sql)) inTx = true;
      else if (/^\s*(COMMIT|ROLLBACK)\b/i.test(m.sql)) inTx = false;
      return { rows: [], affected: 0 };
    }
    case 'close': {
      await db?.close();
      db = null;
      return { rows: [], affected: 0 };
    }
    default:
      throw new Error(`pglite-worker: unknown op ${String(m.op)}`);
  }
}

port.on('message', (m) => {
  chain = chain.then(async () => {
    try {
      const r = await handle(m);
      port.postMessage({ id: m.id, ok: true, rows: r.rows, affected: r.affected });
    } catch (e) {
      port.postMessage({ id: m.id, ok: false, error: errorOf(e) });
    }
  });
});
