import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrationFiles } from './migrate.js';

describe('the migration files', () => {
  it('live in supabase/migrations with distinct, ordered versions', () => {
    const files = migrationFiles();
    expect(files.length).toBeGreaterThanOrEqual(3);
    expect(files.map((m) => m.version)).toEqual([...new Set(files.map((m) => m.version))].sort());
    expect(files[0]).toMatchObject({ version: '0001', name: 'core', file: '0001_core.sql' });
  });

  it('are not left in the old folder, where nothing applies them', () => {
    expect(readdirSync(join(import.meta.dirname, 'migrations')).filter((f) => f.endsWith('.sql'))).toEqual([]);
  });

  it('are each one statement (PGlite runs a file as one query): a single DO block', () => {
    for (const m of migrationFiles()) {
      const code = m.sql.replace(/^--.*$/gm, '').trim();
      expect(code.startsWith('DO $migration$'), m.file).toBe(true);
      expect(code.endsWith('$migration$;'), m.file).toBe(true);
    }
  });
});
