// A small OpenID Connect provider for tests (a stand-in for Google): discovery, JWKS, an authorization endpoint that
// approves at once as the configured user, and a token endpoint that checks the client, the redirect URI and PKCE
// and returns an RS256 id_token signed with jose. Also signs arbitrary JWTs with its key (for JWKS-verified tokens).
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';

export type OidcUser = { sub: string; email?: string; email_verified?: boolean; name?: string; picture?: string };

export type AuthorizeRequest = Record<string, string>;

export type TestOidc = {
  /** The issuer URL (also the base of every endpoint). */
  issuer: string;
  jwksUrl: string;
  clientId: string;
  clientSecret: string;
  /** Who the next authorization approves. */
  user: OidcUser;
  /** Every authorization request received (its query parameters). */
  authorizeRequests: AuthorizeRequest[];
  /** Overrides the id_token claims of the next token response (e.g. a wrong nonce). */
  tamperNextIdToken: ((claims: JWTPayload) => JWTPayload) | null;
  /** Signs a JWT with the provider's key (RS256, its kid). */
  sign(claims: JWTPayload, opts?: { expiresIn?: string }): Promise<string>;
  /** Replaces the signing key with a new one (new kid): the JWKS then lists only the new key. */
  rotateKey(): Promise<void>;
  close(): Promise<void>;
};

type Grant = { clientId: string; redirectUri: string; nonce: string | undefined; challenge: string | undefined; method: string | undefined; user: OidcUser };

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startTestOidc(opts: { clientId?: string; clientSecret?: string } = {}): Promise<TestOidc> {
  let { privateKey, publicKey } = await generateKeyPair('RS256');
  let kid = randomBytes(6).toString('hex');
  let jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const grants = new Map<string, Grant>();
  let issuer = '';
  const o: TestOidc = {
    issuer: '', jwksUrl: '', clientId: opts.clientId ?? 'test-client-id', clientSecret: opts.clientSecret ?? 'test-client-secret',
    user: { sub: '100000000000000000001', email: 'player@example.com', email_verified: true, name: 'Test Player' },
    authorizeRequests: [],
    tamperNextIdToken: null,
    sign: (claims, s = {}) => new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid }).setIssuedAt().setExpirationTime(s.expiresIn ?? '1h').sign(privateKey),
    async rotateKey() {
      ({ privateKey, publicKey } = await generateKeyPair('RS256'));
      kid = randomBytes(6).toString('hex');
      jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', issuer);
      if (req.method === 'GET' && url.pathname === '/.well-known/openid-configuration') {
        return send(res, 200, {
          issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'], subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['RS256'],
          code_challenge_methods_supported: ['S256'], token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
        });
      }
      if (req.method === 'GET' && url.pathname === '/jwks') return send(res, 200, { keys: [jwk] });
      if (req.method === 'GET' && url.pathname === '/authorize') {
        const q = Object.fromEntries(url.searchParams);
        o.authorizeRequests.push(q);
        if (q.client_id !== o.clientId || !q.redirect_uri || q.response_type !== 'code') return send(res, 400, { error: 'invalid_request' });
        const code = randomBytes(16).toString('hex');
        grants.set(code, { clientId: q.client_id, redirectUri: q.redirect_uri, nonce: q.nonce, challenge: q.code_challenge, method: q.code_challenge_method, user: { ...o.user } });
        const back = new URL(q.redirect_uri);
        back.searchParams.set('code', code);
        if (q.state) back.searchParams.set('state', q.state);
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      if (req.method === 'POST' && url.pathname === '/token') {
        const form = new URLSearchParams(await readBody(req));
        let clientId = form.get('client_id');
        let secret = form.get('client_secret');
        const basic = req.headers.authorization;
        if (basic?.startsWith('Basic ')) [clientId, secret] = Buffer.from(basic.slice(6), 'base64').toString().split(':').map(decodeURIComponent) as [string, string];
        if (clientId !== o.clientId || secret !== o.clientSecret) return send(res, 401, { error: 'invalid_client' });
        const code = form.get('code') ?? '';
        const g = grants.get(code);
        grants.delete(code);
        if (!g || form.get('grant_type') !== 'authorization_code' || form.get('redirect_uri') !== g.redirectUri) return send(res, 400, { error: 'invalid_grant' });
        if (g.challenge) {
          const verifier = form.get('code_verifier') ?? '';
          const derived = g.method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
          if (derived !== g.challenge) return send(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
        }
        let claims: JWTPayload = { iss: issuer, aud: g.clientId, nonce: g.nonce, ...g.user };
        if (o.tamperNextIdToken) {
          claims = o.tamperNextIdToken(claims);
          o.tamperNextIdToken = null;
        }
        const idToken = await o.sign(claims);
        return send(res, 200, { access_token: randomBytes(16).toString('hex'), token_type: 'Bearer', expires_in: 3600, id_token: idToken, scope: 'openid email profile' });
      }
      return send(res, 404, { error: 'not_found' });
    })().catch((e: unknown) => send(res, 500, { error: String(e) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  o.issuer = issuer;
  o.jwksUrl = `${issuer}/jwks`;
  return o;
}
