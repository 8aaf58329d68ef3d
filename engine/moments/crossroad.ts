// The Crossroad moment: the player chooses where the story goes by naming a branch.
import type { BlueprintMoment, Story } from '../story/format.js';
import type { PlayLanguage } from '../schema/enums.js';
import { distanceToEpilogue } from '../sim/bots.js';
import { say } from '../sim/bot-helpers.js';
import type { Action, ActionCtx } from './speech-hooks.js';
import { base, bestAnswer, type BrainCtx, decoyAt, line, talkDecision } from '../brain/scripted-ctx.js';
import type { DecisionInput } from '../brain/decision.js';
import { brainSay } from '../brain/texts.js';
import { localize } from '../story/text.js';
import { TALK } from './common.js';
import type { MomentModule } from './types.js';
import type { z } from 'zod';
import { momentMember } from '../story/moment-parts.js';

/** A branch the player names (unless an authored answer fits more words), else what talk decides. */
function decideCrossroad(c: BrainCtx): DecisionInput {
  const branch = c.cm.branches.match(c.heard);
  const answer = bestAnswer(c);
  if (branch && !decoyAt(c, branch) && (!answer || branch.words >= answer.match.words)) {
    const t = c.m.transitions.find((x) => x.next_moment_id === branch.id);
    const reply = t?.reply?.length ? line(c, branch.id, t.reply) : brainSay('branch', c.lang, { label: t?.label ? localize(t.label, c.lang) : '' });
    return base(c, reply, { outcome: 'complete', next_moment_id: branch.id, score: 60, matched: `branch:${branch.id}` });
  }
  return talkDecision(c);
}

/** The branches a player can name. */
function actions(c: ActionCtx): Action[] {
  const out: Action[] = [];
  for (const t of c.m.transitions) {
    if (!t.match && !t.label) continue;
    out.push({ label: `branch to ${c.momentName(t.next_moment_id)}`, is: (d) => d.next_moment_id === t.next_moment_id });
  }
  return out;
}

/** The branch nearest an Epilogue (the greedy bot: the first branch). */
function talk(c: { bot: string; story: Story; m: BlueprintMoment; lang: PlayLanguage }): string {
  const dist = distanceToEpilogue(c.story);
  const branches = c.m.transitions.filter((t) => t.match);
  const best = c.bot === 'greedy' ? branches[0] : [...branches].sort((a, b) => (dist.get(a.next_moment_id) ?? 1e9) - (dist.get(b.next_moment_id) ?? 1e9))[0];
  return best ? say(best.match, c.lang) : '';
}

/** A Crossroad moment in a story file: the fields every moment has (this type has none of its own). */
export const CrossroadMoment = momentMember('Crossroad');
export type CrossroadMoment = z.infer<typeof CrossroadMoment>;

export const crossroad: MomentModule<typeof CrossroadMoment> = {
  schema: CrossroadMoment,
  type: 'Crossroad',
  description: 'The player chooses where the story goes by naming a branch.',
  traits: { ...TALK, branchesByWords: true },
  graph: {
    label: 'Crossroad',
    mermaid: ['{', '}'],
    dot: 'shape=diamond',
    fill: '#4a3a14',
  },
  fields: [],
  check: (m, c) => {
    if (!m.transitions.some((t) => t.match || t.label) && !c.canCompleteByAnswer) {
      c.r.error(`${c.at}.transitions`, 'crossroad/no_branch', `Crossroad ${c.name} has no branch the player can name (no transition with match phrases or a label) and no 'complete' answer, so it can never complete.`);
    }
    m.transitions.forEach((t, i) => {
      if (t.match && !t.label && !t.reply?.length) {
        c.r.warn(`${c.at}.transitions[${i}]`, 'crossroad/unlabelled_branch', `Branch ${i} of Crossroad ${c.name} has neither a label nor a reply, so the character confirms it with an empty name.`);
      }
    });
  },
  brain: { decide: decideCrossroad },
  speech: { actions },
  bot: { talk },
  llmRules: {
    english: 'The player chooses where the story goes. When their words choose one of the transitions, set "next_moment_id" to its id and outcome "complete"; when they hesitate or ask for advice, answer without choosing for them: "continue".',
    french: 'Le joueur choisit la suite de l\'histoire. Quand ses paroles choisissent l\'une des transitions, mettez son id dans "next_moment_id" et outcome "complete" ; s\'il hésite ou demande conseil, répondez sans choisir à sa place : "continue".',
  },
};
