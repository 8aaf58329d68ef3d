// JSON calls to a test server as one of its users, and new users with a role: what the authoring API's tests
// (authoring-api, workshop-api, authoring-entities) each need.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { Api } from '../../cli/lib/game-client.js';
import type { UserRole } from '../../server/store/authors.js';
import type { TestServer } from './server.js';

export type Json = Record<string, unknown>;
export type Res = { status: number; body: Json };
export type User = { id: string; token: string };

const PASSWORD = 'correct horse battery staple';

/** Calls on the server `srv()` gives (read at each call, so a suite may start its server in beforeAll). */
export function authoringCalls(srv: () => TestServer) {
  /** One request with the user's bearer token (none for null); the status and the JSON body ({} when empty). */
  async function call(method: string, path: string, who: User | null, body?: unknown): Promise<Res> {
    const headers: Record<string, string> = {};
    if (who) headers.authorization = `Bearer ${who.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${srv().url}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Json };
  }
  /** A call that must answer `status` (the body is shown when it does not). */
  async function ok<T>(method: string, path: string, who: User, body?: unknown, status = 200): Promise<T> {
    const r = await call(method, path, who, body);
    expect(r.status, `${method} ${path}: ${JSON.stringify(r.body).slice(0, 400)}`).toBe(status);
    return r.body as T;
  }
  /** A new signed-up user with `role`. */
  async function user(prefix: string, role: UserRole): Promise<User> {
    const s = await new Api(srv().url).signUp(`${prefix}-${Date.now()}-${randomUUID().slice(0, 8)}@example.com`, PASSWORD);
    await srv().services.authors.setRole(s.user.id, role);
    return { id: s.user.id, token: s.access_token };
  }
  return { call, ok, user };
}
