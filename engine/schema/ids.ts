import { z } from 'zod';

/** The version-4 UUID shape the spec uses to tell a real next moment from the end of the game. */
export const UUID_V4_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function isUuidV4(value: unknown): value is string {
  return typeof value === 'string' && UUID_V4_RE.test(value);
}

export const UuidV4 = z.string().regex(UUID_V4_RE, 'must be a version-4 UUID');
/** Timestamps travel as ISO-8601 strings everywhere (rows, JSON, transcripts). */
export const IsoTime = z.string().min(1);
