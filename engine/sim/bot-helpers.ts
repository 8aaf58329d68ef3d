// What the bots' moves are made of: words joined flat, a phrase in the language played, the strongest of the team,
// a character's style word. Used by bots.ts and by each moment type's bot move (engine/moments/).
import type { Random } from '../random.js';
import { LANG_CODE, type PlayLanguage } from '../schema/enums.js';
import type { PlayerCharacter } from '../schema/player.js';
import { equippedItemsOf, type GameState } from '../run/state.js';
import type { Phrases, Story } from '../story/format.js';

/**
 * Words joined by spaces into one flat string. Joined with + or a template, a string is a rope, and V8 compares and
 * hashes ropes by walking their pieces each time: the brain looks the words up in several caches every turn.
 */
export function words(...parts: string[]): string {
  return parts.join(' ');
}

export function say(p: Phrases | undefined, lang: PlayLanguage, r: Random | null = null): string {
  if (!p) return '';
  const list = LANG_CODE[lang] === 'fr' ? (p.fr ?? p.en) : p.en;
  return r ? r.pick(list) : (list[0] ?? '');
}

const power = (s: GameState, c: PlayerCharacter): number =>
  c.current_attack + equippedItemsOf(s, c.id).reduce((n, i) => n + i.attack_bonus, 0) + c.current_health / 10;

/** Strongest first (a stable sort: equals keep their order); each power is computed once. */
export function strongest(s: GameState, list: PlayerCharacter[]): PlayerCharacter[] {
  if (list.length < 2) return [...list];
  const powers = new Map<PlayerCharacter, number>();
  for (const c of list) if (!powers.has(c)) powers.set(c, power(s, c));
  return [...list].sort((a, b) => (powers.get(b) as number) - (powers.get(a) as number));
}

/** strongest(s, list)[0] without sorting: the first of the strongest, in list order. */
export function strongestOne(s: GameState, list: PlayerCharacter[]): PlayerCharacter | undefined {
  let best: PlayerCharacter | undefined;
  let bestPower = 0;
  for (const c of list) {
    const p = power(s, c);
    if (best === undefined || p > bestPower) {
      best = c;
      bestPower = p;
    }
  }
  return best;
}

export function styleWord(story: Story, c: PlayerCharacter | undefined, lang: PlayLanguage): string {
  const tags = story.characters.find((x) => x.id === c?.blueprint_character_id)?.style_tags ?? [];
  const style = story.battle_verbs?.styles.find((s) => tags.includes(s.tag));
  return style ? say(style.match, lang) : '';
}
