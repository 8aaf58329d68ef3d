// HTTP errors as values: every route answers JSON { error: { code, message } } with a clear status.
import type { z } from 'zod';

export class HttpError extends Error {
  /** `details`: what the client needs to act on the error (e.g. the conflicting values of a 409), sent beside it. */
  constructor(readonly status: number, readonly code: string, message: string, readonly headers: Readonly<Record<string, string>> = {}, readonly details?: unknown) {
    super(message);
  }
}

export const notFound = (what = 'Not found'): HttpError => new HttpError(404, 'not_found', what);
export const unauthorized = (message = 'Sign in first: a valid access token is required.'): HttpError => new HttpError(401, 'unauthorized', message);
export const badRequest = (message: string, code = 'bad_request'): HttpError => new HttpError(400, code, message);

/** Parses a request part with a zod schema; a mismatch is a 400 naming each bad field. */
export function parseOr400<S extends z.ZodType>(schema: S, value: unknown, where: string): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => `${i.path.length ? i.path.join('.') : where}: ${i.message}`).join('; ');
  throw new HttpError(400, 'validation_error', `Invalid ${where}: ${issues}`);
}
