// Structured logs (pino). Tokens, passwords, audio and authorization headers are redacted wherever they appear.
import pino, { type Logger } from 'pino';

export const REDACT_PATHS = [
  'password', '*.password', 'token', '*.token', 'access_token', '*.access_token', 'refresh_token', '*.refresh_token',
  'req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'audio', '*.audio', 'req.query.token', 'invite_token', '*.invite_token',
  'jwt_secret', '*.secret', 'api_key', '*.api_key',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { service: 'looptale' } }, destination);
}

/** Removes query-string secrets from a URL before logging it (e.g. /ws?token=...). */
export function safeUrl(url: string): string {
  return url.replace(/([?&](?:token|access_token|refresh_token|apikey|code|invite_token|token_hash|nonce)=)[^&#]*/gi, '$1[redacted]');
}

export type { Logger };
