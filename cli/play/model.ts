// The game screen of `looptale play` as data: a pure reducer over what the player did and what the server answered.
// The plain printer and the Ink screens both read this model; the sub-screen, notifications, the battle indicator
// and the golden ticket popup come from the engine's client machines (engine/client), never re-implemented here.
import { battleIndicator, type BattleIndicator } from '../../engine/client/battle-indicator.js';
import type { ConnectionStatus } from '../../engine/client/connection.js';
import { type TimerEffect, type TimerFired } from '../../engine/client/effects.js';
import {
  type GoldenTicketPopup, transitionGoldenTicketPopup,
} from '../../engine/client/golden-ticket-popup.js';
import {
  EMPTY_NOTIFICATIONS, type NotificationQueue, transitionNotifications,
} from '../../engine/client/notification-queue.js';
import { cardModifierNotification, notificationsFor } from '../../engine/client/output-notifications.js';
import { chooseSubScreen, type SubScreen } from '../../engine/client/sub-screen.js';
import { LOOP_STATUS, type LoopStatus } from '../../engine/schema/enums.js';
import type { GameOutput, OutputCharacter, OutputOpponent } from '../../engine/schema/game-output.js';
import type { Notification } from '../../engine/schema/notification.js';
import type { BattleAction } from '../../engine/schema/player.js';
import type { AvailableItem, EnrolledCharacter, GameView } from '../../engine/schema/views.js';
import type { TurnResult } from '../lib/game-client.js';
import { awardText, forgingText, speakerName } from './format.js';

/** A character card of the team, from a GAME_OUTPUT or from the game view. */
export interface TeamCard {
  readonly id: string;
  readonly name: string;
  readonly attack: number;
  readonly health: number;
  readonly maxHealth: number;
  readonly cardType: string;
  readonly properties: readonly string[];
  readonly items: readonly string[];
  readonly selected: boolean;
  readonly burnedOut: boolean;
}

export interface DialogueLine {
  readonly who: 'character' | 'player';
  /** The speaker's name for a character line (null when unknown). */
  readonly name: string | null;
  readonly text: string;
  readonly emotion: string;
  readonly intensity: number;
  /** A player line sent but not answered yet (replaced by what the server heard). */
  readonly pending: boolean;
}

export interface PlayModel {
  readonly storyName: string;
  /** The moment being played, or about to start. */
  readonly view: GameView | null;
  /** The next moment's view, held while MOMENT COMPLETE shows. */
  readonly nextView: GameView | null;
  /** Counts moments shown, so a moment seen twice is still announced twice. */
  readonly momentSeq: number;
  readonly momentStarted: boolean;
  readonly momentComplete: boolean;
  readonly loopStatus: LoopStatus;
  readonly endOfGame: boolean;
  readonly rank: number | null;
  readonly bestRank: number | null;
  readonly interactions: number;
  readonly maxInteractions: number;
  readonly team: readonly TeamCard[];
  readonly items: readonly AvailableItem[];
  readonly opponents: readonly OutputOpponent[];
  readonly battlePhase: string;
  readonly battleActions: readonly BattleAction[];
  readonly lines: readonly DialogueLine[];
  /** What the last turn awarded ('Award: character: Nell Cardew', 'Forged: ...'). */
  readonly awards: readonly string[];
  readonly error: string | null;
  readonly notifications: NotificationQueue;
  readonly goldenTicket: GoldenTicketPopup;
  readonly goldenTicketAwarded: boolean;
  readonly connection: ConnectionStatus;
  /** Dialogue audio still queued or playing (TTY only): the end-of-moment screen waits for it. */
  readonly audioQueued: boolean;
  readonly lastOutput: GameOutput | null;
}

export type PlayEvent =
  /** A fresh game view (the current or next moment, with items and team). */
  | { readonly type: 'view'; readonly view: GameView }
  /** The player's input went out: words, or a clip (its label). */
  | { readonly type: 'said'; readonly text: string; readonly audio?: string }
  /** The server's answer, with the game view read right after it when the turn changed what outputs do not carry. */
  | { readonly type: 'turn'; readonly result: TurnResult; readonly view?: GameView | null }
  /** 'Start next moment': the held next view becomes the moment. */
  | { readonly type: 'next_moment' }
  /** End Current Run went through: the run is lost. */
  | { readonly type: 'run_ended'; readonly rank: number | null }
  | { readonly type: 'connection'; readonly status: ConnectionStatus }
  | { readonly type: 'audio'; readonly queued: boolean }
  | { readonly type: 'dismiss_error' }
  | { readonly type: 'dismiss_notification' }
  | { readonly type: 'dismiss_golden_ticket' }
  | TimerFired;

export interface PlayStep {
  readonly model: PlayModel;
  /** Timers the notification queue and the golden ticket popup ask for (the runner arms them). */
  readonly effects: readonly TimerEffect[];
}

export function initialModel(storyName: string, run?: { loop_max_number_of_interactions: number; loop_current_number_of_interactions: number }): PlayModel {
  return {
    storyName, view: null, nextView: null, momentSeq: 0, momentStarted: false, momentComplete: false,
    loopStatus: LOOP_STATUS.ongoing, endOfGame: false, rank: null, bestRank: null,
    interactions: run?.loop_current_number_of_interactions ?? 0, maxInteractions: run?.loop_max_number_of_interactions ?? 30,
    team: [], items: [], opponents: [], battlePhase: '', battleActions: [], lines: [], awards: [], error: null,
    notifications: EMPTY_NOTIFICATIONS, goldenTicket: 'hidden', goldenTicketAwarded: false, connection: 'connected',
    audioQueued: false, lastOutput: null,
  };
}

function fromOutput(c: OutputCharacter): TeamCard {
  return {
    id: c.character_id, name: c.character_name, attack: c.character_current_attack, health: c.character_current_health,
    maxHealth: c.character_base_health, cardType: c.character_card_type, properties: c.character_properties,
    items: c.equipped_items.map((i) => i.name), selected: c.is_selected_in_assemble, burnedOut: c.is_burned_out,
  };
}

function fromView(c: EnrolledCharacter): TeamCard {
  return {
    id: c.character_id, name: c.character_name, attack: c.character_current_attack, health: c.character_current_health,
    maxHealth: c.character_base_health, cardType: c.character_card_type, properties: c.character_properties,
    items: c.equipped_items.map((i) => i.name), selected: c.is_selected_in_assemble, burnedOut: c.character_current_health <= 0,
  };
}

/** The game spec's sub-screen for the model (engine/client/sub-screen.ts decides). */
export function subScreenOf(m: PlayModel): SubScreen {
  return chooseSubScreen({
    momentStarted: m.momentStarted,
    gameLost: m.loopStatus === LOOP_STATUS.lost || m.endOfGame,
    view: m.view ? { moment_type: m.view.moment_type, loop_status: m.loopStatus } : null,
    momentComplete: m.momentComplete,
    dialogueAudioQueued: m.audioQueued,
    hasGameViewResult: false,
  });
}

export function indicatorOf(m: PlayModel): BattleIndicator | null {
  return battleIndicator(m.view?.moment_type, m.battlePhase);
}

/** The rank to beat: the best of earlier runs (the view's best rank), F when none. */
export function beatRank(m: PlayModel): number | null {
  return m.view?.best_rank ?? m.bestRank;
}

/** Moves to a new moment: everything that belonged to the old one is cleared. */
function enterMoment(m: PlayModel, view: GameView): PlayModel {
  return {
    ...m, view, nextView: null, momentSeq: m.momentSeq + 1, momentStarted: false, momentComplete: false,
    opponents: view.battle_opponent_characters.map((o) => ({
      opponent_id: o.opponent_id, opponent_name: o.opponent_name, current_health: o.opponent_current_health,
      base_health: o.opponent_base_health, current_attack: 0, base_attack: 0, properties: [],
    })),
    battlePhase: view.battle_phase, battleActions: [], lines: [], awards: [], error: null,
  };
}

function applyView(m: PlayModel, view: GameView): PlayModel {
  const base: PlayModel = {
    ...m, items: view.player_items, team: view.enrolled_characters.map(fromView), bestRank: view.best_rank ?? m.bestRank,
    interactions: view.loop_current_number_of_interactions, maxInteractions: view.loop_max_number_of_interactions,
  };
  if (m.view === null) return enterMoment(base, view);
  if (view.blueprint_moment_id === m.view.blueprint_moment_id && view.loop_number === m.view.loop_number) {
    return { ...base, view };
  }
  // A new moment while the old one is complete waits behind MOMENT COMPLETE until the player goes on.
  if (m.momentComplete) return { ...base, nextView: view };
  return enterMoment(base, view);
}

/**
 * The notifications of one turn: each output's own (or those its fields imply), then the CARD_MODIFIER_NOTIFICATION
 * frames, unless an output already carried the card modifiers of that moment (the same news twice).
 */
export function turnNotifications(r: TurnResult, previousBestRank: number | null): Notification[] {
  const fromOutputs = r.outputs.flatMap((o) => notificationsFor(o, { previousBestRank }));
  const told = new Set(fromOutputs.flatMap((n) => (n.kind === 'card_modifier' ? [n.player_moment_id] : [])));
  const frames = r.modifiers.flatMap((p, i) => (told.has(p.player_moment_id) ? [] : [cardModifierNotification(p, `${r.input_id}:card_modifier:${i}`)]));
  return [...fromOutputs, ...frames];
}

function withNotifications(step: PlayStep, notifications: readonly Notification[]): PlayStep {
  if (notifications.length === 0) return step;
  const t = transitionNotifications(step.model.notifications, { type: 'push', notifications });
  return { model: { ...step.model, notifications: t.state }, effects: [...step.effects, ...t.effects] };
}

function applyOutput(step: PlayStep, o: GameOutput, items: readonly AvailableItem[]): PlayStep {
  const m = step.model;
  const lines = [...m.lines];
  const last = lines.at(-1);
  const heard = o.transcribed_player_answer.trim();
  if (last?.who === 'player' && last.pending) {
    lines[lines.length - 1] = { ...last, text: heard || last.text, pending: false };
  } else if (!o.is_starting_dialogue && heard && lines.length > 0 && last?.text !== heard) {
    lines.push({ who: 'player', name: null, text: heard, emotion: 'normal', intensity: 1, pending: false });
  }
  if (o.dialogue) {
    lines.push({ who: 'character', name: speakerName(m.view), text: o.dialogue, emotion: o.character_emotion_key, intensity: o.character_emotion_strength, pending: false });
  }
  const award = awardText(o, items);
  const model: PlayModel = {
    ...m,
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
    lines,
    awards: award ? [...m.awards, `Award: ${award}`] : m.awards,
    lastOutput: o,
  };
  let next: PlayStep = { model, effects: step.effects };
  if (o.golden_ticket_awarded) {
    const t = transitionGoldenTicketPopup(next.model.goldenTicket, { type: 'awarded' });
    next = { model: { ...next.model, goldenTicket: t.state, goldenTicketAwarded: true }, effects: [...next.effects, ...t.effects] };
  }
  return next;
}

function applyTurn(m: PlayModel, r: TurnResult, view: GameView | null): PlayStep {
  // The awards shown are those of this turn only; an item awarded is named from the view read after the turn.
  let step: PlayStep = { model: { ...m, awards: [], error: r.error }, effects: [] };
  const items = view ? [...m.items, ...view.player_items] : m.items;
  for (const o of r.outputs) step = applyOutput(step, o, items);
  const last = step.model.lastOutput;
  const forged = last ? r.forging.filter((f) => f.is_awarded).map((f) => `Forged: ${forgingText(last, f.equipped_character_id, f.equipped_item_id, f.awarded_property)}`) : [];
  if (forged.length) step = { ...step, model: { ...step.model, awards: [...step.model.awards, ...forged] } };
  if (!r.error && r.outputs.length === 0) step = { ...step, model: { ...step.model, error: 'The server did not answer.' } };
  step = withNotifications(step, turnNotifications(r, m.view?.best_rank ?? m.bestRank));
  return view ? { ...step, model: applyView(step.model, view) } : step;
}

export function reducePlay(m: PlayModel, e: PlayEvent): PlayStep {
  switch (e.type) {
    case 'view': return { model: applyView(m, e.view), effects: [] };
    case 'said':
      return {
        model: { ...m, error: null, lines: [...m.lines, { who: 'player', name: null, text: e.text || (e.audio ? `[${e.audio}]` : ''), emotion: 'normal', intensity: 1, pending: true }] },
        effects: [],
      };
    case 'turn': return applyTurn(m, e.result, e.view ?? null);
    case 'next_moment': {
      if (m.nextView) return { model: enterMoment(m, m.nextView), effects: [] };
      return { model: m.view ? enterMoment(m, m.view) : m, effects: [] };
    }
    case 'run_ended': return { model: { ...m, loopStatus: LOOP_STATUS.lost, rank: e.rank ?? m.rank, momentStarted: true }, effects: [] };
    case 'connection': return { model: { ...m, connection: e.status }, effects: [] };
    case 'audio': return { model: { ...m, audioQueued: e.queued }, effects: [] };
    case 'dismiss_error': return { model: { ...m, error: null }, effects: [] };
    case 'dismiss_notification': {
      const t = transitionNotifications(m.notifications, { type: 'dismiss' });
      return { model: { ...m, notifications: t.state }, effects: t.effects };
    }
    case 'dismiss_golden_ticket': {
      const t = transitionGoldenTicketPopup(m.goldenTicket, { type: 'backdrop_click' });
      return { model: { ...m, goldenTicket: t.state }, effects: t.effects };
    }
    case 'timer': {
      // Each machine ignores the keys it does not own.
      const n = transitionNotifications(m.notifications, e);
      const g = transitionGoldenTicketPopup(m.goldenTicket, e);
      return { model: { ...m, notifications: n.state, goldenTicket: g.state }, effects: [...n.effects, ...g.effects] };
    }
  }
}
