// The HTTP side of `looptale play`: signing in (or up), finding the story, the launch state and its choices, and
// starting, continuing or resetting a run. Expected failures become CliErrors with the exit code they deserve.
import type { LaunchAction } from '../../engine/catalogue/launch.js';
import { Link } from '../../engine/client/api/link.js';
import type { PlayLanguage } from '../../engine/schema/enums.js';
import type { PlayerStory } from '../../engine/schema/player.js';
import type { CatalogueStory } from '../../engine/schema/views.js';
import { Api, ApiError, GameSocket, type Launch, nodeClock, type Session } from '../lib/game-client.js';
import { CliError } from '../lib/story-file.js';

export type { Launch } from '../lib/game-client.js';
export type Credentials = { token: string } | { email: string; password: string };

/** An ApiError as a failure (exit 1); the server being unreachable names the URL. */
export function failure(e: unknown, what: string): never {
  if (e instanceof CliError) throw e;
  if (e instanceof ApiError) {
    if (e.status === 0) throw new CliError(e.message, 1);
    throw new CliError(`${what}: ${e.message}${e.status ? ` (HTTP ${e.status})` : ''}`, 1);
  }
  throw e;
}

async function signInOrUp(api: Api, email: string, password: string): Promise<void> {
  try {
    await api.signIn(email, password);
    return;
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 400) failure(e, 'Sign-in failed');
    if (/confirm/i.test(e.message)) throw new CliError(`Sign-in failed for ${email}: ${e.message}`, 1);
  }
  // No such account, or a wrong password: signing up tells the two apart.
  let s: Session;
  try {
    s = await api.signUp(email, password);
  } catch (e) {
    if (e instanceof ApiError && e.status === 422 && /already/i.test(e.message)) {
      throw new CliError(`Sign-in failed for ${email}: wrong password (the account exists).`, 1);
    }
    failure(e, `Cannot create an account for ${email}`);
  }
  if (!s.access_token) {
    api.token = null;
    throw new CliError(`An account was created for ${email}: confirm it from the email the server sent, then run this again.`, 1);
  }
}

export async function connectApi(url: string, creds: Credentials): Promise<Api> {
  const api = new Api(url);
  if ('token' in creds) {
    api.token = creds.token;
    try {
      await api.request('GET', '/auth/v1/user');
    } catch (e) {
      if (e instanceof ApiError && (e.status === 401 || e.status === 403)) throw new CliError('The token was refused (expired or invalid): sign in with --email and --password.', 1);
      failure(e, 'Cannot check the token');
    }
    return api;
  }
  await signInOrUp(api, creds.email, creds.password);
  return api;
}

/** A story by id or by name (any case; a unique part of a name will do). */
export async function findStory(api: Api, query: string): Promise<CatalogueStory> {
  let stories: CatalogueStory[];
  try {
    stories = await api.request<CatalogueStory[]>('GET', '/api/stories');
  } catch (e) {
    failure(e, 'Cannot list the stories');
  }
  const q = query.trim().toLowerCase();
  const exact = stories.find((s) => s.id.toLowerCase() === q || s.name.toLowerCase() === q);
  if (exact) return exact;
  const partial = stories.filter((s) => s.name.toLowerCase().includes(q));
  const [only] = partial;
  if (only && partial.length === 1) return only;
  const names = (partial.length > 1 ? partial : stories).map((s) => `"${s.name}"`).join(', ');
  if (partial.length > 1) throw new CliError(`Story not found: '${query}' matches several stories: ${names}`, 1);
  throw new CliError(`Story not found: '${query}'.${names ? ` Stories on this server: ${names}` : ' This server has no stories.'}`, 1);
}

export async function launchOf(api: Api, storyId: string): Promise<Launch> {
  try {
    return await api.request<Launch>('GET', `/api/stories/${storyId}/launch`);
  } catch (e) {
    failure(e, 'Cannot read the launch state');
  }
}

/** Carries out a launch choice (not 'continue' without a run to continue); returns the run to play. */
export async function applyLaunch(api: Api, storyId: string, launch: Launch, action: LaunchAction, language: PlayLanguage): Promise<PlayerStory> {
  try {
    switch (action) {
      case 'continue':
        if (launch.continue_player_story_id) return await api.request<PlayerStory>('GET', `/api/player-stories/${launch.continue_player_story_id}`);
        return await api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: storyId, language });
      case 'start_first':
      case 'new_run':
        return await api.request<PlayerStory>('POST', '/api/player-stories', { blueprint_story_id: storyId, language });
      case 'reset':
        return await api.request<PlayerStory>('POST', `/api/stories/${storyId}/reset-progress`, { language });
    }
  } catch (e) {
    if (action === 'reset') failure(e, 'Failed to reset progress');
    failure(e, 'Failed to create a new game. Please try again.');
  }
}

/** The unattended choice: continue an ongoing run, else start one (a new run when forced). */
export function automaticAction(launch: Launch, opts: { newRun: boolean; reset: boolean }): LaunchAction {
  if (opts.reset) return 'reset';
  if (launch.state === 'FRESH') return 'start_first';
  if (launch.state === 'ONGOING' && !opts.newRun) return 'continue';
  return 'new_run';
}

/** Opens the realtime link (the engine's connection machine over `ws` sockets); failing to open it is exit 1. */
export async function openLink(url: string, token: string): Promise<Link> {
  try {
    return await Link.open(() => GameSocket.connect(url, token), nodeClock);
  } catch (e) {
    throw new CliError(`Cannot open the game connection: ${(e as Error).message}`, 1);
  }
}
