// Worker-thread side of server/db/pglite.ts: the embedded PostgreSQL (PGlite, WASM) runs here, so its query execution
// and file I/O never block the server's event loop. Plain JavaScript: Node starts it as is, without the TypeScript
// loader (a worker does not inherit it, and it would cost start-up time and memory for a few lines).
// Messages: { id, op: 'open', dataDir } | { id, op: 'query', sql, params } | { id, op: 'exec', sql } | { id, op: 'close' }.
// Each gets exactly one reply { id, ok: true, rows, affected } or { id, ok: false, error } (error: message, name and
// the database's fields such as code and detail). Requests are served one at a time, in order.
import { parentPort } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const port = parentPort;
if (!port) throw new Error('pglite-worker.js must run in a worker thread');

/** @type {PGlite | null} */
let db = null;
let chain = Promise.resolve();

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
      db = m.dataDir === null ? new PGlite() : new PGlite(m.dataDir, { relaxedDurability: false });
      await db.waitReady;
      return { rows: [], affected: 0 };
    }
    case 'query': {
      const r = await db.query(m.sql, m.params);
      return { rows: r.rows, affected: r.affectedRows ?? r.rows.length };
    }
    case 'exec': {
      await db.exec(m.sql);
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
