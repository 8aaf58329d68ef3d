// The game server's HTTP API for every client (the CLI, the web app, tests and benches): one request helper with a
// bearer token, and a typed method per route the clients use. Browser-safe: the network comes in as `fetch` (the
// global one in a browser or in Node), so this file runs anywhere and does no I/O of its own.
import type { LaunchAction, LaunchState } from '../../catalogue/launch.js';
import type { StoryProgress } from '../../catalogue/progress.js';
import type { GraphLayout } from '../../story/graph-layout.js';
import type { PlayLanguage } from '../../schema/enums.js';
import type { DialogueEntry, PermanentCharacter, PermanentCharacterItem, PlayerStory, TicketWithStory } from '../../schema/player.js';
import type { CatalogueStory, GameView, MomentView, StaticCatalogue, StoryGraph, TicketCards } from '../../schema/views.js';

/** What this client needs of a fetch Response: Node's and the browser's both fit. */
export interface ResponseLike {
  readonly ok: boolean;
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => Promise<ResponseLike>;

/** A refused or failed request: the HTTP status (0 when the server was not reached), its message and error code. */
export class ApiError extends Error {
  constructor(readonly status: number, message: string, readonly code = '') {
    super(message);
    this.name = 'ApiError';
  }
}

export type Session = { access_token: string; refresh_token: string; user: { id: string; email?: string } };

/** GET /api/stories/:id/launch: the launch screen's state and its buttons. */
export type Launch = {
  state: LaunchState;
  continue_player_story_id: string | null;
  buttons: { action: LaunchAction; label: string }[];
  best_rank: string | null;
  runs: number;
};

/** GET /api/stories/:id: a story with its moments and their images (story modal, carousel). */
export type StoryDetail = {
  story: CatalogueStory;
  moments: { id: string; name: string; type: string; date: string; place_images: string[]; character_images: string[] }[];
  loop_max_number_of_interactions: number;
  sound_intro: string | null;
};

/** GET /auth/v1/settings: which sign-in providers the server offers. */
export type AuthSettings = { external: Record<string, boolean>; disable_signup: boolean; mailer_autoconfirm: boolean };

export type RedeemCard = { kind: 'character' | 'item'; id: string };
export type RedeemResult = { permanent_character: PermanentCharacter | null; permanent_items: PermanentCharacterItem[] };
export type PermanentCard = PermanentCharacter & { items: PermanentCharacterItem[]; media: { media_url: string }[] };
export type MomentDialogue = { player_moment_id: string; blueprint_moment_id: string; dialogue_history: DialogueEntry[] };
export type Me = { id: string; email: string | null; role: 'player' | 'author' | 'admin'; is_admin: boolean };
export type FeedbackKind = 'idea' | 'problem' | 'praise' | 'other';
export type FeedbackInput = { kind: FeedbackKind; message: string; page?: string };
export type Feedback = FeedbackInput & { id: string; user_id: string; email: string | null; page: string | null; created_at: string };
export type WaitlistRedemption = { email: string; redeemed_at: string; already_redeemed: boolean };

export type ApiOptions = {
  fetch: FetchLike;
  /** Where the token comes from when it changes under the client (supabase-js refreshes it); else `token` is used. */
  getToken?: () => string | null;
};

type ErrorBody = { error?: { message?: string; code?: string } | string; msg?: string; message?: string; error_description?: string; error_code?: string } | null;

function describe(e: unknown): string {
  if (e instanceof Error) {
    const cause = (e as { cause?: unknown }).cause;
    if (cause instanceof Error) return cause.message;
    return typeof cause === 'string' || typeof cause === 'number' ? String(cause) : e.message;
  }
  return String(e);
}

export class Api {
  readonly #fetch: FetchLike;
  readonly #getToken: (() => string | null) | null;

  constructor(readonly baseUrl: string, public token: string | null, opts: ApiOptions) {
    this.#fetch = opts.fetch;
    this.#getToken = opts.getToken ?? null;
  }

  /** The bearer token sent with requests (the provider's when one was given). */
  currentToken(): string | null {
    return this.#getToken ? this.#getToken() : this.token;
  }

  async request<T>(method: string, path: string, body?: unknown, init: { form?: boolean } = {}): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = this.currentToken();
    if (token) headers.authorization = `Bearer ${token}`;
    let payload: string | undefined;
    if (body !== undefined) {
      headers['content-type'] = init.form ? 'application/x-www-form-urlencoded' : 'application/json';
      payload = init.form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body);
    }
    let res: ResponseLike;
    try {
      res = await this.#fetch(`${this.baseUrl}${path}`, { method, headers, ...(payload !== undefined ? { body: payload } : {}) });
    } catch (e) {
      throw new ApiError(0, `Cannot reach the server at ${this.baseUrl || 'this address'}: ${describe(e)}`);
    }
    const text = await res.text();
    const type = res.headers.get('content-type') ?? '';
    const isJson = type.includes('json') && !type.includes('ndjson');
    let json: unknown = null;
    if (text && isJson) {
      try {
        json = JSON.parse(text) as unknown;
      } catch {
        json = null;
      }
    }
    if (!res.ok) {
      const j = json as ErrorBody;
      const message = typeof j?.error === 'object' ? j.error.message : j?.msg ?? j?.error_description ?? j?.message ?? (typeof j?.error === 'string' ? j.error : text);
      const code = typeof j?.error === 'object' ? j.error.code ?? '' : j?.error_code ?? '';
      throw new ApiError(res.status, message || `HTTP ${res.status}`, code);
    }
    return (json ?? text) as T;
  }

  // ---- auth (the Supabase Auth shapes under /auth/v1; the web app signs in through supabase-js instead)

  async signUp(email: string, password: string): Promise<Session> {
    const s = await this.request<Session>('POST', '/auth/v1/signup', { email, password });
    this.token = s.access_token;
    return s;
  }

  async signIn(email: string, password: string): Promise<Session> {
    const s = await this.request<Session>('POST', '/auth/v1/token?grant_type=password', { email, password });
    this.token = s.access_token;
    return s;
  }

  /** Signs in, or signs up when the account does not exist yet. */
  async signInOrUp(email: string, password: string): Promise<Session> {
    try {
      return await this.signIn(email, password);
    } catch (e) {
      if (e instanceof ApiError && e.status === 400) return this.signUp(email, password);
      throw e;
    }
  }

  authSettings(): Promise<AuthSettings> {
    return this.request('GET', '/auth/v1/settings');
  }

  /** POST /marketing/waitlist_redeem, form-urlencoded as the spec sends it. */
  redeemInvite(email: string, inviteToken: string): Promise<WaitlistRedemption> {
    return this.request('POST', '/marketing/waitlist_redeem', { email, invite_token: inviteToken }, { form: true });
  }

  // ---- catalogue

  staticCatalogue(): Promise<StaticCatalogue> {
    return this.request('GET', '/data/catalogue.json');
  }

  stories(): Promise<CatalogueStory[]> {
    return this.request('GET', '/api/stories');
  }

  story(storyId: string): Promise<StoryDetail> {
    return this.request('GET', `/api/stories/${encodeURIComponent(storyId)}`);
  }

  /** The caller's progress in each story they started (runs, best rank, moments reached). */
  progress(): Promise<StoryProgress[]> {
    return this.request('GET', '/api/me/progress');
  }

  // ---- launch and runs

  launch(storyId: string): Promise<Launch> {
    return this.request('GET', `/api/stories/${encodeURIComponent(storyId)}/launch`);
  }

  createRun(storyId: string, language: PlayLanguage): Promise<PlayerStory> {
    return this.request('POST', '/api/player-stories', { blueprint_story_id: storyId, language });
  }

  resetProgress(storyId: string, language: PlayLanguage): Promise<PlayerStory> {
    return this.request('POST', `/api/stories/${encodeURIComponent(storyId)}/reset-progress`, { language });
  }

  playerStory(playerStoryId: string): Promise<PlayerStory> {
    return this.request('GET', `/api/player-stories/${encodeURIComponent(playerStoryId)}`);
  }

  /** The game view, or null once the run has no current moment (it ended) or is no longer the current one. */
  async gameView(playerStoryId: string): Promise<GameView | null> {
    try {
      return await this.request<GameView>('GET', `/api/player-stories/${encodeURIComponent(playerStoryId)}/game-view`);
    } catch (e) {
      if (e instanceof ApiError && (e.status === 404 || e.status === 409)) return null;
      throw e;
    }
  }

  /** The run so far as moment nodes (the game screen's story graph). */
  runGraph(playerStoryId: string): Promise<StoryGraph> {
    return this.request('GET', `/api/player-stories/${encodeURIComponent(playerStoryId)}/story-graph`);
  }

  momentView(playerStoryId: string): Promise<MomentView> {
    return this.request('GET', `/api/player-stories/${encodeURIComponent(playerStoryId)}/moment-view`);
  }

  dialogue(playerStoryId: string): Promise<MomentDialogue[]> {
    return this.request('GET', `/api/player-stories/${encodeURIComponent(playerStoryId)}/dialogue`);
  }

  /** End Current Run: the run is lost and its rank stored. */
  endRun(playerStoryId: string): Promise<PlayerStory> {
    return this.request('POST', `/api/player-stories/${encodeURIComponent(playerStoryId)}/end`);
  }

  // ---- golden tickets

  tickets(): Promise<TicketWithStory[]> {
    return this.request('GET', '/api/tickets');
  }

  /** The redeem picker's cards: characters and items of the latest run of the ticket's story. */
  ticketCards(ticketId: string): Promise<TicketCards> {
    return this.request('GET', `/api/tickets/${encodeURIComponent(ticketId)}/cards`);
  }

  redeemTicket(ticketId: string, card: RedeemCard): Promise<RedeemResult> {
    return this.request('POST', `/api/tickets/${encodeURIComponent(ticketId)}/redeem`, { card });
  }

  permanentCharacters(): Promise<PermanentCard[]> {
    return this.request('GET', '/api/permanent-characters');
  }

  // ---- account, feedback, admin

  /** The caller: id, email, and whether they are an admin (looptale admins --add). */
  me(): Promise<Me> {
    return this.request('GET', '/api/me');
  }

  sendFeedback(feedback: FeedbackInput): Promise<Feedback> {
    return this.request('POST', '/api/feedback', feedback);
  }

  /** Admins only (403 otherwise): feedback, newest first. */
  adminFeedback(limit = 50): Promise<Feedback[]> {
    return this.request('GET', `/api/admin/feedback?limit=${limit}`);
  }

  /** Admins and the story's authors (403 otherwise): the moment graph, laid out for drawing. */
  storyGraph(storyId: string, lang: 'en' | 'fr' = 'en'): Promise<GraphLayout> {
    return this.request('GET', `/api/admin/stories/${encodeURIComponent(storyId)}/graph?lang=${lang}`);
  }
}
