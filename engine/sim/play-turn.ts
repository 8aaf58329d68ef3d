// One turn in process: the scripted brain decides, the engine steps. The server does the same with its Brain
// interface (scripted or LLM) around I/O; the simulator, story tests and offline replay use this directly.
import { decideScripted } from '../brain/scripted.js';
import type { TurnEvent } from '../run/events.js';
import type { GameState } from '../run/state.js';
import { step, type StepContext, type StepResult } from '../run/step.js';
import type { Story } from '../story/format.js';

export type PlayerInput = {
  input_id: string;
  transcription: string;
  is_starting_dialogue: boolean;
  selected_character_ids?: string[];
};

/** `lean` and `mutable`: see StepContext. */
export function scriptedTurn(state: GameState, story: Story, input: PlayerInput, now: number, lean = false, mutable = false): { event: TurnEvent; result: StepResult } {
  const decision = decideScripted({ story, state, transcription: input.transcription, is_starting_dialogue: input.is_starting_dialogue, input_id: input.input_id });
  const event: TurnEvent = {
    type: 'turn',
    input_id: input.input_id,
    is_starting_dialogue: input.is_starting_dialogue,
    transcription: input.transcription,
    decision,
  };
  if (input.selected_character_ids) event.selected_character_ids = input.selected_character_ids;
  // One literal with every field (adding fields one by one regrows the object's property store).
  const ctx: StepContext = { now, story, lean, mutable };
  return { event, result: step(state, event, ctx) };
}
