// `looptale serve` opened its database only after the whole server had loaded (serve.ts imported server/main.ts, and
// with it every route, the voice and media code, up front), so a restart (a crash, a deploy, test:load's kill -9) paid
// PGlite's start and the module loading one after the other. The database now starts opening first, in its worker
// thread, while the rest of the server loads. This checks the order, with the database and the server faked.
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';

const order: string[] = [];
const fakeDb = { kind: 'pglite' };

vi.mock('../../server/db/open.js', () => ({
  openDb: vi.fn(() => {
    order.push('open the database');
    return Promise.resolve(fakeDb);
  }),
}));

vi.mock('../../server/main.js', () => {
  order.push('load the server');
  return {
    startServer: vi.fn(async (_config: unknown, _log: unknown, opts: { db?: Promise<unknown> } = {}) => {
      order.push(`start with ${opts.db ? 'the opening database' : 'no database'}`);
      expect(await opts.db).toBe(fakeDb);
      return { url: 'http://127.0.0.1:1', services: { db: fakeDb }, close: () => Promise.resolve() };
    }),
  };
});

// serve stops on SIGTERM/SIGINT: remove only the listeners it added.
const before = { SIGTERM: process.listeners('SIGTERM'), SIGINT: process.listeners('SIGINT') };
afterEach(() => {
  for (const sig of ['SIGTERM', 'SIGINT'] as const) for (const l of process.listeners(sig)) if (!before[sig].includes(l)) process.off(sig, l);
});

describe('looptale serve', () => {
  it('opens the database before it loads the rest of the server, and hands the opening database to it', async () => {
    const { register } = await import('./serve.js');
    expect(order).toEqual([]);
    const program = new Command().exitOverride();
    register(program);
    await program.parseAsync(['node', 'looptale', 'serve', '--port', '0', '--data-dir', '/nonexistent-never-opened']);
    expect(order).toEqual(['open the database', 'load the server', 'start with the opening database']);
  });
});
