// The Test moment: the player must find the right answer.
import { TALK } from './common.js';
import type { MomentModule } from './types.js';
import type { z } from 'zod';
import { momentMember } from '../story/moment-parts.js';

/** A Test moment in a story file: the fields every moment has (this type has none of its own). */
export const TestMoment = momentMember('Test');
export type TestMoment = z.infer<typeof TestMoment>;

export const test: MomentModule<typeof TestMoment> = {
  schema: TestMoment,
  type: 'Test',
  description: 'The player must find the right answer.',
  traits: TALK,
  graph: {
    label: 'Test',
    mermaid: ['[[', ']]'],
    dot: 'shape=box3d',
  },
  fields: [],
  check: (m, c) => {
    if (!c.canCompleteByAnswer) c.r.error(`${c.at}.answers`, 'moment/cannot_complete', `${m.type} ${c.name} has no 'complete' answer and no 'progress' answer with facts, so it can never complete.`);
  },
  llmRules: {
    english: 'You test the player: they must find the right answer. Outcome "complete" only when their words mean one of the authored answers marked "complete" (set "perfect" when that answer is perfect); a wrong or vague answer is "continue" with a hint that gives nothing away.',
    french: 'Vous mettez le joueur à l\'épreuve : il doit trouver la bonne réponse. Outcome "complete" seulement quand ses paroles veulent dire l\'une des réponses écrites marquées "complete" ("perfect" si cette réponse est parfaite) ; une réponse fausse ou vague donne "continue" avec un indice qui ne révèle rien.',
  },
};
