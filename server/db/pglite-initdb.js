// Creates a new PGlite data directory (initdb) and exits: `node pglite-initdb.js <dir>`. server/db/pglite.ts runs it in
// a short-lived child process before its worker opens the directory, because PGlite keeps the memory initdb used
// (a second PostgreSQL instance and the initdb program, ~450 MB RSS) for as long as the database stays open in the
// process that created it; a child process gives all of it back when it exits. Plain JavaScript, started without the
// TypeScript loader (as pglite-worker.js). The server sets shared_buffers again at every start (PGLITE_SHARED_BUFFERS);
// the small value here only keeps this process's own peak down.
import { PGlite } from '@electric-sql/pglite';

const dir = process.argv[2];
if (!dir) {
  process.stderr.write('usage: node pglite-initdb.js <data-dir>\n');
  process.exit(2);
}
const db = new PGlite(dir, {
  relaxedDurability: false,
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'],
  initDbStartParams: ['--set', 'shared_buffers=16MB'],
});
await db.waitReady;
await db.close();
