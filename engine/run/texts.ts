// The few lines the engine itself says (everything else is authored in the story).
import type { PlayLanguage } from '../schema/enums.js';
import { fillTemplate } from '../story/template.js';

const TEXTS = {
  prepares_to_strike: { english: '{opponent} prepares to strike {target}!', french: '{opponent} s\'apprête à frapper {target} !' },
  strike: { english: 'strike', french: 'frappe' },
  perfect: { english: 'Perfect answer!', french: 'Réponse parfaite !' },
  free: { english: 'Free!', french: 'Gratuit !' },
  riddle: { english: 'Here is your riddle', french: 'Voici votre énigme' },
  upgrade_pending: { english: 'Choose a character, a difficulty and a bet', french: 'Choisissez un personnage, une difficulté et une mise' },
  sacrificed: { english: 'Properties sacrificed: {properties}', french: 'Propriétés sacrifiées : {properties}' },
  card_upgraded: { english: 'Upgraded to {card_type}: +{attack} attack, +{health} health', french: 'Améliorée en {card_type} : +{attack} attaque, +{health} santé' },
  sacrificed_item: { english: 'Essence of {name}', french: 'Essence de {name}' },
} as const;

export type TextKey = keyof typeof TEXTS;

export function say(key: TextKey, language: PlayLanguage, vars?: Record<string, string | number>): string {
  const s: string = TEXTS[key][language];
  return vars ? fillTemplate(s, vars) : s;
}
