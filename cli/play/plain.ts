// Plain output of `looptale play` (stdout not a terminal, or --plain): one line per event, no ANSI codes, each
// notification printed once rather than timed. Reads the same model the Ink screens draw.
import { CONNECTION_TEXT } from '../../engine/client/connection.js';
import { GOLDEN_TICKET_TEXT } from '../../engine/client/golden-ticket-popup.js';
import { displayNotification } from '../../engine/client/notification-queue.js';
import { SUB_SCREEN_TEXT, type SubScreen } from '../../engine/client/sub-screen.js';
import { beatRankLabel, runLabel } from '../../engine/catalogue/launch.js';
import type { Notification } from '../../engine/schema/notification.js';
import { turnNotifications } from '../../engine/client/game-screen/apply-turn.js';
import { beatRank, indicatorOf, type PlayEvent, type PlayModel, subScreenOf } from '../../engine/client/game-screen/model.js';
import {
  battleActionText, cardText, characterLineText, itemText, momentDateText, momentTag, opponentText, rankText, remainingText, speakerLabel,
} from '../../engine/client/game-screen/text.js';

export function notificationLine(n: Notification): string {
  const d = displayNotification(n);
  // Details the text already says ('Properties sacrificed: sturdy, loyal') are not repeated.
  const details = d.details.filter((x) => !d.text.includes(x));
  return `* ${d.text}${d.badge ? ` ${d.badge}` : ''}${details.length ? ` (${details.join('; ')})` : ''}`;
}

export function startScreenLine(m: PlayModel): string {
  const v = m.view;
  if (!v) return '';
  return `== ${v.moment_name} (${v.moment_type}) · ${momentDateText(v.moment_date, v.language)} · ${runLabel(v.loop_number)} · ${beatRankLabel(beatRank(m))} · [${SUB_SCREEN_TEXT.start}] ==`;
}

export function endLine(screen: SubScreen, m: PlayModel): string | null {
  switch (screen) {
    case 'end_of_moment': return SUB_SCREEN_TEXT.momentComplete;
    case 'game_won': return `${SUB_SCREEN_TEXT.won} · ${rankText(m.rank)}`;
    case 'game_lost': return `${SUB_SCREEN_TEXT.lost} · ${rankText(m.rank)}`;
    case 'start': case 'in_game': return null;
  }
}

/** Turns model changes into lines. Stateful only to print each change once. */
export class PlainPrinter {
  #announced = 0;
  #screen: SubScreen | null = null;
  #team = '';
  #items = '';
  #opponents = '';
  #indicator = '';
  #remaining = '';
  #actions = 0;
  #audioSaid = false;
  #connection = 'connected';

  lines(event: PlayEvent, prev: PlayModel, next: PlayModel): string[] {
    const out: string[] = [];
    if (event.type === 'said') {
      this.#audioSaid = Boolean(event.audio);
      out.push(event.audio ? `> you [audio ${event.audio}]${event.text ? `: ${event.text}` : ''}` : `> you: ${event.text}`);
    }
    if (event.type === 'connection' && event.status !== this.#connection) {
      this.#connection = event.status;
      if (event.status === 'reconnecting') out.push(CONNECTION_TEXT.reconnecting);
      else if (event.status === 'lost' || event.status === 'closed') out.push(CONNECTION_TEXT.lost);
      else if (event.status === 'connected') out.push('Connected');
    }
    if (next.momentSeq !== this.#announced && subScreenOf(next) === 'start' && next.view) {
      this.#announced = next.momentSeq;
      this.#actions = 0;
      out.push(startScreenLine(next));
    }
    if (event.type === 'turn') out.push(...this.#turn(event, prev, next));
    out.push(...this.#status(next));
    const screen = subScreenOf(next);
    if (screen !== this.#screen) {
      this.#screen = screen;
      const end = endLine(screen, next);
      if (end) out.push(end);
    }
    return out;
  }

  #turn(event: Extract<PlayEvent, { type: 'turn' }>, prev: PlayModel, next: PlayModel): string[] {
    const out: string[] = [];
    const tag = `[${momentTag(next.view)}]`;
    const r = event.result;
    for (const o of r.outputs) {
      for (const s of o.skipped_moments) out.push(`  (a moment was skipped: ${s.reason})`);
      if (this.#audioSaid && !o.is_starting_dialogue) {
        out.push(`  heard: "${o.transcribed_player_answer}"`);
        this.#audioSaid = false;
      }
      if (o.dialogue) {
        const line = next.lines.findLast((l) => l.who === 'character' && l.text === characterLineText(o));
        out.push(`${tag} ${speakerLabel(line?.name ?? null, o.character_emotion_key, o.character_emotion_strength)}: ${o.dialogue}`);
      }
      const actions = o.battle_state_action_history;
      if (actions.length < this.#actions) this.#actions = 0;
      for (const a of actions.slice(this.#actions)) out.push(`  Battle: ${battleActionText(a)}`);
      this.#actions = actions.length;
    }
    for (const n of turnNotifications(r, prev.view?.best_rank ?? prev.bestRank)) out.push(notificationLine(n));
    if (r.outputs.some((o) => o.golden_ticket_awarded)) out.push(GOLDEN_TICKET_TEXT.title, GOLDEN_TICKET_TEXT.body, GOLDEN_TICKET_TEXT.hint);
    for (const a of next.awards) out.push(`  ${a}`);
    if (r.error) out.push(`An error occurred: ${r.error}`);
    return out;
  }

  #status(m: PlayModel): string[] {
    const out: string[] = [];
    const team = m.team.map(cardText).join('; ');
    if (team !== this.#team) {
      this.#team = team;
      out.push(`  Team: ${team || 'No characters available.'}`);
    }
    const items = m.items.map(itemText).join('; ');
    if (items !== this.#items) {
      this.#items = items;
      out.push(`  Items: ${items || 'No items available.'}`);
    }
    const opponents = m.opponents.map(opponentText).join('; ');
    if (opponents !== this.#opponents) {
      this.#opponents = opponents;
      if (opponents) out.push(`  Opponents: ${opponents}`);
    }
    const indicator = indicatorOf(m) ?? '';
    if (indicator !== this.#indicator) {
      this.#indicator = indicator;
      if (indicator) out.push(`  Battle: ${indicator}`);
    }
    const remaining = remainingText(m.maxInteractions, m.interactions);
    if (remaining !== this.#remaining) {
      this.#remaining = remaining;
      out.push(`  Remaining interactions: ${remaining}`);
    }
    return out;
  }
}
