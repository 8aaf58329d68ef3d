// Sign-in with Google (any OpenID Connect issuer: GOOGLE_ISSUER) in GoTrue's shape: GET /authorize?provider=google
// redirects to the issuer's authorization endpoint (discovered, with state, nonce and PKCE, account chooser forced);
// GET /callback exchanges the code, verifies the id_token, finds or creates the user and its identity, and redirects
// to redirect_to with the session (fragment) or a PKCE code (query).
//
// The OpenID Connect client side is openid-client (maintained, OpenID-certified, by the author of jose which this
// server already uses): discovery, the authorization URL, the code exchange with PKCE and the id_token checks (signature
// against the issuer's JWKS with key rotation, iss, aud, azp, exp, iat, nonce, state) are its code rather than ours.
import type { FastifyInstance, FastifyReply } from 'fastify';
import * as oidc from 'openid-client';
import type { Queryable } from '../db/db.js';
import { pkceOrThrow, redirectOf, signIn, type AuthContext } from './context.js';
import { AuthApiError, errorBody, validationFailed } from './errors.js';
import { issueAuthCode, type Pkce } from './one-time-tokens.js';
import type { Ended } from './sessions.js';
import { errorRedirect, withFragment, withQuery } from './redirects.js';
import { addProvider, createUser, findUserByEmail, findUserById, isBanned, normalizeEmail, type UserRow } from './users.js';
import { randomSecret, sha256 } from './tokens.js';

const STATE_TTL_MS = 10 * 60_000;
const DISCOVERY_TTL_MS = 60 * 60_000;
/** Seconds for each request to the issuer (discovery, token endpoint, JWKS). */
const ISSUER_TIMEOUT_S = 10;

type StateRow = { provider: string; code_verifier: string; nonce: string; redirect_to: string; code_challenge: string | null; code_challenge_method: string | null; expires_at: Date };

/** The issuer's configuration (discovered, kept an hour; openid-client caches its JWKS and refetches on a new key). */
class OidcProvider {
  #config: { value: Promise<oidc.Configuration>; until: number } | null = null;

  constructor(private readonly issuer: string, private readonly clientId: string, private readonly clientSecret: string, private readonly now: () => number) {}

  config(): Promise<oidc.Configuration> {
    if (this.#config && this.#config.until > this.now()) return this.#config.value;
    const url = new URL(this.issuer);
    // Plain http only for an issuer on this machine (the tests' provider); Google is https.
    const local = url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    const value = oidc.discovery(url, this.clientId, this.clientSecret, undefined, { timeout: ISSUER_TIMEOUT_S, ...(local ? { execute: [oidc.allowInsecureRequests] } : {}) });
    this.#config = { value, until: this.now() + DISCOVERY_TTL_MS };
    value.catch(() => {
      if (this.#config?.value === value) this.#config = null;
    });
    return value;
  }
}

/** Prompt values to send: the caller's, plus select_account (the account chooser is always shown). */
function prompts(raw: unknown): string {
  const set = new Set(typeof raw === 'string' ? raw.split(/\s+/).filter((p) => p === 'consent' || p === 'login' || p === 'select_account') : []);
  set.add('select_account');
  return [...set].join(' ');
}

type Claims = oidc.IDToken;

/** Finds the user of a Google identity, links it to the account with the same verified email, or creates both. */
async function upsertGoogleUser(ctx: AuthContext, q: Queryable, c: Claims, now: number): Promise<{ ok: true; user: UserRow; ended: Ended[] } | { ok: false; error: AuthApiError }> {
  const sub = String(c.sub);
  const email = normalizeEmail(c.email);
  const verified = c.email_verified === true || c.email_verified === 'true';
  const at = new Date(now);
  const profile = {
    iss: c.iss, sub, provider_id: sub, email: email ?? undefined, email_verified: verified, phone_verified: false,
    ...(typeof c.name === 'string' ? { name: c.name, full_name: c.name } : {}),
    ...(typeof c.picture === 'string' ? { picture: c.picture, avatar_url: c.picture } : {}),
  };
  const identity = (await q.query<{ user_id: string }>("SELECT user_id FROM looptale_auth.identities WHERE provider = 'google' AND provider_id = $1 FOR UPDATE", [sub])).rows[0];
  let user: UserRow | null;
  let ended: Ended[] = [];
  if (identity) {
    user = await findUserById(q, identity.user_id, true);
    if (!user) return { ok: false, error: new AuthApiError(500, 'unexpected_failure', 'Identity without a user') };
  } else {
    if (!email) return { ok: false, error: new AuthApiError(400, 'bad_oauth_callback', 'Error getting user email from external provider') };
    user = await findUserByEmail(q, email, true);
    if (user) {
      if (!verified) return { ok: false, error: new AuthApiError(400, 'provider_email_needs_verification', 'Your Google email address is not verified: verify it with Google, or sign in with your password.') };
      if (!user.email_confirmed_at) {
        // Nobody proved this address before Google did: a password set by whoever signed up with it is dropped, and
        // every session it opened ends (pre-hijacking, as a magic link does).
        await q.query('UPDATE looptale_auth.users SET email_confirmed_at = $2, encrypted_password = NULL, updated_at = $2 WHERE id = $1', [user.id, at]);
        if (user.encrypted_password) ended = await ctx.sessions.end(q, { userId: user.id }, 'unproven_account');
      }
    } else {
      user = await createUser(q, { email, passwordHash: null, confirmed: verified, provider: 'google', userMeta: {} }, at);
      if (!user) return { ok: false, error: new AuthApiError(409, 'conflict', 'Another request is creating this account: try again.') };
    }
    await q.query(
      `INSERT INTO looptale_auth.identities (user_id, provider, provider_id, identity_data, email, created_at, updated_at) VALUES ($1, 'google', $2, $3, $4, $5, $5)`,
      [user.id, sub, JSON.stringify(profile), email, at],
    );
  }
  await q.query("UPDATE looptale_auth.identities SET identity_data = $2, email = $3, updated_at = $4 WHERE provider = 'google' AND provider_id = $1", [sub, JSON.stringify(profile), email, at]);
  await q.query('UPDATE looptale_auth.users SET raw_user_meta_data = raw_user_meta_data || $2::jsonb, updated_at = $3 WHERE id = $1', [user.id, JSON.stringify(profile), at]);
  await addProvider(q, user.id, 'google');
  user = (await findUserById(q, user.id))!;
  if (isBanned(user, now)) return { ok: false, error: new AuthApiError(403, 'user_banned', 'User is banned') };
  return { ok: true, user, ended };
}

export function googleRoutes(app: FastifyInstance, ctx: AuthContext): void {
  const { config, db, log } = ctx;
  const clientId = config.GOOGLE_CLIENT_ID;
  const clientSecret = config.GOOGLE_CLIENT_SECRET;
  const callbackUrl = (): string => `${ctx.baseUrl()}/auth/v1/callback`;
  let provider: OidcProvider | null = null;
  const providerOf = (id: string, secret: string): OidcProvider => (provider ??= new OidcProvider(config.GOOGLE_ISSUER, id, secret, ctx.now));

  app.get('/authorize', async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    if (q.provider !== 'google' || !clientId || !clientSecret) {
      throw validationFailed('Unsupported provider: provider is not enabled');
    }
    const pkce = pkceOrThrow(q.code_challenge, q.code_challenge_method);
    const redirectTo = redirectOf(ctx, req);
    const provider = providerOf(clientId, clientSecret);
    const d = await provider.config().catch((err: unknown) => {
      log.warn({ err: { message: (err as Error).message } }, 'auth: OpenID discovery failed');
      throw new AuthApiError(500, 'unexpected_failure', 'Google sign-in is unavailable right now: the sign-in provider could not be reached.');
    });
    const state = randomSecret();
    const verifier = randomSecret(48);
    const nonce = randomSecret(24);
    await db.query(
      `INSERT INTO looptale_auth.oauth_states (state_hash, provider, code_verifier, nonce, redirect_to, code_challenge, code_challenge_method, created_at, expires_at)
       VALUES ($1, 'google', $2, $3, $4, $5, $6, $7, $8)`,
      [sha256(state), verifier, nonce, redirectTo, pkce?.challenge ?? null, pkce?.method ?? null, new Date(ctx.now()), new Date(ctx.now() + STATE_TTL_MS)],
    );
    const scopes = new Set(['openid', 'email', 'profile', ...(typeof q.scopes === 'string' ? q.scopes.split(/[\s,]+/).filter((s) => /^[\w.:/-]{1,200}$/.test(s)) : [])]);
    const params: Record<string, string> = {
      redirect_uri: callbackUrl(), scope: [...scopes].join(' '), state, nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', prompt: prompts(q.prompt),
    };
    if (typeof q.login_hint === 'string' && q.login_hint.length <= 254) params.login_hint = q.login_hint;
    if (typeof q.hd === 'string' && /^[\w.-]{1,253}$/.test(q.hd)) params.hd = q.hd;
    const url = oidc.buildAuthorizationUrl(d, params);
    if (q.skip_http_redirect === 'true') return { url: url.toString() };
    return reply.redirect(url.toString(), 302);
  });

  app.get('/callback', async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    const badState = (msg: string) => reply.code(400).send(errorBody(new AuthApiError(400, 'bad_oauth_state', msg)));
    if (typeof q.state !== 'string' || q.state === '') return badState('OAuth callback with missing state');
    const st = (await db.query<StateRow>('DELETE FROM looptale_auth.oauth_states WHERE state_hash = $1 RETURNING *', [sha256(q.state)])).rows[0];
    if (!st) return badState('OAuth callback with invalid state');
    const pkce: Pkce | null = st.code_challenge && st.code_challenge_method ? { challenge: st.code_challenge, method: st.code_challenge_method as 's256' | 'plain' } : null;
    const fail = (status: number, code: string, msg: string): FastifyReply => reply.redirect(errorRedirect(st.redirect_to, status, code, msg, pkce !== null), 303);
    if (st.expires_at.getTime() <= ctx.now()) return fail(400, 'bad_oauth_state', 'OAuth state has expired: start signing in again.');
    if (typeof q.error === 'string') {
      return fail(403, 'bad_oauth_callback', typeof q.error_description === 'string' ? q.error_description.slice(0, 300) : `Google sign-in failed: ${q.error.slice(0, 100)}`);
    }
    if (typeof q.code !== 'string' || q.code === '') return fail(400, 'bad_oauth_callback', 'OAuth callback with missing authorization code');
    let claims: Claims;
    try {
      const d = await providerOf(clientId!, clientSecret!).config();
      // The callback as the provider called it (our public URL, its query): openid-client checks state, iss when sent,
      // then exchanges the code with the PKCE verifier and checks the id_token, its nonce included.
      const current = new URL(callbackUrl());
      for (const [k, v] of Object.entries(q)) if (typeof v === 'string') current.searchParams.set(k, v);
      const tokens = await oidc.authorizationCodeGrant(d, current, { pkceCodeVerifier: st.code_verifier, expectedState: q.state, expectedNonce: st.nonce, idTokenExpected: true });
      const c = tokens.claims();
      if (!c) throw new Error('no id_token in the token response');
      claims = c;
    } catch (err) {
      log.warn({ err: { message: (err as Error).message } }, 'auth: Google sign-in failed at the code exchange');
      return fail(500, 'bad_oauth_callback', 'Google sign-in failed: could not verify the answer from Google. Try again.');
    }
    const out = await db.tx(async (tx) => {
      const r = await upsertGoogleUser(ctx, tx, claims, ctx.now());
      if (!r.ok) return { error: r.error };
      if (pkce) return { error: null, ended: r.ended, code: await issueAuthCode(tx, r.user.id, pkce, 'oauth', ctx.now()) };
      return { error: null, ended: r.ended, session: await signIn(ctx, tx, r.user, { method: 'oauth', provider: 'google' }, req) };
    });
    if (out.error) return fail(out.error.status, out.error.errorCode, out.error.message);
    ctx.sessions.announce(out.ended, 'unproven_account');
    if (out.code) return reply.redirect(withQuery(st.redirect_to, { code: out.code }), 303);
    const s = out.session!;
    return reply.redirect(withFragment(st.redirect_to, {
      access_token: s.access_token, expires_at: String(s.expires_at), expires_in: String(s.expires_in),
      refresh_token: s.refresh_token, token_type: s.token_type, provider_type: 'google',
    }), 303);
  });
}
