// The Teamwork moment: the player tells the team how to solve a problem together.
import { TALK } from './common.js';
import type { MomentModule } from './types.js';
import type { z } from 'zod';
import { momentMember } from '../story/moment-parts.js';

/** A Teamwork moment in a story file: the fields every moment has (this type has none of its own). */
export const TeamworkMoment = momentMember('Teamwork');
export type TeamworkMoment = z.infer<typeof TeamworkMoment>;

export const teamwork: MomentModule<typeof TeamworkMoment> = {
  schema: TeamworkMoment,
  type: 'Teamwork',
  description: 'The player tells the team how to solve a problem together.',
  traits: TALK,
  graph: {
    label: 'Teamwork',
    mermaid: ['[(', ')]'],
    dot: 'shape=component',
  },
  fields: [],
  check: (m, c) => {
    if (!c.canCompleteByAnswer) c.r.error(`${c.at}.answers`, 'moment/cannot_complete', `${m.type} ${c.name} has no 'complete' answer and no 'progress' answer with facts, so it can never complete.`);
  },
  llmRules: {
    english: 'The player must tell the team how to solve the problem together. Outcome "complete" when their plan means one of the authored answers marked "complete" ("perfect" when that answer is perfect); else "continue" and say what is still missing, in character.',
    french: 'Le joueur doit dire à l\'équipe comment résoudre le problème ensemble. Outcome "complete" quand son plan veut dire l\'une des réponses écrites marquées "complete" ("perfect" si cette réponse est parfaite) ; sinon "continue" et dites ce qui manque encore, dans votre rôle.',
  },
};
