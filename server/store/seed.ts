// Seeding: at first start, import every story of a folder (one sub-folder per story holding story.json). The
// deliberately broken fixture, and any file that does not parse, is skipped with a warning.
// Crash-safe: each story is imported in its own transaction, and only stories missing from the catalogue are, until
// one start has gone through the whole folder; then a marker (server_settings 'seed.stories_done') says so, and later
// starts leave the catalogue alone (a story an admin removed stays removed). A kill -9 half-way leaves no marker, so the
// next start imports what is still missing.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Story } from '../../engine/story/format.js';
import { storyFileSizeProblem, storyJsonProblem } from '../../engine/story/limits.js';
import type { StoryRepo } from './stories.js';

export type SeedLog = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
};

const SKIPPED = new Set(['broken']);
export const SEED_DONE_KEY = 'seed.stories_done';

export async function seedStories(repo: StoryRepo, dir: string, log: SeedLog): Promise<{ imported: string[] }> {
  const imported: string[] = [];
  if (await repo.setting(SEED_DONE_KEY)) return { imported };
  if (!existsSync(dir)) {
    log.warn({ dir }, 'stories folder not found: nothing seeded');
    return { imported };
  }
  const folders = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  for (const folder of folders) {
    const file = join(dir, folder, 'story.json');
    if (SKIPPED.has(folder) || !existsSync(file)) continue;
    const tooLarge = storyFileSizeProblem(statSync(file).size);
    if (tooLarge) {
      log.warn({ file, problem: tooLarge }, 'story file is too large: skipped');
      continue;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    } catch (e) {
      log.warn({ file, err: e instanceof Error ? e.message : String(e) }, 'story file is not valid JSON: skipped');
      continue;
    }
    const limit = storyJsonProblem(raw);
    if (limit) {
      log.warn({ file, problem: limit.message }, 'story file does not parse: skipped');
      continue;
    }
    const parsed = Story.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      log.warn({ file, problem: issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid' }, 'story file does not parse: skipped');
      continue;
    }
    if (await repo.exists(parsed.data.id)) continue;
    await repo.importStory(parsed.data, raw);
    imported.push(parsed.data.id);
    log.info({ file, story_id: parsed.data.id, name: parsed.data.name }, 'story seeded');
  }
  await repo.setSetting(SEED_DONE_KEY, new Date().toISOString());
  return { imported };
}
