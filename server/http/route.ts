// Declared routes: each names its zod schemas (params, query, body, response) once; they validate requests at the
// edge and describe the route in the OpenAPI document served at GET /openapi.json.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type AuthUser, requireUser } from './app.js';
import { parseOr400 } from './errors.js';

export type RouteSpec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType> = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  summary: string;
  tags?: string[];
  /** 'user': 401 without a valid token. 'optional': the user when signed in. 'none': public. */
  auth: 'user' | 'optional' | 'none';
  params?: P;
  query?: Q;
  body?: B;
  response?: R;
  /** Status of a success (default 200). */
  status?: number;
  /** A non-JSON response type (e.g. 'application/x-ndjson'); the handler sends it itself. */
  produces?: string;
};

export type Handler<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType> = (ctx: {
  params: z.infer<P>;
  query: z.infer<Q>;
  body: z.infer<B>;
  user: AuthUser | null;
  req: FastifyRequest;
  reply: FastifyReply;
}) => Promise<z.infer<R> | undefined>;

type AnySpec = RouteSpec<z.ZodType, z.ZodType, z.ZodType, z.ZodType>;
const registry: AnySpec[] = [];

export function declaredRoutes(): readonly AnySpec[] {
  return registry;
}

type Empty = z.ZodObject<Record<string, never>>;

export function route<P extends z.ZodType = Empty, Q extends z.ZodType = Empty, B extends z.ZodType = z.ZodUnknown, R extends z.ZodType = z.ZodUnknown>(
  app: FastifyInstance, spec: RouteSpec<P, Q, B, R>, handler: Handler<P, Q, B, R>,
): void {
  if (!registry.some((r) => r.method === spec.method && r.url === spec.url)) registry.push(spec);
  app.route({
    method: spec.method,
    url: spec.url,
    handler: async (req, reply) => {
      const user = spec.auth === 'user' ? requireUser(req) : req.user;
      const params = spec.params ? parseOr400(spec.params, req.params, 'path parameters') : ({} as z.infer<P>);
      const query = spec.query ? parseOr400(spec.query, req.query, 'query') : ({} as z.infer<Q>);
      const body = spec.body ? parseOr400(spec.body, req.body ?? {}, 'body') : (req.body as z.infer<B>);
      const out = await handler({ params, query, body, user, req, reply });
      if (reply.sent) return reply;
      if (spec.status) void reply.code(spec.status);
      return reply.send(out);
    },
  });
}

/** The OpenAPI 3.1 document of every declared route. */
export function openApiDocument(info: { title: string; version: string; serverUrl: string }): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of registry) {
    const path = r.url.replace(/:([A-Za-z_]+)/g, '{$1}');
    const parameters: unknown[] = [];
    for (const [where, schema] of [['path', r.params], ['query', r.query]] as const) {
      if (!schema || !(schema instanceof z.ZodObject)) continue;
      for (const [name, s] of Object.entries<z.ZodType>(schema.shape)) {
        parameters.push({ name, in: where, required: where === 'path' || !s.safeParse(undefined).success, schema: z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) });
      }
    }
    const op: Record<string, unknown> = {
      summary: r.summary,
      tags: r.tags ?? [],
      parameters,
      responses: {
        [String(r.status ?? 200)]: {
          description: 'Success',
          content: r.produces
            ? { [r.produces]: {} }
            : { 'application/json': { schema: r.response ? z.toJSONSchema(r.response, { io: 'output', unrepresentable: 'any' }) : {} } },
        },
        ...(r.auth === 'user' ? { 401: { description: 'Missing or invalid access token' } } : {}),
        400: { description: 'Invalid request: the message names each bad field' },
      },
      ...(r.auth === 'user' ? { security: [{ bearer: [] }] } : {}),
    };
    if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: z.toJSONSchema(r.body, { io: 'input', unrepresentable: 'any' }) } } };
    (paths[path] ??= {})[r.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version },
    servers: [{ url: info.serverUrl }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    paths,
  };
}
