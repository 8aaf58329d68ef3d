// The database's list of moment types (the CHECK constraints of the migrations, which SQL cannot import) is the
// registry's: a type added to engine/moments/ without its migration fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MOMENTS } from './registry.js';

const MIGRATIONS = join(import.meta.dirname, '../../supabase/migrations');

describe('the moment_type CHECK lists', () => {
  it('name exactly the registered moment types, in every table that has one', () => {
    const lists: string[][] = [];
    for (const f of readdirSync(MIGRATIONS).filter((x) => x.endsWith('.sql')).sort()) {
      const sql = readFileSync(join(MIGRATIONS, f), 'utf8');
      for (const m of sql.matchAll(/CHECK \(moment_type IN \(([^)]*)\)\)/g)) lists.push([...(m[1] ?? '').matchAll(/'([^']*)'/g)].map((x) => x[1] ?? ''));
    }
    expect(lists.length).toBeGreaterThanOrEqual(2);
    for (const l of lists) expect([...l].sort()).toEqual(Object.keys(MOMENTS).sort());
  });
});
