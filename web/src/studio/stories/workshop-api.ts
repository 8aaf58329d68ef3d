// The studio's calls for the stories list, the story page's media and history (server/authoring/*.ts), over the app's
// one API client. Story edits never go through here: they are the draft layer's (useDraft().apply).
import { ApiError } from '../../../../engine/client/api/http.js';
import type { Problem } from '../../../../engine/story/validate.js';
import { api, getAccessToken, SERVER_URL } from '../../api/client.js';

export type WorkshopStory = { id: string; name: string; published_version: number | null; draft_revision: number | null; updated_at: string };
export type DeletedStory = { id: string; name: string; deleted_at: string; deleted_by: string | null; purge_at: string; published_version: number | null };
export type Template = { id: string; name: string; description: string; moments: number };
export type Written = { draft: { story_id: string; revision: number; report: Problem[]; publishable: boolean }; merged: boolean; version?: number };
export type Revision = {
  revision: number; author_id: string | null; at: string; summary: string;
  diff: { path: string; before?: unknown; after?: unknown }[];
};
export type Version = { version: number; published_by: string | null; published_at: string; note: string | null };

const story = (id: string): string => `/api/authoring/stories/${encodeURIComponent(id)}`;

export const workshopKeys = {
  stories: ['studio', 'stories'] as const,
  deleted: ['studio', 'deleted'] as const,
  templates: ['studio', 'templates'] as const,
  history: (id: string) => ['studio', 'history', id] as const,
  versions: (id: string) => ['studio', 'versions', id] as const,
};

export const workshop = {
  stories: () => api.request<WorkshopStory[]>('GET', '/api/authoring/stories'),
  deleted: () => api.request<DeletedStory[]>('GET', '/api/authoring/deleted'),
  templates: () => api.request<Template[]>('GET', '/api/authoring/templates'),
  fromTemplate: (template: string, name?: string) => api.request<Written>('POST', '/api/authoring/stories/from-template', { template, ...(name ? { name } : {}) }),
  importFile: (file: unknown) => api.request<Written>('POST', '/api/authoring/stories', { story: file }),
  duplicate: (id: string) => api.request<Written>('POST', `${story(id)}/duplicate`, {}),
  remove: (id: string) => api.request<DeletedStory>('DELETE', story(id)),
  undelete: (id: string) => api.request<{ id: string }>('POST', `${story(id)}/undelete`),
  history: (id: string, before?: number) => api.request<Revision[]>('GET', `${story(id)}/history?limit=20${before !== undefined ? `&before=${before}` : ''}`),
  versions: (id: string) => api.request<Version[]>('GET', `${story(id)}/versions`),
  restore: (id: string, baseRevision: number, revision: number) => api.request<Written>('POST', `${story(id)}/restore`, { base_revision: baseRevision, revision }),
  publish: (id: string, baseRevision: number, note?: string) => api.request<Written>('POST', `${story(id)}/publish`, { base_revision: baseRevision, ...(note ? { note } : {}) }),
  exportPath: (id: string) => `${story(id)}/export`,
  archivePath: (id: string) => `/api/stories/${encodeURIComponent(id)}/archive`,
};

/** The server's refusal as the author reads it: its message, and the validator's problems when it gave them. */
export function refusalText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Sends raw bytes (a .tar archive, an image, a sound) with the session's token; the JSON answer or an ApiError. */
export async function sendBytes<T>(method: 'POST' | 'PUT', path: string, body: Blob, contentType: string, headers: Record<string, string> = {}): Promise<T> {
  const token = getAccessToken();
  const res = await window.fetch(`${SERVER_URL}${path}`, {
    method, body, headers: { 'content-type': contentType, accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) as unknown : null;
  } catch {
    json = null;
  }
  if (!res.ok) {
    const err = (json as { error?: { message?: string; code?: string } } | null)?.error;
    throw new ApiError(res.status, err?.message ?? `HTTP ${res.status}`, err?.code ?? '');
  }
  return json as T;
}

/** Downloads a file the server gives only with the session's token, under `name`. */
export async function download(path: string, name: string): Promise<void> {
  const token = getAccessToken();
  const res = await window.fetch(`${SERVER_URL}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!res.ok) {
    const text = await res.text();
    let message = `HTTP ${res.status}`;
    try {
      message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? message;
    } catch {
      // not JSON: keep the status
    }
    throw new ApiError(res.status, message);
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file name from a story name ("The Lantern Keeper" -> "the-lantern-keeper"). */
export function fileNameOf(name: string): string {
  return name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'story';
}
