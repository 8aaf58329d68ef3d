// Texts of the game screen, shared by the CLI (plain printer, Ink) and the web app: no I/O, no ANSI codes.
import { remainingInteractions } from '../../catalogue/display.js';
import { rankToLetter } from '../../catalogue/rank-letter.js';
import type { AwardSource, Language } from '../../schema/enums.js';
import { MAX_TRANSCRIPTION_CHARS } from '../../protocol/user-input.js';
import type { BattleAction } from '../../schema/player.js';
import type { GameOutput, OutputOpponent } from '../../schema/game-output.js';
import type { AvailableItem, GameView } from '../../schema/views.js';
import type { TeamCard } from './model.js';

const LOCALES: Record<Language, string> = { english: 'en-GB', french: 'fr-FR', spanish: 'es-ES' };

/**
 * The moment date as the start screen shows it ('3 October 1894 at 18:40', '3 octobre 1894 à 18:40'). Story dates
 * are wall-clock times without a zone, so they are read and formatted as UTC to keep them as written.
 */
export function momentDateText(date: string, language: Language): string {
  const m = /^(\d{1,6})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/.exec(date.trim());
  if (!m) return date;
  const [, y, mo, d, h, mi] = m;
  const t = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0)));
  t.setUTCFullYear(Number(y)); // Date.UTC maps years 0-99 to 1900-1999
  const withTime = h !== undefined;
  return new Intl.DateTimeFormat(LOCALES[language], { dateStyle: 'long', ...(withTime ? { timeStyle: 'short' } : {}), timeZone: 'UTC' }).format(t);
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * Who speaks in a moment. The game view names no speaker, only the speaker's images; a story's character images are
 * named after the character ('images/character-ysolde.svg'), so the file name is matched against the team's names
 * and otherwise shown as it is ('Ysolde'). Null when nothing tells (the CLI then prints the line without a name).
 */
export function speakerName(view: Pick<GameView, 'character_image_details' | 'enrolled_characters'> | null): string | null {
  const url = view?.character_image_details[0]?.media_url;
  if (!url) return null;
  const file = decodeURIComponent(url.split(/[?#]/)[0]?.split('/').pop() ?? '').replace(/\.[a-z0-9]+$/i, '');
  const words = file.split(/[-_\s.]+/).filter((w) => w && !/^(character|char|portrait|avatar|image|img|team|card|\d+)$/i.test(w));
  const first = words[0];
  if (!first) return null;
  const known = view.enrolled_characters.find((c) => c.character_name.toLowerCase().split(/\s+/).includes(first.toLowerCase()));
  return known?.character_name.split(/\s+/)[0] ?? capitalise(first);
}

/** The speaker as a player reads it: the name alone ('Nell'); the emotion is the voice's and the portrait's business. */
export function speakerText(name: string | null): string {
  return name ?? 'Character';
}

/** 'Nell (happiness, 3)': the CLI's line, with the emotion unless it is the plain default (normal). */
export function speakerLabel(name: string | null, emotion: string, intensity: number): string {
  const who = speakerText(name);
  return emotion === 'normal' ? who : `${who} (${emotion}, ${intensity})`;
}

/** The player's caption for an answer the game did not catch (its words were not heard). */
export const NOT_CAUGHT_CAPTION = 'Not caught';

/**
 * The character's line of an output. A miss speaks "Sorry, I didn't catch that." and then its hint; the hint shows in
 * a box of its own (with the choices), so the line keeps only the apology.
 */
export function characterLineText(o: Pick<GameOutput, 'dialogue' | 'not_caught'>): string {
  const hint = o.not_caught?.hint.trim();
  if (!hint) return o.dialogue;
  const at = o.dialogue.lastIndexOf(hint);
  return at < 0 ? o.dialogue : `${o.dialogue.slice(0, at)}${o.dialogue.slice(at + hint.length)}`.trim();
}

/** 'Run 1 · The Keeper's Log · Learn', the prefix of plain-mode lines. */
export function momentTag(view: Pick<GameView, 'loop_number' | 'moment_name' | 'moment_type'> | null): string {
  if (!view) return '';
  return `Run ${view.loop_number} · ${view.moment_name} · ${view.moment_type}`;
}

export function cardText(c: TeamCard): string {
  const parts = [`HP ${c.health}/${c.maxHealth}`, `ATK ${c.attack}`, c.cardType];
  if (c.items.length) parts.push(`equipped: ${c.items.join(', ')}`);
  if (c.burnedOut) parts.push('burned out');
  return `${c.name} (${parts.join(', ')})`;
}

export function itemText(i: AvailableItem): string {
  const bonus = [
    i.available_item_attack_bonus ? `ATK +${i.available_item_attack_bonus}` : '',
    i.available_item_defense_bonus ? `DEF +${i.available_item_defense_bonus}` : '',
    ...i.available_item_properties,
  ].filter(Boolean);
  return bonus.length ? `${i.available_item_name} (${bonus.join(', ')})` : i.available_item_name;
}

export function opponentText(o: OutputOpponent): string {
  // The game view gives no attack; it shows once the battle's first output brings it.
  return `${o.opponent_name} (HP ${Math.max(0, o.current_health)}/${o.base_health}${o.current_attack ? `, ATK ${o.current_attack}` : ''})`;
}

export function battleActionText(a: BattleAction): string {
  // `action` holds the words of the order ('Ferrule, crush the Margravine!') or the AI's verb: the arrow says who hit whom.
  const extra = [`${a.damage} damage`, a.recoil_damage ? `${a.recoil_damage} recoil` : '', a.was_thematic ? 'thematic' : ''].filter(Boolean);
  return `${a.actor_name} → ${a.target_name} (${extra.join(', ')})`;
}

export function remainingText(max: number, current: number): string {
  return `${remainingInteractions(max, current)} / ${max}`;
}

export function rankText(rank: number | null): string {
  return `Rank ${rankToLetter(rank ?? 7)}`;
}

/** What each kind of award is called on its card (game spec §3's award sources, in the player's words). */
export const AWARD_SOURCE_TEXT: Record<AwardSource, string> = {
  character: 'New character',
  item: 'New item',
  dynamic_item: 'New item',
  upgrade: 'Upgrade',
  perfect_answer: 'Perfect answer',
  free: 'Free!',
  sacrificed_properties: 'Properties sacrificed',
  rank_achieved: 'Rank reward',
};

/** An award as its card shows it: what kind of award (`label`) and what it gave (`text`, empty when unnamed). */
export function awardCard(o: GameOutput, items: readonly AvailableItem[]): { label: string; text: string } | null {
  if (!o.is_awarded || o.award_type === '') return null;
  const character = o.player_characters.find((c) => c.character_id === o.award_id || c.blueprint_character_id === o.award_id);
  const item = items.find((i) => i.available_item_id === o.award_id);
  const equippedItem = o.player_characters.flatMap((c) => c.equipped_items).find((i) => i.id === o.award_id || i.blueprint_item_id === o.award_id);
  const upgraded = o.player_characters.find((c) => c.character_id === o.upgraded_character_id);
  const what = character?.character_name ?? item?.available_item_name ?? equippedItem?.name
    ?? (upgraded ? `${upgraded.character_name}${o.awarded_rarity ? ` → ${o.awarded_rarity}` : ''}` : '');
  const property = o.awarded_property ? `+${o.awarded_property}` : '';
  return { label: AWARD_SOURCE_TEXT[o.award_type], text: [what, property].filter(Boolean).join(' ') };
}

/** An award in one line ('Perfect answer: Moonstone Lens'), for the CLI. */
export function awardText(o: GameOutput, items: readonly AvailableItem[]): string | null {
  const card = awardCard(o, items);
  return card && (card.text ? `${card.label}: ${card.text}` : card.label);
}

/** 'Ysolde Marrow + Storm Lantern (+brave)' for an equipment forging. */
export function forgingText(o: GameOutput, characterId: string, itemId: string, property: string): string {
  const c = o.player_characters.find((x) => x.character_id === characterId);
  const item = c?.equipped_items.find((i) => i.id === itemId);
  return `${c?.character_name ?? 'a character'} + ${item?.name ?? 'an item'}${property ? ` (+${property})` : ''}`;
}

/** The typed answer box takes what the server takes (USER_INPUT's transcription); it says so near the limit. */
export const ANSWER_MAX_CHARS = MAX_TRANSCRIPTION_CHARS;
const ANSWER_COUNTER_FROM = Math.floor(ANSWER_MAX_CHARS * 0.9);

/** '150 characters left' once 90% of the limit is typed, null before. */
export function answerCounterText(length: number): string | null {
  if (length < ANSWER_COUNTER_FROM) return null;
  const left = Math.max(0, ANSWER_MAX_CHARS - length);
  return left === 0 ? `${ANSWER_MAX_CHARS.toLocaleString('en')} characters at most` : `${left.toLocaleString('en')} character${left === 1 ? '' : 's'} left`;
}
