// GET /openapi.json: the OpenAPI 3.1 document of every route declared with route(), completed by hand for the
// routes that are not (the GoTrue-shaped /auth/v1 API, the waitlist, /healthz) and for raw-byte uploads. GET /docs:
// the same routes as a plain HTML page (no external assets). Registered last, so every route is declared.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { publicUrl } from '../config.js';
import { acceptedTypes } from '../media/storage.js';
import { GameOutput, NotCaught, SpokenChoice } from '../../engine/schema/game-output.js';
import type { RouteModule } from './app.js';
import { openApiDocument, route } from './route.js';

const VERSION = z.object({ version: z.string() }).parse(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))).version;

type Json = Record<string, unknown>;

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json): Json => ({ 'application/json': { schema } });
const ok = (description: string, schema: Json): Json => ({ description, content: json(schema) });
const authError = (description: string): Json => ({ description, content: json(ref('AuthError')) });
const body = (properties: Json, required: string[] = []): Json => ({ required: true, content: json({ type: 'object', properties, required }) });
const str = { type: 'string' };
const pkce = { code_challenge: str, code_challenge_method: { type: 'string', enum: ['s256', 'plain'] } };
const redirectTo = { name: 'redirect_to', in: 'query', required: false, schema: { type: 'string', format: 'uri' }, description: 'Where the email link leads (an allowed origin)' };
const bearer = [{ bearer: [] }];

const SCHEMAS: Json = {
  User: {
    type: 'object',
    properties: {
      id: { type: 'string', format: 'uuid' }, aud: str, role: str, email: str, email_confirmed_at: { type: ['string', 'null'] },
      last_sign_in_at: { type: ['string', 'null'] }, app_metadata: { type: 'object' }, user_metadata: { type: 'object' },
      identities: { type: 'array', items: { type: 'object' } }, created_at: str, updated_at: str,
    },
    required: ['id', 'aud', 'role', 'email'],
  },
  Session: {
    type: 'object',
    properties: {
      access_token: str, token_type: { type: 'string', const: 'bearer' }, expires_in: { type: 'integer' }, expires_at: { type: 'integer' },
      refresh_token: str, user: ref('User'),
    },
    required: ['access_token', 'token_type', 'expires_in', 'refresh_token', 'user'],
  },
  AuthError: {
    type: 'object',
    description: "GoTrue's error shape (supabase-js reads error_code and msg)",
    properties: { code: { type: 'integer' }, error_code: str, msg: str, error: str, error_description: str },
    required: ['code', 'error_code', 'msg'],
  },
  ApiError: {
    type: 'object',
    properties: { error: { type: 'object', properties: { code: str, message: str }, required: ['code', 'message'] } },
    required: ['error'],
  },
  // The realtime protocol's payloads (WebSocket /ws, binary frames `TYPE\0payload`): not HTTP bodies, described here
  // so that clients have one machine-readable reference.
  GameOutput: { ...(z.toJSONSchema(GameOutput, { io: 'output', unrepresentable: 'any' }) as Json), description: 'GAME_OUTPUT payload (WebSocket /ws): every field of the game spec plus the additions (input_id, run counters, notifications, not_caught).' },
  NotCaught: { ...(z.toJSONSchema(NotCaught, { io: 'output', unrepresentable: 'any' }) as Json), description: 'GAME_OUTPUT.not_caught: the game did not catch what the player said. Nothing changed, no interaction was counted; dialogue holds what is spoken ("Sorry, I didn\'t catch that." and the hint). Show the hint; from the second miss in a row (miss_number >= 2) show the choices as a list the player may say or tap (a tap sends its text as USER_INPUT.transcription).' },
  SpokenChoice: { ...(z.toJSONSchema(SpokenChoice, { io: 'output', unrepresentable: 'any' }) as Json), description: 'One choice offered after a miss: say it, or tap it to send `text` as the transcription.' },
};

/** The routes not declared with route(): Supabase Auth's API as this server implements it, and the rest. */
const MANUAL_PATHS: Record<string, Json> = {
  '/ws': {
    get: {
      summary: 'Realtime play (WebSocket upgrade, ?token=<access token>)',
      tags: ['game'],
      description: 'Binary frames `TYPE\\0payload`. Client: USER_INPUT (JSON, optionally followed by `\\0` and audio bytes). Server: GAME_OUTPUT (JSON, components/schemas/GameOutput), AUDIO_ANSWER (JSON header `\\0` MP3), EQUIPMENT_FORGING, CARD_MODIFIER_NOTIFICATION, ERROR_MESSAGE (text). Audio the game did not catch is answered with a GAME_OUTPUT whose not_caught is set (components/schemas/NotCaught), spoken like any reply, and never counts as an interaction.',
      parameters: [{ name: 'token', in: 'query', required: true, schema: str, description: 'Access token' }],
      responses: { 101: { description: 'Switching protocols' }, 401: { description: 'Missing or invalid access token' }, 403: { description: 'Origin not allowed' } },
    },
  },
  '/healthz': {
    get: { summary: 'Liveness and database check', tags: ['health'], responses: { 200: ok('Up', { type: 'object', properties: { ok: { type: 'boolean' }, database: str } }) } },
  },
  '/auth/v1/signup': {
    post: {
      summary: 'Sign up with email and password: a session, or the user when email confirmation is on', tags: ['auth'], parameters: [redirectTo],
      requestBody: body({ email: { type: 'string', format: 'email' }, password: str, data: { type: 'object' }, ...pkce }, ['email', 'password']),
      responses: { 200: ok('Session (or the unconfirmed user)', { oneOf: [ref('Session'), ref('User')] }), 422: authError('Weak password, user already exists'), 429: authError('Rate limited') },
    },
  },
  '/auth/v1/token': {
    post: {
      summary: 'Sign in: grant_type password, refresh_token or pkce', tags: ['auth'],
      parameters: [{ name: 'grant_type', in: 'query', required: true, schema: { type: 'string', enum: ['password', 'refresh_token', 'pkce'] } }],
      requestBody: { required: true, content: json({ oneOf: [
        { type: 'object', properties: { email: str, password: str }, required: ['email', 'password'] },
        { type: 'object', properties: { refresh_token: str }, required: ['refresh_token'] },
        { type: 'object', properties: { auth_code: str, code_verifier: str }, required: ['auth_code', 'code_verifier'] },
      ] }) },
      responses: { 200: ok('Session', ref('Session')), 400: authError('invalid_credentials, invalid_grant, email_not_confirmed'), 429: authError('Rate limited') },
    },
  },
  '/auth/v1/otp': {
    post: {
      summary: 'Send a one-time sign-in link (magic link) by email', tags: ['auth'], parameters: [redirectTo],
      requestBody: body({ email: { type: 'string', format: 'email' }, create_user: { type: 'boolean' }, data: { type: 'object' }, ...pkce }, ['email']),
      responses: { 200: ok('Sent (or nothing to send)', { type: 'object' }), 422: authError('Sign-ups not allowed for otp'), 429: authError('Rate limited') },
    },
  },
  '/auth/v1/verify': {
    get: {
      summary: 'The link in an email: 303 to redirect_to with the session in the fragment (or ?code= for PKCE)', tags: ['auth'],
      parameters: [
        { name: 'token', in: 'query', required: true, schema: str },
        { name: 'type', in: 'query', required: true, schema: { type: 'string', enum: ['signup', 'magiclink', 'recovery', 'invite', 'email_change'] } },
        redirectTo,
      ],
      responses: { 303: { description: 'Redirect to redirect_to (errors in the fragment or query too)' } },
    },
    post: {
      summary: 'Verify a token_hash, or an email and its 6-digit code: the session', tags: ['auth'],
      requestBody: body({ type: { type: 'string', enum: ['email', 'signup', 'magiclink', 'recovery', 'invite', 'email_change'] }, token_hash: str, email: str, token: str }, ['type']),
      responses: { 200: ok('Session', ref('Session')), 403: authError('otp_expired') },
    },
  },
  '/auth/v1/recover': {
    post: {
      summary: 'Send a password reset email (the same answer whether or not the account exists)', tags: ['auth'], parameters: [redirectTo],
      requestBody: body({ email: { type: 'string', format: 'email' }, ...pkce }, ['email']),
      responses: { 200: ok('Sent', { type: 'object' }), 429: authError('Rate limited') },
    },
  },
  '/auth/v1/user': {
    get: { summary: 'The signed-in user', tags: ['auth'], security: bearer, responses: { 200: ok('User', ref('User')), 401: authError('Missing or invalid access token'), 403: authError('Session ended') } },
    put: {
      summary: 'Update the signed-in user: email, password, metadata', tags: ['auth'], security: bearer,
      requestBody: body({ email: str, password: str, data: { type: 'object' }, ...pkce }),
      responses: { 200: ok('User', ref('User')), 401: authError('Missing or invalid access token'), 422: authError('Weak or same password, email exists') },
    },
  },
  '/auth/v1/logout': {
    post: {
      summary: 'Sign out: this session, the others, or all (scope)', tags: ['auth'], security: bearer,
      parameters: [{ name: 'scope', in: 'query', required: false, schema: { type: 'string', enum: ['global', 'local', 'others'], default: 'global' } }],
      responses: { 204: { description: 'Signed out' }, 401: authError('Missing or invalid access token') },
    },
  },
  '/marketing/waitlist_redeem': {
    post: {
      summary: 'Redeem a waitlist invitation for the signed-in account (form-urlencoded or JSON)', tags: ['marketing'], security: bearer,
      requestBody: {
        required: true,
        content: Object.fromEntries(['application/x-www-form-urlencoded', 'application/json'].map((t) => [t, { schema: { type: 'object', properties: { email: str, invite_token: str }, required: ['email', 'invite_token'] } }])),
      },
      responses: {
        201: ok('Redeemed', { type: 'object', properties: { email: str, redeemed_at: str, already_redeemed: { type: 'boolean' } } }),
        200: ok('Already redeemed with the same pair', { type: 'object', properties: { email: str, redeemed_at: str, already_redeemed: { type: 'boolean' } } }),
        400: ok('Invalid body', ref('ApiError')), 401: ok('Missing or invalid access token', ref('ApiError')),
        403: ok('The email is not the account’s', ref('ApiError')), 409: ok('Invitation or account already used', ref('ApiError')),
      },
    },
  },
};

/** Upload bodies are the file's bytes, not JSON: their request bodies and errors are described here. */
function describeUploads(paths: Record<string, Record<string, Json>>, maxFileBytes: number): void {
  const path = paths['/storage/v1/object/{bucket}/{storyId}/{file}'];
  const types = [...acceptedTypes('image'), ...acceptedTypes('sound')];
  for (const method of ['post', 'put']) {
    const op = path?.[method];
    if (!op) continue;
    op.requestBody = {
      required: true,
      description: `The file's bytes, at most ${Math.round((maxFileBytes / 1024 / 1024) * 10) / 10} MB (MEDIA_MAX_FILE_BYTES); only the story's authors and admins may write. image: ${acceptedTypes('image').join(', ')}; sound: ${acceptedTypes('sound').join(', ')}.`,
      content: Object.fromEntries(types.map((t) => [t, { schema: { type: 'string', contentMediaType: t } }])),
    };
    if (method === 'post') op.parameters = [...(op.parameters as Json[]), { name: 'x-upsert', in: 'header', required: false, schema: { type: 'string', enum: ['true', 'false'] }, description: 'true replaces an existing file' }];
    op.responses = {
      ...(op.responses as Json),
      404: { description: method === 'put' ? 'Unknown story or file' : 'Unknown story' },
      ...(method === 'post' ? { 409: { description: 'The file exists and x-upsert is not true' } } : {}),
      403: { description: "Not an author of the story nor an admin" },
      413: { description: "Larger than the size cap (MEDIA_MAX_FILE_BYTES), or more than the story's or the author's stored media may take (MEDIA_STORY_BYTES, MEDIA_AUTHOR_BYTES)" },
      429: { description: "The user's daily upload quota is used up (MEDIA_USER_DAILY_BYTES); Retry-After says when to retry" },
      415: { description: 'A content type the bucket does not take (SVG is refused), or bytes that do not decode as that type' },
    };
  }
}

/** The complete document: the declared routes plus the hand-written ones. */
export function fullOpenApiDocument(info: { title: string; version: string; serverUrl: string; maxFileBytes?: number }): Json {
  const doc = openApiDocument(info);
  const paths = doc.paths as Record<string, Record<string, Json>>;
  describeUploads(paths, info.maxFileBytes ?? 10 * 1024 * 1024);
  for (const [path, ops] of Object.entries(MANUAL_PATHS)) paths[path] = { ...ops, ...paths[path] } as Record<string, Json>;
  const components = doc.components as Json;
  return { ...doc, components: { ...components, schemas: { ...(components.schemas as Json | undefined), ...SCHEMAS } } };
}

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The routes of a document as a plain HTML page. */
export function docsPage(doc: Json): string {
  const info = doc.info as { title: string; version: string };
  const rows: { tag: string; html: string }[] = [];
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = (op.tags as string[] | undefined)?.[0] ?? 'other';
      const auth = op.security ? 'token' : '';
      rows.push({ tag, html: `<tr><td class="m ${escape(method)}">${escape(method.toUpperCase())}</td><td><code>${escape(path)}</code></td><td>${escape(typeof op.summary === 'string' ? op.summary : '')}</td><td>${auth}</td></tr>` });
    }
  }
  const tags = [...new Set(rows.map((r) => r.tag))].sort();
  const sections = tags.map((t) => `<h2>${escape(t)}</h2>\n<table><thead><tr><th>method</th><th>path</th><th>what</th><th>auth</th></tr></thead><tbody>\n${
    rows.filter((r) => r.tag === t).map((r) => r.html).join('\n')}\n</tbody></table>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(info.title)} ${escape(info.version)}</title>
<style>body{font:15px/1.4 system-ui,sans-serif;margin:2rem;max-width:70rem}table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.25rem .5rem;border-bottom:1px solid #ddd;vertical-align:top}.m{font-weight:600;font-family:monospace}.get{color:#0a6}.post{color:#06c}.put,.patch{color:#a60}.delete{color:#c22}</style>
</head><body><h1>${escape(info.title)} <small>${escape(info.version)}</small></h1>
<p>The machine-readable document: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1). Routes marked <em>token</em> need <code>Authorization: Bearer &lt;access token&gt;</code>.</p>
${sections}
</body></html>
`;
}

export const openApiRoutes: RouteModule = (app, s) => {
  const document = () => fullOpenApiDocument({ title: 'Looptale API', version: VERSION, serverUrl: publicUrl(s.config), maxFileBytes: s.config.MEDIA_MAX_FILE_BYTES });
  route(app, { method: 'GET', url: '/openapi.json', summary: 'This OpenAPI 3.1 document', tags: ['docs'], auth: 'none' },
    () => Promise.resolve(document()));
  route(app, { method: 'GET', url: '/docs', summary: 'The routes as an HTML page', tags: ['docs'], auth: 'none', produces: 'text/html' },
    async ({ reply }) => {
      await reply.header('content-type', 'text/html; charset=utf-8').header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'").header('x-frame-options', 'DENY').send(docsPage(document()));
      return undefined;
    });
};
