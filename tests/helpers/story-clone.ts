// A fixture story under new ids: every UUID in its file replaced by a fresh one (the same old id always by the same
// new one), so a test can create, edit and publish its own copy without touching the fixture's rows.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

export function cloneFixtureStory(name: string, rename?: string): Record<string, unknown> {
  const text = readFileSync(join(import.meta.dirname, '../../fixtures/stories', name, 'story.json'), 'utf8');
  const ids = new Map<string, string>();
  const out = JSON.parse(text.replace(UUID, (id) => {
    let n = ids.get(id.toLowerCase());
    if (!n) {
      n = randomUUID();
      ids.set(id.toLowerCase(), n);
    }
    return n;
  })) as Record<string, unknown>;
  if (rename) out.name = rename;
  return out;
}
