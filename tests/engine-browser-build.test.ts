// engine/ builds for the browser as it is: every source module bundled with esbuild for platform browser, no Node
// shims, nothing external, and no Node global in the result.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildEngineForBrowser } from '../scripts/build-engine-browser.js';

describe('engine/ in the browser', () => {
  it('bundles every engine module for the browser with no Node shims', async () => {
    const r = await buildEngineForBrowser();
    expect(r.errors).toEqual([]);
    expect(r.nodeGlobals).toEqual([]);
    expect(r.modules).toBeGreaterThan(80);
    expect(r.bytes).toBeGreaterThan(50_000);
  });

  it('bundles the local game host alone for the browser (the studio loads it lazily, with no server)', async () => {
    const r = await buildEngineForBrowser([join(import.meta.dirname, '../engine/client/host/local-host.ts')]);
    expect(r.errors).toEqual([]);
    expect(r.nodeGlobals).toEqual([]);
    expect(r.bytes).toBeGreaterThan(50_000);
  });
});
