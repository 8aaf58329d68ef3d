// A local OpenAI-compatible chat-completions server for tests (node:http, ephemeral port). Each test scripts the
// replies with `respond(request, n)`: a decision, raw text (invalid JSON, schema mismatches), an HTTP status, a delay
// beyond the client's timeout, or a refusal of response_format json_schema. Every request is recorded.
//
//   const llm = await startFakeOpenAI();
//   llm.respond = () => ({ decision: { reply: 'Hello', emotion: 'normal', intensity: 1, outcome: 'continue' } });
//   ... LLM_BASE_URL = llm.baseUrl ...
//   await llm.close();
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeRequest = {
  path: string;
  headers: IncomingHttpHeaders;
  body: {
    model?: string;
    messages?: { role: string; content: string }[];
    response_format?: { type: string; json_schema?: { name: string; strict: boolean; schema: Record<string, unknown> } };
    [k: string]: unknown;
  };
};

export type FakeReply =
  /** A chat completion whose content is this decision as JSON. */
  | { decision: Record<string, unknown>; usage?: { prompt_tokens: number; completion_tokens: number } }
  /** A chat completion with this raw content. */
  | { content: string; usage?: { prompt_tokens: number; completion_tokens: number } }
  /** An HTTP error. */
  | { status: number; body?: string }
  /** Answers after this delay (the client usually gives up first). */
  | { delayMs: number; then: FakeReply };

export type FakeOpenAI = {
  /** http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  requests: FakeRequest[];
  /** The reply to the n-th request (0-based). */
  respond: (req: FakeRequest, n: number) => FakeReply;
  /** Refuse response_format json_schema with a 400, as some servers do. */
  rejectJsonSchema: boolean;
  /** The player's line in a request (from the default user template). */
  playerLine(req: FakeRequest): string;
  close(): Promise<void>;
};

const USAGE = { prompt_tokens: 321, completion_tokens: 45 };

function completion(content: string, usage = USAGE): string {
  return JSON.stringify({
    id: 'chatcmpl-fake', object: 'chat.completion', created: 0, model: 'fake-model',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  });
}

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const timers = new Set<NodeJS.Timeout>();
  const fake: FakeOpenAI = {
    baseUrl: '',
    requests: [],
    respond: () => ({ status: 500, body: '{"error":{"message":"no reply scripted"}}' }),
    rejectJsonSchema: false,
    playerLine(req) {
      const user = req.body.messages?.find((m) => m.role === 'user')?.content ?? '';
      return /"([^"]*)"/.exec(user)?.[1] ?? /«\s*(.*?)\s*»/.exec(user)?.[1] ?? '';
    },
    close: () => Promise.resolve(),
  };
  const send = (res: ServerResponse, reply: FakeReply): void => {
    if (res.destroyed) return;
    if ('delayMs' in reply) {
      const t = setTimeout(() => {
        timers.delete(t);
        send(res, reply.then);
      }, reply.delayMs);
      timers.add(t);
      res.on('close', () => {
        clearTimeout(t);
        timers.delete(t);
      });
      return;
    }
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body ?? JSON.stringify({ error: { message: `HTTP ${reply.status}` } }));
      return;
    }
    const content = 'decision' in reply ? JSON.stringify(reply.decision) : reply.content;
    res.writeHead(200, { 'content-type': 'application/json' }).end(completion(content, reply.usage));
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: FakeRequest['body'];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as FakeRequest['body'];
      } catch {
        res.writeHead(400).end('{"error":{"message":"bad JSON"}}');
        return;
      }
      const request: FakeRequest = { path: req.url ?? '', headers: req.headers, body };
      const n = fake.requests.length;
      fake.requests.push(request);
      if (req.method !== 'POST' || request.path !== '/v1/chat/completions') {
        res.writeHead(404).end('{"error":{"message":"not found"}}');
        return;
      }
      if (fake.rejectJsonSchema && body.response_format?.type === 'json_schema') {
        res.writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.", type: 'invalid_request_error' } }));
        return;
      }
      send(res, fake.respond(request, n));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () => new Promise<void>((resolve) => {
    for (const t of timers) clearTimeout(t);
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return fake;
}
