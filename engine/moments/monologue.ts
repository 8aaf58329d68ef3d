// The Monologue moment: a character tells the player something; the opening completes it.
import { TALK } from './common.js';
import type { MomentModule } from './types.js';
import type { z } from 'zod';
import { momentMember } from '../story/moment-parts.js';

/** A Monologue moment in a story file: the fields every moment has (this type has none of its own). */
export const MonologueMoment = momentMember('Monologue');
export type MonologueMoment = z.infer<typeof MonologueMoment>;

export const monologue: MomentModule<typeof MonologueMoment> = {
  schema: MonologueMoment,
  type: 'Monologue',
  description: 'A character tells the player something; the opening completes it.',
  traits: { ...TALK, selfCompleting: true },
  graph: {
    label: 'Monologue',
    mermaid: ['([', '])'],
    dot: 'shape=box, style="rounded"',
  },
  fields: [],
  llmRules: {
    english: 'You are telling the player something. Whatever they say, answer briefly in character and carry on: outcome "complete".',
    french: 'Vous racontez quelque chose au joueur. Quoi qu\'il dise, répondez brièvement dans votre rôle et poursuivez : outcome "complete".',
  },
};
