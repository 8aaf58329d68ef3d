// The game screen as data, for every client: a pure reducer over what the player did and what the server answered.
// The CLI's plain printer and Ink screens, and the web app's React screens, all draw this one model. It composes the
// client machines of engine/client rather than re-implementing them: the moment flow (each output applied once), the
// voice loop, notifications, the golden ticket popup, burn-out, forging, the award display, card highlights, the
// speaking indicator and the debounced moment re-fetch. Their timers come back as effects, with the voice loop's
// effects and `fetch_moment`, for the runner (controller.ts) to carry out.
import { battleIndicator, type BattleIndicator, parseBattlePhase } from '../battle-indicator.js';
import { isBurning, isHidden, NO_BURN_OUT, type BurnOut, transitionBurnOut } from '../burn-out.js';
import type { ConnectionStatus } from '../connection.js';
import type { TimerEffect, TimerFired } from '../effects.js';
import { NO_FORGING, type Forging, transitionForging } from '../forging.js';
import { type GoldenTicketPopup, transitionGoldenTicketPopup } from '../golden-ticket-popup.js';
import {
  type AwardDisplay, type CardHighlights, type MomentFetch, type MomentFetchEffect, NOT_SPEAKING, type SpeakingIndicator,
  transitionAwards, transitionHighlights, transitionMomentFetch, transitionSpeaking,
} from '../animations.js';
import { awaitNextMoment, initialMomentFlow, type MomentFlowState } from '../moment-flow.js';
import { EMPTY_NOTIFICATIONS, type NotificationQueue, transitionNotifications } from '../notification-queue.js';
import { chooseSubScreen, type SubScreen } from '../sub-screen.js';
import {
  type DialogueAudio, initVoiceLoop, transitionVoiceLoop, type VoiceEffect, type VoiceEvent, type VoiceLoop,
} from '../voice-loop.js';
import { LOOP_STATUS, type LoopStatus } from '../../schema/enums.js';
import type { GameOutput, OutputCharacter, OutputOpponent } from '../../schema/game-output.js';
import type { BattleAction } from '../../schema/player.js';
import type { AvailableItem, EnrolledCharacter, GameView } from '../../schema/views.js';
import type { TurnResult } from '../api/socket.js';
import { applyTurn } from './apply-turn.js';

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

/** One award shown in the award overlay (5000 ms each, in turn): its kind ('Perfect answer') and what it gave. */
export interface AwardShown {
  readonly id: string;
  readonly label: string;
  readonly text: string;
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
  readonly lastOutput: GameOutput | null;
  /** The moment flow: outputs applied once, the dialogue history, where the moment leads. */
  readonly flow: MomentFlowState;
  /** The record button (REC / STOP / SKIP) and the dialogue audio queue. */
  readonly voice: VoiceLoop;
  readonly burnOut: BurnOut;
  readonly forging: Forging;
  readonly awardShown: AwardDisplay<AwardShown>;
  readonly highlights: CardHighlights;
  readonly speaking: SpeakingIndicator;
  readonly momentFetch: MomentFetch;
}

export type PlayEvent =
  /** A fresh game view (the current or next moment, with items and team); `started`: its moment is under way (a resume). */
  | { readonly type: 'view'; readonly view: GameView; readonly started?: boolean }
  /** A USER_INPUT went out (a moment start or an answer): the game is processing. */
  | { readonly type: 'sent' }
  /** The player's input went out: words, or a clip (its label). */
  | { readonly type: 'said'; readonly text: string; readonly audio?: string }
  /** The server's answer, with the game view read right after it when the turn changed what outputs do not carry. */
  | { readonly type: 'turn'; readonly result: TurnResult; readonly view?: GameView | null }
  /** 'Start next moment': the held next view becomes the moment. */
  | { readonly type: 'next_moment' }
  /** End Current Run went through: the run is lost. */
  | { readonly type: 'run_ended'; readonly rank: number | null }
  | { readonly type: 'connection'; readonly status: ConnectionStatus }
  /** An AUDIO_ANSWER arrived (the runner keeps its bytes under `id`). */
  | { readonly type: 'audio_received'; readonly audio: DialogueAudio }
  /** The audio `id` played to its end, or failed to play. */
  | { readonly type: 'audio_ended'; readonly id: string }
  /** The record button: REC starts, STOP stops, SKIP skips the reply. */
  | { readonly type: 'voice_click' }
  | { readonly type: 'recording_started' }
  /** The recorder stopped on its own (silence, native RECORDING_COMPLETE or RECORDING_ERROR). */
  | { readonly type: 'recording_stopped' }
  /** The player's voice was heard while the game spoke (barge-in). */
  | { readonly type: 'player_speech' }
  | { readonly type: 'dismiss_error' }
  | { readonly type: 'dismiss_notification' }
  | { readonly type: 'dismiss_golden_ticket' }
  | { readonly type: 'dismiss_award' }
  | { readonly type: 'close_forging' }
  | TimerFired;

/** What the runner carries out: timers, the voice loop's audio and recording effects, and the moment re-fetch. */
export type PlayEffect = TimerEffect | Exclude<VoiceEffect, TimerEffect> | Exclude<MomentFetchEffect, TimerEffect>;

export interface PlayStep {
  readonly model: PlayModel;
  readonly effects: readonly PlayEffect[];
}

export function initialModel(storyName: string, run?: { id?: string; loop_max_number_of_interactions: number; loop_current_number_of_interactions: number }): PlayModel {
  return {
    storyName, view: null, nextView: null, momentSeq: 0, momentStarted: false, momentComplete: false,
    loopStatus: LOOP_STATUS.ongoing, endOfGame: false, rank: null, bestRank: null,
    interactions: run?.loop_current_number_of_interactions ?? 0, maxInteractions: run?.loop_max_number_of_interactions ?? 30,
    team: [], items: [], opponents: [], battlePhase: '', battleActions: [], lines: [], awards: [], error: null,
    notifications: EMPTY_NOTIFICATIONS, goldenTicket: 'hidden', goldenTicketAwarded: false, connection: 'connected',
    lastOutput: null, flow: initialMomentFlow(run?.id ?? null, null), voice: initVoiceLoop().state, burnOut: NO_BURN_OUT,
    forging: NO_FORGING, awardShown: { current: null, queue: [] }, highlights: { cardIds: [] }, speaking: NOT_SPEAKING,
    momentFetch: { scheduled: false },
  };
}

/** The first model and the effects to run at once (the voice loop's initial 100 ms delay, IDLE to the native wrapper). */
export function initialStep(storyName: string, run?: Parameters<typeof initialModel>[1]): PlayStep {
  return { model: initialModel(storyName, run), effects: initVoiceLoop().effects };
}

export function fromOutput(c: OutputCharacter): TeamCard {
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

/** Dialogue audio still queued or playing: the end-of-moment screen waits for the last line to be heard. */
export function audioQueued(m: PlayModel): boolean {
  return m.voice.playing !== null || m.voice.queue.length > 0;
}

/** An award or a forging still on show over the in-game screen. */
export function showsResult(m: PlayModel): boolean {
  return m.awardShown.current !== null || m.forging.phase !== 'hidden';
}

/** The game spec's sub-screen for the model (engine/client/sub-screen.ts decides). */
export function subScreenOf(m: PlayModel): SubScreen {
  return chooseSubScreen({
    momentStarted: m.momentStarted,
    gameLost: m.loopStatus === LOOP_STATUS.lost || m.endOfGame,
    view: m.view ? { moment_type: m.view.moment_type, loop_status: m.loopStatus } : null,
    momentComplete: m.momentComplete,
    dialogueAudioQueued: audioQueued(m),
    hasGameViewResult: showsResult(m),
  });
}

export function indicatorOf(m: PlayModel): BattleIndicator | null {
  return battleIndicator(m.view?.moment_type, m.battlePhase);
}

/** The rank to beat: the best of earlier runs (the view's best rank), F when none. */
export function beatRank(m: PlayModel): number | null {
  return m.view?.best_rank ?? m.bestRank;
}

/** The team as the screen draws it: burned-out characters are hidden once their 2000 ms burn is over. */
export function visibleTeam(m: PlayModel): readonly TeamCard[] {
  return m.team.filter((c) => !isHidden(m.burnOut, c.id));
}

export function cardState(m: PlayModel, cardId: string): { burning: boolean; highlighted: boolean } {
  return { burning: isBurning(m.burnOut, cardId), highlighted: m.highlights.cardIds.includes(cardId) };
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
    flow: m.flow.playerStoryId === view.player_story_id ? awaitNextMoment(m.flow) : initialMomentFlow(view.player_story_id, null),
  };
}

export function applyView(m: PlayModel, view: GameView): PlayStep {
  const base: PlayModel = {
    ...m, items: view.player_items, team: view.enrolled_characters.map(fromView), bestRank: view.best_rank ?? m.bestRank,
    interactions: view.loop_current_number_of_interactions, maxInteractions: view.loop_max_number_of_interactions,
  };
  // Characters already at zero health when first seen were burned out before: hidden without the animation.
  const burned = view.enrolled_characters.filter((c) => c.character_current_health <= 0).map((c) => c.character_id);
  const b = burned.length ? transitionBurnOut(base.burnOut, { type: 'already_burned_out', characterIds: burned }) : null;
  const withBurn: PlayModel = b ? { ...base, burnOut: b.state } : base;
  let model: PlayModel;
  if (m.view === null) model = enterMoment(withBurn, view);
  else if (view.blueprint_moment_id === m.view.blueprint_moment_id && view.loop_number === m.view.loop_number) model = { ...withBurn, view };
  // A new moment while the old one is complete waits behind MOMENT COMPLETE until the player goes on; the cards won
  // meanwhile (an award that completed the moment) take their pictures from it at once.
  else if (m.momentComplete) model = { ...withBurn, view: { ...m.view, card_images: { ...m.view.card_images, ...view.card_images } }, nextView: view };
  else model = enterMoment(withBurn, view);
  return { model, effects: b?.effects ?? [] };
}

/** Feeds the voice loop, keeping the speaking indicator (500 ms late) in step with what plays. */
export function withVoice(step: PlayStep, event: VoiceEvent): PlayStep {
  const m = step.model;
  const v = transitionVoiceLoop(m.voice, event);
  let model: PlayModel = { ...m, voice: v.state };
  const effects: PlayEffect[] = [...step.effects, ...v.effects];
  const was = m.voice.playing !== null;
  const is = v.state.playing !== null;
  if (was !== is) {
    const s = transitionSpeaking(model.speaking, { type: is ? 'audio_started' : 'audio_stopped' });
    model = { ...model, speaking: s.state };
    effects.push(...s.effects);
  }
  return { model, effects };
}

function timer(m: PlayModel, e: TimerFired): PlayStep {
  // Each machine ignores the keys it does not own.
  const n = transitionNotifications(m.notifications, e);
  const g = transitionGoldenTicketPopup(m.goldenTicket, e);
  const b = transitionBurnOut(m.burnOut, e);
  const f = transitionForging(m.forging, e);
  const a = transitionAwards(m.awardShown, e);
  const h = transitionHighlights(m.highlights, e);
  const s = transitionSpeaking(m.speaking, e);
  const mf = transitionMomentFetch(m.momentFetch, e);
  const step: PlayStep = {
    model: {
      ...m, notifications: n.state, goldenTicket: g.state, burnOut: b.state, forging: f.state, awardShown: a.state,
      highlights: h.state, speaking: s.state, momentFetch: mf.state,
    },
    effects: [...n.effects, ...g.effects, ...b.effects, ...f.effects, ...a.effects, ...h.effects, ...s.effects, ...mf.effects],
  };
  return withVoice(step, e);
}

export function reducePlay(m: PlayModel, e: PlayEvent): PlayStep {
  switch (e.type) {
    case 'view': {
      const v = applyView(m, e.view);
      return e.started ? { ...v, model: { ...v.model, momentStarted: true } } : v;
    }
    case 'sent': return withVoice({ model: m, effects: [] }, { type: 'input_sent' });
    case 'said':
      return {
        model: { ...m, error: null, lines: [...m.lines, { who: 'player', name: null, text: e.text || (e.audio ? `[${e.audio}]` : ''), emotion: 'normal', intensity: 1, pending: true }] },
        effects: [],
      };
    case 'turn': {
      const step = applyTurn(m, e.result, e.view ?? null);
      const last = e.result.outputs.at(-1);
      return withVoice(step, last && !e.result.error ? { type: 'output_received', battlePhase: parseBattlePhase(last.battle_state_next_phase) } : { type: 'processing_failed' });
    }
    case 'next_moment': {
      const next = m.nextView ?? m.view;
      const moved: PlayModel = next ? enterMoment(m, next) : m;
      return withVoice({ model: moved, effects: [] }, { type: 'reset' });
    }
    case 'run_ended': return { model: { ...m, loopStatus: LOOP_STATUS.lost, rank: e.rank ?? m.rank, momentStarted: true }, effects: [] };
    case 'connection': {
      // Back after a drop: what changed meanwhile is read again, 500 ms later.
      if (e.status === 'connected' && m.connection !== 'connected') {
        const f = transitionMomentFetch(m.momentFetch, { type: 'state_changed' });
        return { model: { ...m, connection: e.status, momentFetch: f.state }, effects: f.effects };
      }
      return { model: { ...m, connection: e.status }, effects: [] };
    }
    case 'audio_received': return withVoice({ model: m, effects: [] }, { type: 'audio_received', audio: e.audio });
    case 'audio_ended': return withVoice({ model: m, effects: [] }, { type: 'audio_ended', id: e.id });
    case 'voice_click': return withVoice({ model: m, effects: [] }, { type: 'click' });
    case 'recording_started': return withVoice({ model: m, effects: [] }, { type: 'recording_started' });
    case 'recording_stopped': return withVoice({ model: m, effects: [] }, { type: 'recording_stopped' });
    case 'player_speech': return withVoice({ model: m, effects: [] }, { type: 'player_speech' });
    case 'dismiss_error': return { model: { ...m, error: null }, effects: [] };
    case 'dismiss_notification': {
      const t = transitionNotifications(m.notifications, { type: 'dismiss' });
      return { model: { ...m, notifications: t.state }, effects: t.effects };
    }
    case 'dismiss_golden_ticket': {
      const t = transitionGoldenTicketPopup(m.goldenTicket, { type: 'backdrop_click' });
      return { model: { ...m, goldenTicket: t.state }, effects: t.effects };
    }
    case 'dismiss_award': {
      const t = transitionAwards(m.awardShown, { type: 'dismiss' });
      return { model: { ...m, awardShown: t.state }, effects: t.effects };
    }
    case 'close_forging': {
      const t = transitionForging(m.forging, { type: 'close' });
      return { model: { ...m, forging: t.state }, effects: t.effects };
    }
    case 'timer': return timer(m, e);
  }
}
