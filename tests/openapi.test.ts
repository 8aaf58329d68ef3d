// GET /openapi.json on the real server: an OpenAPI 3.1 document in shape, holding every declared route with its path
// parameters, and every route the Fastify app serves (except HEAD/OPTIONS, /auth/v1, /storage and /dev, which are
// Supabase-shaped or development-only). GET /docs lists the same routes as HTML.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredRoutes } from '../server/http/route.js';
import { startTestServer, type TestServer } from './helpers/server.js';

type Json = Record<string, unknown>;
type Operation = { summary?: string; parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[]; responses?: Record<string, { description?: string }>; requestBody?: { content?: Json }; security?: Record<string, unknown>[] };
type Doc = { openapi: string; info: { title: string; version: string }; servers: { url: string }[]; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Json; schemas?: Json } };

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const EXCLUDED = [/^\/auth\/v1(\/|$)/, /^\/storage\//, /^\/dev\//];
const toTemplate = (url: string): string => url.replace(/:([A-Za-z_]+)/g, '{$1}');

let srv: TestServer;
let doc: Doc;

/** Every (method, url) the app serves, read from printRoutes' tree (one segment run per line, children indented). */
function appRoutes(printed: string): { method: string; url: string }[] {
  const out: { method: string; url: string }[] = [];
  const stack: string[] = [];
  for (const line of printed.split('\n')) {
    const m = /^((?:│ {3}| {4})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = (m[1] ?? '').length / 4;
    const url = (depth > 0 ? stack[depth - 1] ?? '' : '') + (m[2] ?? '');
    stack[depth] = url;
    stack.length = depth + 1;
    for (const method of (m[3] ?? '').split(',').map((s) => s.trim()).filter(Boolean)) out.push({ method, url });
  }
  return out;
}

beforeAll(async () => {
  srv = await startTestServer({ SEED_STORIES: 'true', STORIES_DIR: join(import.meta.dirname, '../fixtures/stories') });
  const res = await fetch(`${srv.url}/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/json');
  doc = (await res.json()) as Doc;
});
afterAll(async () => srv?.close());

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document in shape', () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../package.json'), 'utf8')) as { version: string };
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toEqual({ title: 'Looptale API', version: pkg.version });
    expect(doc.servers[0]?.url).toMatch(/^https?:\/\//);
    expect(Object.keys(doc.paths).length).toBeGreaterThan(10);
    const schemes = Object.keys(doc.components.securitySchemes);
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(path, 'paths start with /').toMatch(/^\//);
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(METHODS, where).toContain(method);
        expect(op.summary, where).toBeTruthy();
        expect(Object.keys(op.responses ?? {}).length, `${where} has responses`).toBeGreaterThan(0);
        for (const [status, r] of Object.entries(op.responses ?? {})) {
          expect(status, where).toMatch(/^[1-5]\d\d$/);
          expect(r.description, `${where} ${status} description`).toBeTruthy();
        }
        // Every path parameter declared, required, and no undeclared ones.
        const params = op.parameters ?? [];
        for (const p of params) {
          expect(['path', 'query', 'header', 'cookie'], where).toContain(p.in);
          expect(p.schema, `${where} ${p.name} schema`).toBeDefined();
        }
        const inPath = params.filter((p) => p.in === 'path');
        expect(inPath.map((p) => p.name).sort(), `${where} path parameters`).toEqual([...templated].sort());
        expect(inPath.every((p) => p.required === true), `${where} path parameters are required`).toBe(true);
        expect(new Set(params.map((p) => `${p.in}:${p.name}`)).size, `${where} has no duplicate parameters`).toBe(params.length);
        if (op.requestBody) expect(Object.keys(op.requestBody.content ?? {}).length, `${where} request body types`).toBeGreaterThan(0);
        for (const s of op.security ?? []) for (const name of Object.keys(s)) expect(schemes, where).toContain(name);
      }
    }
    // Every $ref resolves.
    for (const m of JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) expect(doc.components.schemas ?? {}, m[1]).toHaveProperty(m[1] ?? '');
  });

  it('holds every route declared with route(), with its auth', () => {
    const declared = declaredRoutes();
    expect(declared.length).toBeGreaterThan(15);
    for (const r of declared) {
      const op = doc.paths[toTemplate(r.url)]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.url}`).toBeDefined();
      expect(op?.summary).toBe(r.summary);
      if (r.auth === 'user') {
        expect(op?.security, `${r.method} ${r.url} needs a token`).toEqual([{ bearer: [] }]);
        expect(op?.responses).toHaveProperty('401');
      }
    }
  });

  it('holds every route the app serves (but HEAD, OPTIONS, /auth/v1, /storage and /dev)', () => {
    const served = appRoutes(srv.app.printRoutes({ commonPrefix: false }));
    expect(served.length).toBeGreaterThan(20);
    const mustAppear = served.filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && !EXCLUDED.some((x) => x.test(r.url)));
    // The parser found the nested ones too.
    expect(mustAppear).toContainEqual({ method: 'GET', url: '/api/player-stories/:id/game-view' });
    expect(mustAppear).toContainEqual({ method: 'POST', url: '/api/tickets/:id/redeem' });
    const missing = mustAppear.filter((r) => !doc.paths[toTemplate(r.url)]?.[r.method.toLowerCase()]).map((r) => `${r.method} ${r.url}`);
    expect(missing, 'served but not documented').toEqual([]);
  });

  it('documents the auth API by hand, and raw-byte uploads', () => {
    for (const [path, method] of [
      ['/auth/v1/signup', 'post'], ['/auth/v1/token', 'post'], ['/auth/v1/otp', 'post'], ['/auth/v1/verify', 'get'], ['/auth/v1/verify', 'post'],
      ['/auth/v1/recover', 'post'], ['/auth/v1/user', 'get'], ['/auth/v1/user', 'put'], ['/auth/v1/logout', 'post'], ['/marketing/waitlist_redeem', 'post'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeDefined();
    }
    expect(doc.paths['/auth/v1/user']?.get?.security).toEqual([{ bearer: [] }]);
    const up = doc.paths['/storage/v1/object/{bucket}/{storyId}/{file}']?.post;
    expect(Object.keys(up?.requestBody?.content ?? {})).toEqual(expect.arrayContaining(['image/png', 'image/webp', 'audio/mpeg']));
    expect(Object.keys(up?.requestBody?.content ?? {})).not.toContain('image/svg+xml');
    expect(up?.responses).toHaveProperty('413');
    expect(up?.parameters?.map((p) => p.name)).toContain('x-upsert');
  });
});

describe('GET /docs', () => {
  it('lists every documented route in plain HTML, with no external assets', async () => {
    const res = await fetch(`${srv.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).not.toMatch(/<script|src="https?:|href="https?:/i);
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(html, path).toContain(`<code>${path}</code>`);
      for (const method of Object.keys(item)) expect(html).toContain(method.toUpperCase());
    }
  });
});
