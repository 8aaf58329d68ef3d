// How the draft layer talks to the authoring API (docs/authoring-design.md, "Routes"): load the draft, send changes
// against a revision, and read the revisions made since. Answers are sorted into what the draft layer acts on: a
// write, a conflict, a refusal, or the server not reached.
import type { Change } from '../../../../engine/authoring/change.js';
import type { Json } from '../../../../engine/authoring/apply.js';

export type ServerDraft = { revision: number; baseVersion: number | null; doc: Json };
export type ServerConflict = { path: string; base: unknown; now: unknown; sent: unknown };
export type ServerProblem = { path: string; code: string; message: string };

export type SendResult =
  | { kind: 'written'; draft: ServerDraft; merged: boolean }
  | { kind: 'conflict'; revision: number; conflicts: ServerConflict[] }
  | { kind: 'invalid'; message: string; problems: ServerProblem[] }
  /** The server was not reached (offline) or failed (5xx, 429): the same changes are sent again later. */
  | { kind: 'retry'; message: string; offline: boolean; afterMs?: number }
  /** Refused for good (403, 404, a stale draft that no longer exists): the author must reload. */
  | { kind: 'refused'; message: string; status: number };

export type RevisionChanges = { revision: number; changes: Change[] };

export type DraftTransport = {
  load(): Promise<ServerDraft>;
  send(baseRevision: number, changes: Change[]): Promise<SendResult>;
  /** The revisions after `after`, oldest first; null when there are too many to read this way (load instead). */
  since(after: number): Promise<RevisionChanges[] | null>;
};

type Fetch = (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => Promise<{ ok: boolean; status: number; text(): Promise<string>; headers: { get(n: string): string | null } }>;

/** The longest run of revisions read through the history route; past it the whole draft is loaded again. */
const MAX_SINCE = 200;

type DraftBody = { revision: number; base_version: number | null; document: Json };
type ErrorBody = { error?: { message?: string; code?: string; details?: Record<string, unknown> } } | null;

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) as unknown : null;
  } catch {
    return null;
  }
}

const toDraft = (d: DraftBody): ServerDraft => ({ revision: d.revision, baseVersion: d.base_version, doc: d.document });

/** The authoring API over HTTP, with the caller's bearer token. */
export function httpTransport(baseUrl: string, storyId: string, token: () => string | null, fetchImpl: Fetch): DraftTransport {
  const root = `${baseUrl}/api/authoring/stories/${encodeURIComponent(storyId)}`;
  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown; retryAfter: string | null }> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const t = token();
    if (t) headers.authorization = `Bearer ${t}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetchImpl(`${root}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    return { status: res.status, json: parseJson(text), retryAfter: res.headers.get('retry-after') };
  }
  const messageOf = (json: unknown, status: number): string => (json as ErrorBody)?.error?.message ?? `The server answered ${status}.`;
  async function must(method: string, path: string): Promise<unknown> {
    const r = await call(method, path);
    if (r.status !== 200) throw new Error(messageOf(r.json, r.status));
    return r.json;
  }
  return {
    async load() {
      return toDraft(await must('GET', '/draft') as DraftBody);
    },
    async send(baseRevision, changes) {
      let r: Awaited<ReturnType<typeof call>>;
      try {
        r = await call('POST', '/changes', { base_revision: baseRevision, changes });
      } catch (e) {
        return { kind: 'retry', offline: true, message: `Cannot reach the server: ${e instanceof Error ? e.message : String(e)}` };
      }
      const err = (r.json as ErrorBody)?.error;
      if (r.status === 200) {
        const w = r.json as { draft: DraftBody; merged: boolean };
        return { kind: 'written', draft: toDraft(w.draft), merged: w.merged };
      }
      if (r.status === 409 && err?.code === 'authoring/conflict') {
        const d = err.details as { revision: number; conflicts: ServerConflict[] };
        return { kind: 'conflict', revision: d.revision, conflicts: d.conflicts };
      }
      if (r.status === 422) return { kind: 'invalid', message: messageOf(r.json, 422), problems: (err?.details as { problems?: ServerProblem[] } | undefined)?.problems ?? [] };
      if (r.status === 429 || r.status >= 500) {
        const after = Number(r.retryAfter);
        return { kind: 'retry', offline: false, message: messageOf(r.json, r.status), ...(Number.isFinite(after) && after > 0 ? { afterMs: after * 1000 } : {}) };
      }
      return { kind: 'refused', status: r.status, message: messageOf(r.json, r.status) };
    },
    async since(after) {
      const head = await must('GET', '/history?limit=1') as RevisionChanges[];
      const newest = head[0]?.revision ?? 0;
      if (newest <= after) return [];
      if (newest - after > MAX_SINCE) return null;
      const list = await must('GET', `/history?limit=${newest - after}`) as RevisionChanges[];
      const wanted = list.filter((r) => r.revision > after).sort((a, b) => a.revision - b.revision);
      // A gap (revisions written between the two reads are newer, never missing): read the draft whole instead.
      return wanted.length > 0 && wanted[0]?.revision === after + 1 ? wanted.map((r) => ({ revision: r.revision, changes: r.changes })) : null;
    },
  };
}
