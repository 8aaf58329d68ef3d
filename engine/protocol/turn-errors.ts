// ERROR_MESSAGE carries text only (game spec §7); the turn failures a client acts on also have a protocol code. The
// server carries the code and writes the text from this table at the edge (`turnErrorText`); a client, which receives
// only the spec's text, decodes it back with `turnErrorCode` (the server never does). "Not caught" is now a GAME_OUTPUT with `not_caught` (docs/protocol.md); `stt/not_caught` stays for
// clients of older servers (the player is asked again, and the miss never counts).

export const TURN_ERRORS = {
  /** The recogniser heard no answer it could trust: nothing was played, the interaction is not counted. */
  'stt/not_caught': "Sorry, I didn't catch that.",
  'run/finished': 'This run is over. Start a new run to play again.',
  'turn/no_input': 'Say something: send a transcription or audio.',
  'turn/duplicate_input': 'This input was already processed.',
  'turn/input_reused': 'This input_id was already used for another run.',
  'store/busy': 'The game is busy: please try again.',
  'internal': 'Unexpected error occurred',
} as const;

export type TurnErrorCode = keyof typeof TURN_ERRORS;

export const NOT_CAUGHT_CODE = 'stt/not_caught' satisfies TurnErrorCode;
export const NOT_CAUGHT_TEXT = TURN_ERRORS[NOT_CAUGHT_CODE];

/** The text an ERROR_MESSAGE carries for a turn failure's code. */
export function turnErrorText(code: TurnErrorCode): string {
  return TURN_ERRORS[code];
}

const BY_TEXT = new Map<string, TurnErrorCode>(Object.entries(TURN_ERRORS).map(([code, text]) => [text, code as TurnErrorCode]));

/** A client's decode of an ERROR_MESSAGE text (or a client-side failure): its code, null when it is not one of the
 *  table's. */
export function turnErrorCode(message: string | null | undefined): TurnErrorCode | null {
  if (!message) return null;
  return BY_TEXT.get(message.trim()) ?? null;
}

/** True for a turn the recogniser did not catch: a GAME_OUTPUT with `not_caught` (this server), or the
 *  "Sorry, I didn't catch that." ERROR_MESSAGE (older servers). */
export function isNotCaught(error: { errorCode?: string | null; error?: string | null; outputs?: readonly { not_caught?: unknown }[] } | string | null | undefined): boolean {
  if (error === null || error === undefined) return false;
  if (typeof error === 'string') return turnErrorCode(error) === NOT_CAUGHT_CODE;
  if (error.outputs?.some((o) => o.not_caught !== undefined)) return true;
  return (error.errorCode ?? turnErrorCode(error.error)) === NOT_CAUGHT_CODE;
}
