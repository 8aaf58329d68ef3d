// Generic lines the scripted brain says when the story has no authored line for the case.
import type { PlayLanguage } from '../schema/enums.js';
import { fillTemplate } from '../story/template.js';

const TEXTS = {
  branch: { english: 'So be it: {label}.', french: 'Soit : {label}.' },
  reward: { english: 'It is yours: {name}.', french: 'C\'est à vous : {name}.' },
  nothing_left: { english: 'You already have everything I could give.', french: 'Vous avez déjà tout ce que je pouvais offrir.' },
  equip: { english: '{item} now belongs to {character}.', french: '{item} appartient désormais à {character}.' },
  nothing_to_equip: { english: 'You have nothing to equip yet.', french: 'Vous n\'avez encore rien à équiper.' },
  equip_ask: { english: 'Which item, and for whom?', french: 'Quel objet, et pour qui ?' },
  team: { english: '{names}: {count} of {required}.', french: '{names} : {count} sur {required}.' },
  team_ask: { english: 'Who will you take? I need {required}.', french: 'Qui emmenez-vous ? Il en faut {required}.' },
  attack: { english: '{actor} strikes {target}!', french: '{actor} frappe {target} !' },
  attack_ask: { english: 'Who attacks, and whom?', french: 'Qui attaque, et qui ?' },
  defend: { english: '{actor} holds firm!', french: '{actor} tient bon !' },
  defend_miss: { english: 'No guard! The blow lands.', french: 'Aucune garde ! Le coup porte.' },
  bet_ask: { english: 'Name a character, a difficulty and your bet.', french: 'Nommez un personnage, une difficulté et votre mise.' },
  right: { english: 'Correct!', french: 'Exact !' },
  wrong: { english: 'Not quite.', french: 'Pas tout à fait.' },
  fallback: { english: 'I do not understand.', french: 'Je ne comprends pas.' },
} as const;

export type BrainText = keyof typeof TEXTS;

export function brainSay(key: BrainText, lang: PlayLanguage, vars?: Record<string, string | number>): string {
  const s: string = TEXTS[key][lang];
  return vars ? fillTemplate(s, vars) : s;
}
