// A test driver for either game host: plays a test plan's `start`, `say` and `defend` steps through a GameController
// as a player would (Start pressed for every moment that waits for it, then the line), and keeps what the model
// showed for each turn. Tests compare two hosts with it; it has no rule of its own.
import type { GameController } from '../game-screen/controller.js';
import type { DialogueLine, PlayModel } from '../game-screen/model.js';
import { rankToLetter } from '../../rules/rank.js';
import type { LoopStatus } from '../../schema/enums.js';
import type { PlanStep } from '../../story/testplan.js';

/** What the screen showed for one turn (a moment start, or a line said). */
export type ShownTurn = {
  said: string | null;
  moment: string | null;
  /** The character lines the turn added to the dialogue. */
  captions: string[];
  awards: string[];
  notifications: string[];
  error: string | null;
  complete: boolean;
};

export type Played = {
  turns: ShownTurn[];
  status: LoopStatus;
  rank: string | null;
  goldenTicket: boolean;
  /** The first step that could not be played, with why (null when every step was). */
  failure: string | null;
};

/** The line of `defend` (`Tam: line | Orla: line`) for the character the pending strike aims at. */
function defendLine(arg: string, m: PlayModel): string | null {
  const out = m.lastOutput;
  const target = out?.battle_pending_strike?.target_id;
  const struck = out?.player_characters.find((c) => c.character_id === target)?.character_name.toLowerCase();
  if (!struck) return null;
  for (const option of arg.split('|')) {
    const [name = '', ...words] = option.split(':');
    const n = name.trim().toLowerCase();
    if (n === struck || struck.startsWith(`${n} `)) return words.join(':').trim();
  }
  return null;
}

export async function playSteps(ctrl: GameController, steps: readonly PlanStep[]): Promise<Played> {
  const turns: ShownTurn[] = [];
  let said: string | null = null;
  const off = ctrl.subscribe((e, prev, next) => {
    if (e.type !== 'turn') return;
    const before = new Set<DialogueLine>(prev.lines);
    turns.push({
      said,
      moment: next.view?.moment_name ?? null,
      captions: next.lines.filter((l) => l.who === 'character' && !before.has(l)).map((l) => l.text),
      awards: [...next.awards],
      notifications: e.result.outputs.flatMap((o) => o.notifications.map((n) => n.message)),
      error: e.result.error,
      complete: next.momentComplete,
    });
    said = null;
  });
  let failure: string | null = null;
  try {
    for (const s of steps) {
      if (ctrl.over) break;
      if (s.verb !== 'start' && s.verb !== 'say' && s.verb !== 'defend') continue;
      const startError = await ctrl.startPending();
      if (startError) {
        failure = `line ${s.line}: ${startError}`;
        break;
      }
      if (s.verb === 'start' || ctrl.over) continue;
      const text = s.verb === 'say' ? s.arg : defendLine(s.arg, ctrl.model);
      if (text === null) {
        failure = `line ${s.line}: no defence line for the strike`;
        break;
      }
      said = text;
      const r = await ctrl.say(text);
      if (r.error) {
        failure = `line ${s.line}: ${r.error}`;
        break;
      }
    }
    if (!failure && !ctrl.over) failure = await ctrl.startPending();
  } finally {
    off();
  }
  const m = ctrl.model;
  return { turns, status: m.loopStatus, rank: m.rank === null ? null : rankToLetter(m.rank), goldenTicket: m.goldenTicketAwarded, failure };
}
