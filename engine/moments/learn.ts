// The Learn moment: the player asks questions and learns facts; it completes once they know them, or on a complete answer.
import { TALK } from './common.js';
import type { MomentModule } from './types.js';
import type { z } from 'zod';
import { momentMember } from '../story/moment-parts.js';

/** A Learn moment in a story file: the fields every moment has (this type has none of its own). */
export const LearnMoment = momentMember('Learn');
export type LearnMoment = z.infer<typeof LearnMoment>;

export const learn: MomentModule<typeof LearnMoment> = {
  schema: LearnMoment,
  type: 'Learn',
  description: 'The player asks questions and learns facts; it completes once they know them, or on a complete answer.',
  traits: TALK,
  graph: {
    label: 'Learn',
    mermaid: ['[', ']'],
    dot: 'shape=box',
  },
  fields: [],
  check: (m, c) => {
    if (!c.canCompleteByAnswer) c.r.error(`${c.at}.answers`, 'moment/cannot_complete', `${m.type} ${c.name} has no 'complete' answer and no 'progress' answer with facts, so it can never complete.`);
  },
  llmRules: {
    english: 'The player asks questions to learn what you know. An authored answer marked "progress" reveals its facts: when the player asks about it, tell them (your authored reply is the model) and set "facts" to its facts. Outcome "complete" once the player knows every fact of the progress answers (those already known plus the new ones), else "continue". A "wrong" answer: steer them back gently, "continue".',
    french: 'Le joueur pose des questions pour apprendre ce que vous savez. Une réponse écrite marquée "progress" révèle ses faits : quand le joueur en parle, dites-les (votre réponse écrite sert de modèle) et mettez ses faits dans "facts". Outcome "complete" quand le joueur connaît tous les faits des réponses "progress" (ceux déjà connus plus les nouveaux), sinon "continue". Une réponse "wrong" : ramenez-le doucement, "continue".',
  },
};
