// Expected failures are values with namespaced codes; the messages are the spec's texts where it has one.
export type EngineError = { code: string; message: string };
export type StepFailure = { ok: false; error: EngineError };

export const ERR = {
  firstMomentMissing: { code: 'run/first_moment_missing', message: 'Starting momentDetails not found' },
  noRun: { code: 'run/none', message: 'No run exists for this story. Start a new run first.' },
  runFinished: { code: 'run/finished', message: 'This run is over. Start a new run to play again.' },
  duplicateInput: { code: 'turn/duplicate_input', message: 'This input was already processed.' },
  notStarted: { code: 'turn/moment_not_started', message: 'The moment has not started yet: send the starting dialogue first.' },
  alreadyStarted: { code: 'turn/moment_already_started', message: 'The moment has already started.' },
  momentComplete: { code: 'turn/moment_complete', message: 'This moment is complete. Start the next moment.' },
  invalidTicket: { code: 'ticket/invalid', message: 'Invalid ticket or ticket already redeemed' },
  characterNotEnrolled: { code: 'ticket/character_not_found', message: 'Character not found in enrolled characters' },
  blueprintCharacterMissing: { code: 'ticket/blueprint_character_missing', message: 'Could not find blueprint character data' },
  alreadyPermanent: { code: 'ticket/already_permanent', message: 'This card is already permanent.' },
  itemNotFound: { code: 'ticket/item_not_found', message: 'Item not found in your items' },
  noCardSelected: { code: 'ticket/no_card', message: 'Choose a card to redeem.' },
} as const satisfies Record<string, EngineError>;

export function fail(error: EngineError): StepFailure {
  return { ok: false, error };
}
