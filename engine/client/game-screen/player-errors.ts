// What a player reads when a turn fails. The server's ERROR_MESSAGE texts are the spec's (§8) or plain sentences, and
// they show as they are; a refusal of the protocol codec (engine/protocol/codec.ts: a frame or payload that does not
// decode or match its schema) is written for developers, so the player reads a plain sentence instead, and a socket
// that closed mid-turn reads as the spec's 'Connection lost'.
import { CONNECTION_TEXT } from '../connection.js';
import { MAX_TRANSCRIPTION_CHARS } from '../../protocol/user-input.js';

export const PLAYER_ERROR_TEXT = {
  tooLong: `Your answer is too long: ${MAX_TRANSCRIPTION_CHARS.toLocaleString('en')} characters at most.`,
  notSent: 'Your answer could not be sent. Please try again.',
} as const;

/** The codec's messages (engine/protocol/codec.ts), by their fixed openings. */
const PROTOCOL_MESSAGE = /^(The [A-Z_]+ (payload|header)\b|The AUDIO_ANSWER header\b|The frame is \d+ bytes|Expected a binary frame|Unknown message type '|A [A-Z_]+ message goes )/;
/** The socket's own failures (engine/client/api/socket.ts). */
const CONNECTION_MESSAGE = /^(connection closed \(|the connection failed|no answer within \d+ ms)/;

export function isProtocolMessage(message: string): boolean {
  return PROTOCOL_MESSAGE.test(message.trim());
}

export function playerErrorText(message: string): string {
  const m = message.trim();
  if (isProtocolMessage(m)) return /\btranscription\b[^;]*\bToo big\b/i.test(m) ? PLAYER_ERROR_TEXT.tooLong : PLAYER_ERROR_TEXT.notSent;
  if (CONNECTION_MESSAGE.test(m)) return CONNECTION_TEXT.lost;
  return message;
}
