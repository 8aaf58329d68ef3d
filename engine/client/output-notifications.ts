// The notifications a GAME_OUTPUT implies (game spec §3 "Notification kinds", §4 "End conditions and ranks",
// "Upgrade"), for an output that carries none of its own; and the one a CARD_MODIFIER_NOTIFICATION carries.
import { LOOP_STATUS } from '../schema/enums.js';
import { type GameOutput } from '../schema/game-output.js';
import { type CardModifierNotification, type Notification } from '../schema/notification.js';
import { rankToLetter } from '../catalogue/rank-letter.js';
import { NOTIFICATION_TEXT, rankAchievedText } from './notification-queue.js';

export interface OutputContext {
  /** The best rank of the story before this run (1 to 7), null if none; undefined when the client does not know. */
  readonly previousBestRank?: number | null;
}

/**
 * The server's notifications if it sent any, else those the output's fields imply. Ids are `{input_id}:{kind}`.
 * Either way a rank shows only for a won run that earned no golden ticket (game spec §4: the ticket's overlay shows
 * instead; a lost run goes to its lost screen and is not celebrated).
 */
export function notificationsFor(output: GameOutput, context: OutputContext = {}): Notification[] {
  if (output.notifications.length > 0) return output.notifications.filter((n) => n.kind !== 'rank_achieved' || showsRank(output));
  return deriveNotifications(output, context);
}

function showsRank(output: GameOutput): boolean {
  return output.loop_status === LOOP_STATUS.won && !output.golden_ticket_awarded;
}

export function deriveNotifications(output: GameOutput, context: OutputContext = {}): Notification[] {
  const id = (kind: string): string => `${output.input_id}:${kind}`;
  const out: Notification[] = [];
  // A perfect answer that was also a cache hit earns both: each says something different, and both are free.
  if (output.was_perfect_answer) out.push({ kind: 'perfect', id: id('perfect'), message: NOTIFICATION_TEXT.perfect });
  if (output.was_cache_hit) out.push({ kind: 'free', id: id('free'), message: NOTIFICATION_TEXT.free });
  if (output.sacrificed_properties.length > 0) {
    out.push({
      kind: 'sacrificed_properties',
      id: id('sacrificed_properties'),
      message: `Sacrificed: ${output.sacrificed_properties.join(', ')}`,
      properties: [...output.sacrificed_properties],
    });
  }
  const upgrade = upgradeNotification(output, id('upgrade_progress'));
  if (upgrade) out.push(upgrade);
  const rank = rankNotification(output, context, id('rank_achieved'));
  if (rank) out.push(rank);
  return out;
}

function characterName(output: GameOutput, characterId: string): string {
  return output.player_characters.find((c) => c.character_id === characterId)?.character_name ?? characterId;
}

/**
 * Upgrade progress while an Upgrade moment gathers its character, bet and difficulty; complete once all three are
 * known, when the riddle follows. An output naming none of them implies no upgrade notification.
 */
function upgradeNotification(output: GameOutput, id: string): Notification | null {
  const characterId = output.upgraded_character_id;
  const bet = output.interaction_bet_size;
  const difficulty = output.chosen_difficulty_level;
  if (characterId === '' && bet === 0 && difficulty === '') return null;
  const character = characterId === '' ? '' : characterName(output, characterId);
  const isComplete = character !== '' && bet > 0 && difficulty !== '';
  const parts = [
    `Character: ${character || '?'}`,
    `Bet: ${bet > 0 ? String(bet) : '?'}`,
    `Difficulty: ${difficulty || '?'}`,
  ];
  return {
    kind: 'upgrade_progress',
    id,
    message: isComplete ? NOTIFICATION_TEXT.upgradeComplete : parts.join(' • '),
    upgradeData: { character, bet, difficulty, isComplete },
  };
}

// 'RANK X ACHIEVED!' when a run is won with a rank, unless it earned the golden ticket (a first Rank A or better: its
// overlay shows instead). A lost run goes to the lost screen, where a rank banner would only be noise. 'FIRST TIME!'
// is claimed only when the previous best is known to be worse (or absent).
function rankNotification(output: GameOutput, context: OutputContext, id: string): Notification | null {
  const rank = output.loop_rank;
  if (!showsRank(output) || rank === null) return null;
  const previous = context.previousBestRank;
  const isFirstTimeAchieved = previous === null || (previous !== undefined && rank < previous);
  const letter = rankToLetter(rank);
  return { kind: 'rank_achieved', id, message: rankAchievedText(letter), rankData: { rank: letter, isFirstTimeAchieved } };
}

/** CARD_MODIFIER_NOTIFICATION as a queued notification; `id` comes from the caller (the socket message's sequence). */
export function cardModifierNotification(payload: CardModifierNotification, id: string): Notification {
  const names = [...new Set(payload.applied_modifiers.map((m) => m.character_name))];
  return {
    kind: 'card_modifier',
    id,
    message: names.length > 0 ? `Card modifiers: ${names.join(', ')}` : 'Card modifiers',
    player_moment_id: payload.player_moment_id,
    applied_modifiers: payload.applied_modifiers.map((m) => ({ ...m })),
  };
}
