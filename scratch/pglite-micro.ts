import { PGlite } from '@electric-sql/pglite';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
for (const mode of ['mem', 'disk']) {
  const db = mode === 'mem' ? new PGlite() : new PGlite(join(mkdtempSync(join(tmpdir(), 'pm-')), 'p'), { relaxedDurability: false });
  await db.waitReady;
  await db.exec('CREATE TABLE t (id int primary key, v text)');
  const bench = async (name: string, n: number, fn: (i: number) => Promise<unknown>) => {
    for (let i = 0; i < 50; i++) await fn(-i - 1);
    const c0 = process.cpuUsage(); const t0 = performance.now();
    for (let i = 0; i < n; i++) await fn(i);
    const c = process.cpuUsage(c0);
    console.log(`${mode} ${name}: wall ${((performance.now() - t0) / n * 1000).toFixed(0)} us, cpu ${((c.user + c.system) / n).toFixed(0)} us`);
  };
  await bench('query SELECT 1', 2000, () => db.query('SELECT 1'));
  await bench('query SELECT $1', 2000, (i) => db.query('SELECT $1::int', [i]));
  await bench('exec SELECT 1', 2000, () => db.exec('SELECT 1'));
  await bench('exec 5x SELECT 1', 1000, () => db.exec('SELECT 1; SELECT 1; SELECT 1; SELECT 1; SELECT 1'));
  await bench('query upsert', 2000, (i) => db.query('INSERT INTO t VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v', [i % 100, 'x'.repeat(100)]));
  await bench('tx 5 upserts', 500, (i) => db.transaction(async (t) => { for (let k = 0; k < 5; k++) await t.query('INSERT INTO t VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v', [(i * 5 + k) % 100, 'x'.repeat(100)]); }));
  await bench('exec tx 5 upserts', 500, (i) => db.exec(`BEGIN; ${[0,1,2,3,4].map((k) => `INSERT INTO t VALUES (${(Math.abs(i) * 5 + k) % 100}, '${'x'.repeat(100)}') ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v;`).join(' ')} COMMIT;`));
  await bench('query 10KB json', 1000, (i) => db.query('INSERT INTO t VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v', [i % 100, JSON.stringify({ a: 'y'.repeat(10000) })]));
  await db.close();
}
