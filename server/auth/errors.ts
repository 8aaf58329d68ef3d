// Errors of the /auth/v1 API in the shape of Supabase Auth (GoTrue): `{ code: <status>, error_code, msg }`, plus the
// OAuth pair `error` / `error_description` on /token. @supabase/supabase-js reads `error_code` and `msg` from these.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors.js';
import type { Logger } from '../log.js';

/** GoTrue's error codes that this server uses (a subset of supabase/auth's apierrors). */
export type AuthErrorCode =
  | 'validation_failed' | 'bad_json' | 'email_exists' | 'bad_jwt' | 'no_authorization' | 'user_not_found'
  | 'session_not_found' | 'refresh_token_not_found' | 'refresh_token_already_used' | 'flow_state_not_found'
  | 'flow_state_expired' | 'bad_code_verifier' | 'bad_oauth_state' | 'bad_oauth_callback' | 'user_banned'
  | 'provider_email_needs_verification' | 'user_already_exists' | 'same_password' | 'otp_expired' | 'otp_disabled'
  | 'weak_password' | 'over_request_rate_limit' | 'over_email_send_rate_limit' | 'invalid_credentials'
  | 'email_not_confirmed' | 'email_address_invalid' | 'provider_disabled' | 'unexpected_failure' | 'not_found'
  | 'conflict' | 'reauthentication_needed' | 'reauthentication_not_valid';

export class AuthApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: AuthErrorCode,
    message: string,
    /** Extra fields for the body (weak_password reasons, OAuth error name on /token). */
    readonly extra: Record<string, unknown> = {},
    /** Response headers (Retry-After). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export const validationFailed = (msg: string, status = 400): AuthApiError => new AuthApiError(status, 'validation_failed', msg);
export const invalidCredentials = (): AuthApiError => new AuthApiError(400, 'invalid_credentials', 'Invalid login credentials');
export const emailRateLimited = (): AuthApiError => new AuthApiError(429, 'over_email_send_rate_limit', 'Email rate limit exceeded: wait a little before asking for another email.');
export const requestRateLimited = (): AuthApiError => new AuthApiError(429, 'over_request_rate_limit', 'Request rate limit reached: wait a few minutes and try again.');
export const otpExpired = (): AuthApiError => new AuthApiError(403, 'otp_expired', 'Token has expired or is invalid');

/** The JSON body GoTrue sends for an error. */
export function errorBody(e: AuthApiError): Record<string, unknown> {
  return { code: e.status, error_code: e.errorCode, msg: e.message, ...e.extra };
}

/** Error handler for the /auth/v1 scope: GoTrue's shape for our errors and for Fastify's own (bad JSON, too large). */
export function authErrorHandler(log: Logger) {
  return async (err: FastifyError | AuthApiError, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    let e: AuthApiError;
    if (err instanceof AuthApiError) e = err;
    else if (err instanceof HttpError) {
      // Raised by the app's own hooks (the per-address request limit) on an auth route.
      const code = err.status === 429 ? 'over_request_rate_limit' : err.status === 404 ? 'not_found' : err.status >= 500 ? 'unexpected_failure' : 'validation_failed';
      e = new AuthApiError(err.status, code, err.message, {}, err.headers);
    } else if (err.statusCode && err.statusCode < 500) {
      const code = err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'bad_json' : 'validation_failed';
      e = new AuthApiError(err.statusCode, code, err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? 'Could not parse request body as JSON' : err.message);
    } else {
      // Message, code and stack only: database errors carry the query parameters (hashes, emails), and request bodies
      // (passwords, tokens) never reach the log.
      log.error({ err: { message: err.message, code: err.code, stack: err.stack }, url: req.routeOptions.url }, 'auth: unexpected error');
      e = new AuthApiError(500, 'unexpected_failure', 'Unexpected failure, please check server logs for more information');
    }
    if (e.status === 401) void reply.header('www-authenticate', 'Bearer');
    void reply.headers(e.headers);
    return reply.code(e.status).send(errorBody(e));
  };
}
