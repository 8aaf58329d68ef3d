// The Epilogue moment: the story ends well: the run is won.
import { TALK } from './common.js';
import type { MomentModule } from './types.js';
import type { z } from 'zod';
import { momentMember } from '../story/moment-parts.js';

/** An Epilogue moment in a story file: the fields every moment has (this type has none of its own). */
export const EpilogueMoment = momentMember('Epilogue');
export type EpilogueMoment = z.infer<typeof EpilogueMoment>;

export const epilogue: MomentModule<typeof EpilogueMoment> = {
  schema: EpilogueMoment,
  type: 'Epilogue',
  description: 'The story ends well: the run is won.',
  traits: { ...TALK, selfCompleting: true, final: true, ends: 'won' },
  graph: {
    label: 'Epilogue',
    mermaid: ['(((', ')))'],
    dot: 'shape=doublecircle, style="filled", fillcolor="#c8f0c8"',
    mermaidClass: { name: 'epilogue', style: 'fill:#c8f0c8,stroke:#2a7a2a' },
    fill: '#1f4d33',
  },
  fields: [],
  llmRules: {
    english: 'The story ends here, well. Answer the player warmly in character: outcome "complete".',
    french: 'L\'histoire se termine ici, bien. Répondez chaleureusement dans votre rôle : outcome "complete".',
  },
};
