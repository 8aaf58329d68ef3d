// The Dead End moment: the story ends badly: the run is lost.
import { TALK } from './common.js';
import type { MomentModule } from './types.js';
import type { z } from 'zod';
import { momentMember } from '../story/moment-parts.js';

/** A Dead End moment in a story file: the fields every moment has (this type has none of its own). */
export const DeadEndMoment = momentMember('Dead End');
export type DeadEndMoment = z.infer<typeof DeadEndMoment>;

export const deadEnd: MomentModule<typeof DeadEndMoment> = {
  schema: DeadEndMoment,
  type: 'Dead End',
  description: 'The story ends badly: the run is lost.',
  traits: { ...TALK, selfCompleting: true, final: true, ends: 'lost' },
  graph: {
    label: 'Dead End',
    mermaid: ['>', ']'],
    dot: 'shape=doubleoctagon, style="filled", fillcolor="#f4c4c4"',
    mermaidClass: { name: 'deadEnd', style: 'fill:#f4c4c4,stroke:#a02020' },
    fill: '#5a2323',
  },
  fields: [],
  llmRules: {
    english: 'The story ends here, badly. Answer in character, gravely: outcome "end_of_game".',
    french: 'L\'histoire se termine ici, mal. Répondez dans votre rôle, gravement : outcome "end_of_game".',
  },
};
