// vitest sequencer: the test files that take longest start first, so that with more than one worker no long file
// starts last and runs alone at the end. A clean clone (CI) has no vitest results cache, so the seconds come from
// file-durations.json (written by scripts/test-durations.ts from a full run's output); a file it does not list (a
// new one) takes vitest's own cached duration if there is one, else a small default, and ties keep vitest's order.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds assumed for a file with no measure: most unlisted files are unit tests of a few seconds at most. */
const UNKNOWN_SECONDS = 5;

function measured(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(join(import.meta.dirname, 'file-durations.json'), 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const table = measured();
    const base = await super.sort(files);
    const root = this.ctx.config.root;
    const seconds = (spec: TestSpecification): number => {
      const path = relative(root, spec.moduleId);
      const listed = table[path];
      if (listed !== undefined) return listed;
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`)?.duration;
      return cached !== undefined ? cached / 1000 : UNKNOWN_SECONDS;
    };
    const order = new Map(base.map((spec, i) => [spec, { s: seconds(spec), i }]));
    return base.sort((a, b) => {
      const x = order.get(a);
      const y = order.get(b);
      return (y?.s ?? 0) - (x?.s ?? 0) || (x?.i ?? 0) - (y?.i ?? 0);
    });
  }
}
