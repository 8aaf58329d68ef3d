// The options of `looptale play`, checked once before anything is sent: a bad option is a usage error (exit 2).
import type { PlayLanguage } from '../../engine/schema/enums.js';
import { CliError } from '../lib/story-file.js';
import type { Credentials } from './session.js';

export type RawPlayOptions = {
  url: string;
  story?: string;
  email?: string;
  password?: string;
  token?: string;
  language?: string;
  script?: string;
  audio?: string[];
  mic?: boolean;
  saveAudio?: string;
  mute?: boolean;
  json?: boolean;
  plain?: boolean;
  newRun?: boolean;
  resetProgress?: boolean;
};

export type PlayOptions = {
  url: string;
  story: string;
  credentials: Credentials;
  /** Null when not given: a continued run keeps its language, a test plan may name one; else English. */
  language: PlayLanguage | null;
  script: string | null;
  audio: string[];
  mic: boolean;
  saveAudio: string | null;
  mute: boolean;
  json: boolean;
  plain: boolean;
  newRun: boolean;
  resetProgress: boolean;
};

const LANGUAGES: Record<string, PlayLanguage> = { en: 'english', english: 'english', fr: 'french', french: 'french', français: 'french' };

export function parseLanguage(v: string): PlayLanguage {
  const l = LANGUAGES[v.trim().toLowerCase()];
  if (!l) throw new CliError(`--language must be en or fr (got '${v}')`);
  return l;
}

export function parseUrl(v: string): string {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new CliError(`--url must be a URL such as http://127.0.0.1:8787 (got '${v}')`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new CliError(`--url must start with http:// or https:// (got '${v}')`);
  return u.toString().replace(/\/+$/, '');
}

/** Options first, then the environment (LOOPTALE_TOKEN, LOOPTALE_EMAIL, LOOPTALE_PASSWORD): passwords stay out of `ps`. */
export function parsePlayOptions(o: RawPlayOptions, env: NodeJS.ProcessEnv = process.env): PlayOptions {
  if (!o.story?.trim()) throw new CliError('--story is required (a story id or name, e.g. --story "The Lantern Keeper")');
  const token = o.token ?? env.LOOPTALE_TOKEN;
  const email = o.email ?? env.LOOPTALE_EMAIL;
  const password = o.password ?? env.LOOPTALE_PASSWORD;
  if (o.token && (o.email || o.password)) throw new CliError('give either --token or --email and --password, not both');
  let credentials: Credentials;
  if (token && !o.email) credentials = { token };
  else if (email && password) credentials = { email, password };
  else if (email) throw new CliError('--password is required with --email (or set LOOPTALE_PASSWORD)');
  else throw new CliError('sign in with --email and --password, or --token (or set LOOPTALE_EMAIL and LOOPTALE_PASSWORD, or LOOPTALE_TOKEN)');
  const audio = o.audio ?? [];
  const sources = [o.script ? '--script' : '', audio.length ? '--audio' : '', o.mic ? '--mic' : ''].filter(Boolean);
  if (sources.length > 1) throw new CliError(`${sources.join(' and ')} cannot be used together: choose one source of turns`);
  if (o.newRun && o.resetProgress) throw new CliError('--new-run and --reset-progress cannot be used together (resetting starts a new run)');
  return {
    url: parseUrl(o.url),
    story: o.story.trim(),
    credentials,
    language: o.language === undefined ? null : parseLanguage(o.language),
    script: o.script ?? null,
    audio,
    mic: Boolean(o.mic),
    saveAudio: o.saveAudio ?? null,
    mute: Boolean(o.mute),
    json: Boolean(o.json),
    plain: Boolean(o.plain),
    newRun: Boolean(o.newRun),
    resetProgress: Boolean(o.resetProgress),
  };
}
