// The Assemble moment: the player chooses who goes in the team.
import type { Draft } from '../run/draft.js';
import type { RuleResult, TurnCtx } from './play-hooks.js';
import { applySelection } from '../run/apply-cards.js';
import type { BotCtx, RandomMoveCtx } from './bot-hooks.js';
import type { Utterance } from '../sim/bots.js';
import { strongest } from '../sim/bot-helpers.js';
import type { Action, ActionCtx, SpeechCtx } from './speech-hooks.js';
import { named, pattern, type PatternPart, type SpeechPattern } from '../brain/speech-parts.js';
import { base, bestAnswer, type BrainCtx, fallbackOr, line, mentionedCharacters } from '../brain/scripted-ctx.js';
import type { DecisionInput } from '../brain/decision.js';
import { brainSay } from '../brain/texts.js';
import { PLAY } from './common.js';
import type { LlmStateCtx, MomentModule } from './types.js';
import { z } from 'zod';
import { momentMember } from '../story/moment-parts.js';
import { teamSizeOf } from './fields.js';

function decideAssemble(c: BrainCtx): DecisionInput {
  const alive = c.input.state.characters.filter((x) => x.current_health > 0);
  const named = mentionedCharacters(c, alive).map((x) => x.id);
  const required = teamSizeOf(c.m) ?? 0;
  if (named.length === 0) return fallbackOr(c, brainSay('team_ask', c.lang, { required }));
  const already = alive.filter((x) => x.is_selected_in_assemble).map((x) => x.id);
  const selected = [...already, ...named.filter((x) => !already.includes(x))].slice(0, required || undefined);
  const names = selected.map((id) => alive.find((x) => x.id === id)?.name ?? '').join(', ');
  const answer = bestAnswer(c);
  const reply = answer ? line(c, answer.rule.id, answer.rule.reply) : brainSay('team', c.lang, { names, count: selected.length, required });
  return base(c, reply, { selection: named, outcome: selected.length >= required ? 'complete' : 'continue', matched: 'assemble' });
}

/** Sentences for this type's decisions. */
function sentences(c: SpeechCtx): SpeechPattern[] {
  const { state, t, m, charNames } = c;
  const out: SpeechPattern[] = [];
    const alive = state.characters.filter((c) => c.current_health > 0);
    const who = named(alive.map((c) => charNames(c.blueprint_character_id, c.name)));
    const n = Math.max(1, teamSizeOf(m) ?? 1);
    for (let size = n; size >= 1 && who.options.length; size--) {
      const parts: PatternPart[] = [who];
      // "Orla, Tam and Ferrule": the last "and" is said, the others usually not.
      for (let k = 1; k < size; k++) parts.push({ options: [t.and], optional: true, prefer: k === size - 1 }, who);
      out.push({ ...pattern('team', parts), example: alive.slice(0, size).map((c) => c.name).join(` ${t.and} `) });
    }
  return out;
}

/** Decisions of this type the engine accepts now. */
function actions(c: ActionCtx): Action[] {
  const { state } = c;
  const out: Action[] = [];
    for (const c of state.characters.filter((x) => x.current_health > 0)) out.push({ label: `team member ${c.name}`, is: (d) => d.selection?.includes(c.id) === true });
  return out;
}

/** The optimal or greedy bot's move. */
function move(c: BotCtx): Utterance {
  const { s, m } = c;
    const need = teamSizeOf(m) ?? 0;
    const alive = s.characters.filter((c) => c.current_health > 0);
    const chosen = strongest(s, alive).slice(0, need);
    return { text: chosen.map((c) => c.name).join(' and ') };
}

/** A player's turn: the rules of this type. */
function turn(c: TurnCtx, res: RuleResult): void {
  const { d, m, info, ev } = c;
  const ids = ev.selected_character_ids ?? info.decision.selection ?? [];
  res.complete = applySelection(d, m, ids, ev.selected_character_ids !== undefined).complete;
}

/** Entering: the selection starts empty. */
function enter(d: Draft): void {
  // Selection resets to none at the start of an Assemble.
  for (const c of d.state.characters) if (c.is_selected_in_assemble) d.update('player_characters', c, { is_selected_in_assemble: false });
}

/** The random player: a random half of the run's characters. */
function random({ r, s, d }: RandomMoveCtx): void {
  d.selection = s.characters.filter(() => r.next() < 0.5).map((c) => c.id);
}

/** The LLM brain is told the team's size. */
function llmState({ m, fr }: LlmStateCtx): string[] {
  return [fr ? `L'équipe doit compter ${teamSizeOf(m) ?? 0} personnage(s).` : `The team needs ${teamSizeOf(m) ?? 0} character(s).`];
}

/** An Assemble moment in a story file: the fields every moment has, and its own. */
export const AssembleMoment = momentMember('Assemble', {
  /** How many characters the team must have; the moment is skipped when the player has fewer. */
  max_number_of_characters: z.number().int().min(0).optional(),
});
export type AssembleMoment = z.infer<typeof AssembleMoment>;

export const assemble: MomentModule<typeof AssembleMoment> = {
  schema: AssembleMoment,
  type: 'Assemble',
  description: 'The player chooses who goes in the team.',
  traits: { ...PLAY, picksTeam: true },
  graph: {
    label: 'Assemble',
    mermaid: ['[\\', '/]'],
    dot: 'shape=house',
  },
  fields: [
    { key: 'max_number_of_characters', label: 'Team size', kind: 'integer', required: true, min: 0, help: 'How many characters the team must have; skipped when the player has fewer.' },
  ],
  check: (m, c) => {
    if (teamSizeOf(m) === undefined) c.r.error(`${c.at}.max_number_of_characters`, 'assemble/no_size', `Assemble ${c.name} has no max_number_of_characters (the team size), so it can never complete.`);
  },
  brain: { decide: decideAssemble },
  speech: { sentences, actions },
  bot: { move, random },
  play: { enter, turn },
  llmState,
  llmRules: {
    english: 'The player chooses who goes in the team. Set "selection" to the ids of the characters they name (from the team list). Outcome "complete" when the team then has the required number, else "continue" and ask for more.',
    french: 'Le joueur choisit qui fait partie de l\'équipe. Mettez dans "selection" les ids des personnages qu\'il nomme (de la liste de l\'équipe). Outcome "complete" quand l\'équipe compte alors le nombre requis, sinon "continue" et demandez-en d\'autres.',
  },
};
