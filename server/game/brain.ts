// The dialogue brain behind an interface: the scripted brain (engine, pure, default) or an LLM (the voice issue).
import { decideScripted, type BrainInput } from '../../engine/brain/scripted.js';
import type { Decision } from '../../engine/brain/decision.js';

export interface Brain {
  readonly name: string;
  decide(input: BrainInput): Promise<{ decision: Decision; brain: string; fallback?: string }>;
}

export class ScriptedBrain implements Brain {
  readonly name = 'scripted';

  decide(input: BrainInput): Promise<{ decision: Decision; brain: string }> {
    return Promise.resolve({ decision: decideScripted(input), brain: this.name });
  }
}
