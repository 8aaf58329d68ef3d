// How the PGlite driver shares its one connection (#12, 500 sockets): plain queries go to the worker at once and run
// there one at a time in the order they were asked; a transaction keeps every other query out from BEGIN to its end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './db.js';
import { openPglite } from './pglite.js';

let db: Db;
beforeAll(async () => {
  db = await openPglite(null);
  await db.query('CREATE TABLE seen (n int NOT NULL, at serial PRIMARY KEY)');
}, 120_000);
afterAll(async () => {
  await db.close();
});

const numbers = async (): Promise<number[]> => (await db.query<{ n: number }>('SELECT n FROM seen ORDER BY at')).rows.map((r) => r.n);

describe('the PGlite connection queue', () => {
  it('runs queries asked at once in the order they were asked, and a failing one does not stop the rest', async () => {
    await db.query('DELETE FROM seen');
    const asked = Array.from({ length: 200 }, (_, i) =>
      i === 100 ? db.query('INSERT INTO nowhere VALUES (1)') : db.query('INSERT INTO seen (n) VALUES ($1)', [i]));
    const settled = await Promise.allSettled(asked);
    expect(settled.filter((s) => s.status === 'rejected').length).toBe(1);
    expect(settled[100]?.status).toBe('rejected');
    expect(await numbers()).toEqual(Array.from({ length: 200 }, (_, i) => i).filter((i) => i !== 100));
  }, 60_000);

  it('keeps a query asked during a transaction out of it: it runs after the transaction, and a rollback does not undo it', async () => {
    await db.query('DELETE FROM seen');
    const order: string[] = [];
    let outside: Promise<unknown> | undefined;
    const tx = db.tx(async (q) => {
      await q.query('INSERT INTO seen (n) VALUES (1)');
      outside = db.query('INSERT INTO seen (n) VALUES (2)').then(() => order.push('outside'));
      await q.query('INSERT INTO seen (n) VALUES (3)');
      order.push('tx body done');
      throw new Error('roll back');
    });
    await expect(tx).rejects.toThrow('roll back');
    await outside;
    expect(order).toEqual(['tx body done', 'outside']);
    expect(await numbers()).toEqual([2]);
  }, 60_000);

  it('runs transactions one after the other, and queries asked between them in their place', async () => {
    await db.query('DELETE FROM seen');
    const all = [
      db.tx(async (q) => {
        await q.query('INSERT INTO seen (n) VALUES (1)');
        await q.query('INSERT INTO seen (n) VALUES (2)');
      }),
      db.query('INSERT INTO seen (n) VALUES (3)'),
      db.tx(async (q) => {
        await q.query('INSERT INTO seen (n) VALUES (4)');
        await q.query('INSERT INTO seen (n) VALUES (5)');
      }),
      db.query('INSERT INTO seen (n) VALUES (6)'),
    ];
    await Promise.all(all);
    expect(await numbers()).toEqual([1, 2, 3, 4, 5, 6]);
  }, 60_000);
});
