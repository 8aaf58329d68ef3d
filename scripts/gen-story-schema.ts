// Writes engine/story/story.schema.json (JSON Schema 2020-12) from the `Story` zod schema, so that editors complete
// and check story files that name it in "$schema". Run `npm run story:schema` after changing engine/story/format.ts;
// engine/story/schema-file.test.ts fails while the committed file is stale.
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { MOMENT_MODULES } from '../engine/moments/registry.js';
import { UUID_V4_RE, UuidV4 } from '../engine/schema/ids.js';
import {
  AnswerRule, BattleOpponent, BattleVerbs, BlueprintCharacter, BlueprintItem, BlueprintMoment, BlueprintPlace,
  BlueprintReward, Catalogue, DynamicReward, Media, Phrases, Story, Transition, UpgradeRules, Voice,
} from '../engine/story/format.js';
import { Text } from '../engine/story/text.js';

export const STORY_SCHEMA_PATH = fileURLToPath(new URL('../engine/story/story.schema.json', import.meta.url));

/** Named definitions ($defs) instead of the same sub-schema inlined at every use. */
const DEFS: [z.ZodType, string, string][] = [
  [UuidV4, 'UuidV4', 'A random version-4 UUID, unique within the file.'],
  [Text, 'Text', 'Authored text: en, and fr for French players (a story ready to play has both).'],
  [Phrases, 'Phrases', 'What the player may say, per language: each phrase is a few words that must all be heard.'],
  [Media, 'Media', 'An image or video, by URL relative to the story file.'],
  [Voice, 'Voice', 'Speech synthesis settings (espeak-ng variant, pitch, rate).'],
  [BlueprintCharacter, 'Character', 'A character: speaker, team member or opponent.'],
  [BlueprintItem, 'Item', 'An item the player can own and equip.'],
  [BlueprintPlace, 'Place', 'A place, used as a moment background.'],
  [Transition, 'Transition', 'An edge to another moment; at a Crossroad a branch the player names.'],
  [DynamicReward, 'DynamicReward', 'An item made on the spot by a dynamic_item reward.'],
  [BlueprintReward, 'Reward', 'What a Reward moment can give.'],
  [BattleOpponent, 'BattleOpponent', 'A character fought in a Battle, with optional overrides.'],
  [AnswerRule, 'AnswerRule', 'A rule of the scripted brain: what the player may say and what happens then.'],
  [UpgradeRules, 'UpgradeRules', 'Difficulties, riddles and bets of an Upgrade moment.'],
  [BlueprintMoment, 'Moment', 'One moment of the story: the member of its type, told apart by "type".'],
  ...MOMENT_MODULES.map((m): [z.ZodType, string, string] => [m.schema, `${m.type.replace(' ', '')}Moment`, `${m.type}: ${m.description}`]),
  [Catalogue, 'Catalogue', 'How the story is shown in the catalogue.'],
  [BattleVerbs, 'BattleVerbs', 'Attack, defence and style words for battles.'],
];

/** The JSON Schema text, exactly as committed (2-space indent, final newline). */
export function storySchemaText(): string {
  const registry = z.registry<{ id: string; description: string }>();
  for (const [schema, id, description] of DEFS) registry.add(schema, { id, description });
  const generated = z.toJSONSchema(Story, {
    io: 'input',
    metadata: registry,
    unrepresentable: 'throw',
    override: (ctx) => {
      // JSON Schema patterns have no flags; zod matches UUIDs case-insensitively, so spell both cases out.
      if (ctx.zodSchema === UuidV4) ctx.jsonSchema.pattern = UUID_V4_RE.source.replace(/a-f/g, 'a-fA-F').replace('[89ab]', '[89abAB]');
    },
  });
  const { $schema, ...rest } = generated;
  const doc = {
    $schema,
    $id: 'urn:looptale:story-format:1',
    title: 'Looptale story',
    description: 'One Looptale story file (format_version 1). Generated from engine/story/format.ts by `npm run story:schema`; do not edit by hand.',
    ...rest,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(STORY_SCHEMA_PATH, storySchemaText());
  console.log(`wrote ${STORY_SCHEMA_PATH}`);
}
