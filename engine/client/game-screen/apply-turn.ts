// One turn's answer folded into the game screen model: each GAME_OUTPUT goes through the moment flow first (applied
// once; a late output of another moment is ignored), then the display follows what the flow accepted: dialogue
// lines, team, opponents, battle, burn-out, the forging overlay, the award display, highlighted cards, the
// notifications and the golden ticket popup.
import { transitionAwards, transitionHighlights, transitionMomentFetch } from '../animations.js';
import { transitionBurnOut } from '../burn-out.js';
import { transitionForging } from '../forging.js';
import { transitionGoldenTicketPopup } from '../golden-ticket-popup.js';
import { applyOutput as applyToFlow } from '../moment-flow.js';
import { transitionNotifications } from '../notification-queue.js';
import { cardModifierNotification, notificationsFor } from '../output-notifications.js';
import type { GameOutput } from '../../schema/game-output.js';
import type { Notification } from '../../schema/notification.js';
import type { AvailableItem, GameView } from '../../schema/views.js';
import type { TurnResult } from '../api/socket.js';
import { playerErrorText } from './player-errors.js';
import { applyView, type DialogueLine, fromOutput, type PlayEffect, type PlayModel, type PlayStep } from './model.js';
import { awardCard, awardText, characterLineText, forgingText, NOT_CAUGHT_CAPTION, speakerName } from './text.js';

/**
 * The notifications of one turn: each output's own (or those its fields imply), then the CARD_MODIFIER_NOTIFICATION
 * frames, unless an output already carried the card modifiers of that moment (the same news twice).
 */
export function turnNotifications(r: Pick<TurnResult, 'input_id' | 'outputs' | 'modifiers'>, previousBestRank: number | null): Notification[] {
  const fromOutputs = r.outputs.flatMap((o) => notificationsFor(o, { previousBestRank }));
  const told = new Set(fromOutputs.flatMap((n) => (n.kind === 'card_modifier' ? [n.player_moment_id] : [])));
  const frames = r.modifiers.flatMap((p, i) => (told.has(p.player_moment_id) ? [] : [cardModifierNotification(p, `${r.input_id}:card_modifier:${i}`)]));
  return [...fromOutputs, ...frames];
}

function push(step: PlayStep, model: PlayModel, effects: readonly PlayEffect[]): PlayStep {
  return { model, effects: [...step.effects, ...effects] };
}

/** The display's dialogue after the flow accepted an output: the new flow entries, the pending line resolved. */
function nextLines(m: PlayModel, o: GameOutput, added: number): DialogueLine[] {
  const lines = [...m.lines];
  const fresh = m.flow.dialogue.slice(m.flow.dialogue.length - added);
  const pendingAt = lines.length - 1;
  const pending = lines[pendingAt]?.who === 'player' && lines[pendingAt]?.pending ? lines[pendingAt] : null;
  const heard = o.transcribed_player_answer.trim();
  let resolved = false;
  for (const entry of fresh) {
    if (entry.role === 'player') {
      if (pending && !resolved) {
        lines[pendingAt] = { ...pending, text: entry.text, pending: false };
        resolved = true;
      } else lines.push({ who: 'player', name: null, text: entry.text, emotion: 'normal', intensity: 1, pending: false });
    } else {
      lines.push({ who: 'character', name: speakerName(m.view), text: characterLineText(o), emotion: o.character_emotion_key, intensity: o.character_emotion_strength, pending: false });
    }
  }
  // The words were heard but repeat the last line (or open the moment): the pending line still shows what was heard.
  // A miss heard nothing: the line says so rather than keep the clip's label ('[3.1 s]').
  if (pending && !resolved) lines[pendingAt] = { ...pending, text: heard || (o.not_caught ? NOT_CAUGHT_CAPTION : pending.text), pending: false };
  return lines;
}

function applyOutput(step: PlayStep, o: GameOutput, items: readonly AvailableItem[]): PlayStep {
  const m = step.model;
  const flowed = applyToFlow(m.flow, o);
  if (!flowed.applied) return step;
  const added = flowed.state.dialogue.length - (flowed.state.playerMomentId === m.flow.playerMomentId ? m.flow.dialogue.length : 0);
  const withFlow: PlayModel = { ...m, flow: flowed.state };
  const award = awardText(o, items);
  const card = awardCard(o, items);
  let model: PlayModel = {
    ...withFlow,
    momentStarted: true,
    momentComplete: o.complete_the_moment,
    loopStatus: o.loop_status,
    endOfGame: o.end_of_game,
    rank: o.loop_rank ?? m.rank,
    interactions: o.loop_current_number_of_interactions,
    maxInteractions: o.loop_max_number_of_interactions,
    team: o.player_characters.length ? o.player_characters.map(fromOutput) : m.team,
    opponents: o.battle_state_opponent_characters,
    battlePhase: o.battle_state_next_phase,
    battleActions: o.battle_state_action_history,
    lines: nextLines(withFlow, o, Math.max(0, added)),
    awards: award ? [...m.awards, `Award: ${award}`] : m.awards,
    lastOutput: o,
  };
  const effects: PlayEffect[] = [];
  // Health is stored after each action: a character at zero burns out (2000 ms), once.
  const burn = transitionBurnOut(model.burnOut, { type: 'health', characters: o.player_characters });
  model = { ...model, burnOut: burn.state };
  effects.push(...burn.effects);
  if (card) {
    const a = transitionAwards(model.awardShown, { type: 'award', award: { id: `${o.input_id}:${o.award_type}:${o.award_id}:${o.awarded_property}`, ...card } });
    model = { ...model, awardShown: a.state };
    effects.push(...a.effects);
  }
  if (o.is_awarded && o.equipped_character_id && o.equipped_item_id) {
    const f = transitionForging(model.forging, { type: 'equipped', characterId: o.equipped_character_id, itemId: o.equipped_item_id });
    model = { ...model, forging: f.state };
    effects.push(...f.effects);
  }
  for (const id of highlightedCards(o)) {
    const h = transitionHighlights(model.highlights, { type: 'highlight', cardId: id });
    model = { ...model, highlights: h.state };
    effects.push(...h.effects);
  }
  if (o.golden_ticket_awarded) {
    const t = transitionGoldenTicketPopup(model.goldenTicket, { type: 'awarded' });
    model = { ...model, goldenTicket: t.state, goldenTicketAwarded: true };
    effects.push(...t.effects);
  }
  return push(step, model, effects);
}

/** The cards a turn changed: a character awarded, equipped or upgraded. */
function highlightedCards(o: GameOutput): string[] {
  if (!o.is_awarded) return [];
  const ids = [o.equipped_character_id, o.upgraded_character_id];
  const awarded = o.player_characters.find((c) => c.character_id === o.award_id || c.blueprint_character_id === o.award_id);
  if (awarded) ids.push(awarded.character_id);
  return [...new Set(ids.filter(Boolean))];
}

export function applyTurn(m: PlayModel, r: TurnResult, view: GameView | null): PlayStep {
  // The awards shown are those of this turn only; an item awarded is named from the view read after the turn.
  // A refused turn took nothing: its pending line goes (the player's words stay in the box they typed them in).
  const refused = r.error !== null && r.outputs.length === 0;
  const lines = refused && m.lines.at(-1)?.pending ? m.lines.slice(0, -1) : m.lines;
  let step: PlayStep = { model: { ...m, awards: [], lines, error: r.error === null ? null : playerErrorText(r.error) }, effects: [] };
  const items = view ? [...m.items, ...view.player_items] : m.items;
  for (const o of r.outputs) step = applyOutput(step, o, items);
  const last = step.model.lastOutput;
  if (last && r.outputs.includes(last)) {
    const forged: string[] = [];
    for (const f of r.forging) {
      const t = transitionForging(step.model.forging, { type: 'forged', characterId: f.equipped_character_id, itemId: f.equipped_item_id, imageUrl: f.equipment_image_url });
      step = push(step, { ...step.model, forging: t.state }, t.effects);
      if (f.is_awarded) forged.push(`Forged: ${forgingText(last, f.equipped_character_id, f.equipped_item_id, f.awarded_property)}`);
    }
    if (forged.length) step = { ...step, model: { ...step.model, awards: [...step.model.awards, ...forged] } };
  }
  if (!r.error && r.outputs.length === 0) step = { ...step, model: { ...step.model, error: 'The server did not answer.' } };
  const notifications = turnNotifications(r, m.view?.best_rank ?? m.bestRank);
  if (notifications.length) {
    const t = transitionNotifications(step.model.notifications, { type: 'push', notifications });
    step = push(step, { ...step.model, notifications: t.state }, t.effects);
  }
  if (view) {
    const v = applyView(step.model, view);
    return push(step, v.model, v.effects);
  }
  // The turn changed state the outputs do not carry in full: the moment is read again 500 ms later.
  if (r.outputs.length) {
    const f = transitionMomentFetch(step.model.momentFetch, { type: 'state_changed' });
    step = push(step, { ...step.model, momentFetch: f.state }, f.effects);
  }
  return step;
}
