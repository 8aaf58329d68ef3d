// The canon check: an LLM decision may only name what the story and the player's state hold. Ids are checked exactly
// against the lists the model was given (context.ts). Names in the reply are checked with a deliberately simple
// heuristic, so it stays predictable:
//   a word is a suspect name when it starts with a capital letter followed by lower-case letters, does not start a
//   sentence (start of text, or after . ! ? … : ; a line break or an opening quote/dash), and is none of: a word of
//   any text of the story (names, aliases, item and place names, every authored line, goal, hint, description), a
//   name in the player's state (cards and items from other stories), a word the player just said, or a common word
//   that is capitalised mid-sentence anyway (I, titles such as Captain or Madame, days, months, God).
// A suspect name counts as an invented character, item or place. It errs towards refusing: the scripted brain's
// authored answer is always a safe fallback.
import type { Decision } from '../../engine/brain/decision.js';
import type { Story } from '../../engine/story/format.js';
import type { TurnContext } from './context.js';

const COMMON = new Set([
  'mr', 'mrs', 'ms', 'miss', 'sir', 'madam', 'lady', 'lord', 'captain', 'doctor', 'dr', 'master', 'mister', 'father', 'mother',
  'grandpa', 'grandma', 'god', 'heaven', 'heavens', 'ok', 'okay', 'monsieur', 'madame', 'mademoiselle', 'maître', 'dieu', 'ciel',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'january', 'february', 'march', 'april', 'may',
  'june', 'july', 'august', 'september', 'october', 'november', 'december', 'english', 'french', 'christmas', 'noël',
]);

const WORD = /\p{L}[\p{L}\p{M}'’-]*/gu;
const SENTENCE_END = /[.!?…:;\n]$/u;
const OPENERS = /[\s"'“”«»‘’([{—–-]+$/u;

function words(text: string): string[] {
  return (text.match(WORD) ?? []).flatMap((w) => w.toLowerCase().split(/['’-]/u)).filter(Boolean);
}

const vocabularies = new WeakMap<Story, Set<string>>();

/** Every word of every text of the story, lower-cased (built once per story). */
function storyVocabulary(story: Story): Set<string> {
  let v = vocabularies.get(story);
  if (!v) {
    v = new Set<string>();
    // The story file holds every name and line the story has: any string in it is canon.
    const walk = (x: unknown): void => {
      if (typeof x === 'string') {
        if (!/^[0-9a-f-]{36}$/i.test(x) && !/^[a-z]+:\/\//i.test(x)) for (const w of words(x)) v?.add(w);
      } else if (Array.isArray(x)) x.forEach(walk);
      else if (x && typeof x === 'object') Object.values(x).forEach(walk);
    };
    walk(story);
    vocabularies.set(story, v);
  }
  return v;
}

/** Capitalised words of the reply that name nothing of the story (see the heuristic above). */
export function inventedNames(reply: string, ctx: TurnContext, playerLine: string): string[] {
  const known = storyVocabulary(ctx.story);
  const local = new Set([
    ...words(playerLine),
    ...ctx.characters.flatMap((c) => words(c.name)),
    ...ctx.items.flatMap((i) => words(i.name)),
    ...ctx.opponents.flatMap((o) => words(o.name)),
  ]);
  const found: string[] = [];
  for (const m of reply.matchAll(WORD)) {
    const w = m[0];
    if (!/^\p{Lu}\p{Ll}/u.test(w)) continue; // lower-case, single letters (I, A) and ALL CAPS emphasis are not names
    const before = reply.slice(0, m.index).replace(OPENERS, '');
    if (before === '' || SENTENCE_END.test(before)) continue;
    const parts = w.toLowerCase().split(/['’-]/u).filter((p) => p.length > 1);
    const unknown = parts.filter((p) => !known.has(p) && !local.has(p) && !COMMON.has(p));
    // Possessives ("Nell's") are judged on their name part: one-letter parts are dropped above.
    if (unknown.length > 0) found.push(w);
  }
  return [...new Set(found)];
}

/** The first canon violation of a decision, or null when it names only what it was given. */
export function canonViolation(d: Decision, ctx: TurnContext, playerLine: string): string | null {
  const a = ctx.allowed;
  if (d.next_moment_id !== undefined && !a.next_moment_ids.has(d.next_moment_id)) return `next_moment_id ${d.next_moment_id} is not a transition of this moment`;
  if (d.battle) {
    if (d.battle.actor_id !== undefined && !a.battle_actor_ids.has(d.battle.actor_id)) return `battle.actor_id ${d.battle.actor_id} is not in the team`;
    if (d.battle.target_id !== undefined && !a.battle_target_ids.has(d.battle.target_id)) return `battle.target_id ${d.battle.target_id} is not an opponent`;
  }
  if (d.equip) {
    if (!a.equip_character_ids.has(d.equip.character_id)) return `equip.character_id ${d.equip.character_id} is not one of the player's characters`;
    if (!a.item_ids.has(d.equip.item_id)) return `equip.item_id ${d.equip.item_id} is not one of the player's items`;
  }
  if (d.award && !a.awards.has(`${d.award.reward_type}:${d.award.id}`)) return `award ${d.award.reward_type} ${d.award.id} is not a reward of this moment`;
  for (const id of d.selection ?? []) if (!a.selection_ids.has(id)) return `selection id ${id} is not one of the player's characters`;
  if (d.upgrade?.stage === 'bet') {
    if (d.upgrade.character_id !== undefined && !a.upgrade_character_ids.has(d.upgrade.character_id)) return `upgrade.character_id ${d.upgrade.character_id} is not in the team`;
    if (d.upgrade.level !== undefined && !a.upgrade_levels.has(d.upgrade.level)) return `upgrade.level ${d.upgrade.level} is not a difficulty of this moment`;
  }
  const names = inventedNames(d.reply, ctx, playerLine);
  if (names.length > 0) return `the reply names ${names.map((n) => `"${n}"`).join(', ')}, not in the story`;
  return null;
}
