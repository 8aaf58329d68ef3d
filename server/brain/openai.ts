// One OpenAI-compatible chat completion (POST {base}/chat/completions) with native fetch: a hard timeout through
// AbortController (covering the body too), a Bearer key only when one is set, and failures as values. A server that
// refuses response_format json_schema is told apart so the caller can switch to json_object.
export type ChatMessage = { role: 'system' | 'user'; content: string };

export type ChatRequest = {
  url: string;
  apiKey?: string;
  body: Record<string, unknown>;
  timeoutMs: number;
  fetch?: typeof fetch;
};

export type ChatUsage = { prompt_tokens: number | null; completion_tokens: number | null };

export type ChatResult =
  | { ok: true; text: string; usage: ChatUsage; ms: number }
  | { ok: false; kind: 'timeout' | 'http' | 'network' | 'bad_response' | 'format_rejected'; status: number | null; detail: string; body: string | null; ms: number };

/** {base}/chat/completions where base already ends in a version (/v1), else {base}/v1/chat/completions. */
export function chatUrl(base: string): string {
  const b = base.replace(/\/+$/, '');
  return /\/v\d+[a-z]*$/i.test(b) ? `${b}/chat/completions` : `${b}/v1/chat/completions`;
}

const REJECTS_FORMAT = /response_format|json_schema/i;

function count(v: unknown): number | null {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null;
}

export async function chatCompletion(req: ChatRequest): Promise<ChatResult> {
  const started = performance.now();
  const ms = (): number => Math.round(performance.now() - started);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, req.timeoutMs);
  try {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (req.apiKey) headers.authorization = `Bearer ${req.apiKey}`;
    const res = await (req.fetch ?? fetch)(req.url, { method: 'POST', headers, body: JSON.stringify(req.body), signal: controller.signal });
    const text = await res.text();
    if (!res.ok) {
      const kind = (res.status === 400 || res.status === 422) && REJECTS_FORMAT.test(text) ? 'format_rejected' : 'http';
      return { ok: false, kind, status: res.status, detail: `HTTP ${res.status}`, body: text.slice(0, 2000), ms: ms() };
    }
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch {
      return { ok: false, kind: 'bad_response', status: res.status, detail: 'the response is not JSON', body: text.slice(0, 2000), ms: ms() };
    }
    const p = payload as { choices?: { message?: { content?: unknown; refusal?: unknown } }[]; usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } };
    const message = p.choices?.[0]?.message;
    const usage = { prompt_tokens: count(p.usage?.prompt_tokens), completion_tokens: count(p.usage?.completion_tokens) };
    if (typeof message?.content !== 'string') {
      const refusal = typeof message?.refusal === 'string' ? `the model refused: ${message.refusal}` : 'no message content in the response';
      return { ok: false, kind: 'bad_response', status: res.status, detail: refusal, body: text.slice(0, 2000), ms: ms() };
    }
    return { ok: true, text: message.content, usage, ms: ms() };
  } catch (e) {
    if (timedOut) return { ok: false, kind: 'timeout', status: null, detail: `no answer within ${req.timeoutMs} ms`, body: null, ms: ms() };
    const cause = (e as { cause?: { message?: string } }).cause?.message;
    return { ok: false, kind: 'network', status: null, detail: cause ?? (e as Error).message, body: null, ms: ms() };
  } finally {
    clearTimeout(timer);
  }
}
