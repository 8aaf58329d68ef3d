// The dialogue history's append rules, shared by the run (engine/run/turn.ts) and the clients' moment flow, which
// must not pull in the run's rules and the moment registry to add one line.
import type { DialogueEntry } from '../schema/player.js';

/** The dialogue append rule: non-blank, different from the last entry, and the history is not empty. */
export function appendPlayerLine(history: readonly DialogueEntry[], text: string): DialogueEntry[] {
  const t = text.trim();
  const last = history[history.length - 1];
  if (t === '' || history.length === 0 || last?.text === t) return [...history];
  return [...history, { role: 'player', text: t, isPerfectAnswer: false, isCacheHit: false }];
}

export function appendModelLine(history: readonly DialogueEntry[], text: string, perfect: boolean, cacheHit: boolean): DialogueEntry[] {
  const t = text.trim();
  if (t === '') return [...history];
  return [...history, { role: 'model', text: t, isPerfectAnswer: perfect, isCacheHit: cacheHit }];
}

/** appendModelLine(appendPlayerLine(history, playerText), ...) in one copy (playerText null: no player line). */
export function appendTurnLines(history: readonly DialogueEntry[], playerText: string | null, reply: string, perfect: boolean, cacheHit: boolean): DialogueEntry[] {
  let said: DialogueEntry | null = null;
  if (playerText !== null) {
    const t = playerText.trim();
    if (t !== '' && history.length > 0 && history[history.length - 1]?.text !== t) said = { role: 'player', text: t, isPerfectAnswer: false, isCacheHit: false };
  }
  const r = reply.trim();
  const answer: DialogueEntry | null = r === '' ? null : { role: 'model', text: r, isPerfectAnswer: perfect, isCacheHit: cacheHit };
  // Copied into an array of its final size: slice then push regrows it (this copy was a turn's largest allocation),
  // and concat costs 4-5x more on node 20.
  const n = history.length;
  const out = new Array<DialogueEntry>(n + (said ? 1 : 0) + (answer ? 1 : 0));
  for (let i = 0; i < n; i++) out[i] = history[i] as DialogueEntry;
  let at = n;
  if (said) out[at++] = said;
  if (answer) out[at] = answer;
  return out;
}
