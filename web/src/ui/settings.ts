// The player's settings, kept in this browser (localStorage): volume (default 1, accounts spec §9), the game language
// (English or French, remembered globally and per story, accounts spec §2 "Launch screen") and reduced motion
// ('system' follows prefers-reduced-motion). A tiny external store: screens read it with useSettings().
import { useSyncExternalStore } from 'react';
import type { PlayLanguage } from '../../../engine/schema/enums.js';

export type ReducedMotion = 'system' | 'on' | 'off';

export type Settings = {
  readonly volume: number;
  readonly language: PlayLanguage;
  readonly reducedMotion: ReducedMotion;
};

export const DEFAULT_SETTINGS: Settings = { volume: 1, language: 'english', reducedMotion: 'system' };

const KEY = 'looptale:settings';
const STORY_LANGUAGE_KEY = (storyId: string) => `looptale:language:${storyId}`;

function read(): Settings {
  try {
    const raw = window.localStorage.getItem(KEY);
    if (!raw) return DEFAULT_SETTINGS;
    const v = JSON.parse(raw) as Partial<Record<keyof Settings, unknown>>;
    return {
      volume: typeof v.volume === 'number' && v.volume >= 0 && v.volume <= 1 ? v.volume : DEFAULT_SETTINGS.volume,
      language: v.language === 'french' ? 'french' : 'english',
      reducedMotion: v.reducedMotion === 'on' || v.reducedMotion === 'off' ? v.reducedMotion : 'system',
    };
  } catch {
    return DEFAULT_SETTINGS;
  }
}

let current: Settings = read();
const listeners = new Set<() => void>();

function apply(s: Settings): void {
  const root = document.documentElement;
  if (s.reducedMotion === 'system') delete root.dataset.reducedMotion;
  else root.dataset.reducedMotion = s.reducedMotion;
}
apply(current);

export function getSettings(): Settings {
  return current;
}

export function updateSettings(patch: Partial<Settings>): void {
  current = { ...current, ...patch };
  try {
    window.localStorage.setItem(KEY, JSON.stringify(current));
  } catch {
    // storage blocked: the settings hold for this visit
  }
  apply(current);
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSettings(): Settings {
  return useSyncExternalStore(subscribe, getSettings);
}

/** The language for a story: its own choice, else the global one. */
export function storyLanguage(storyId: string): PlayLanguage {
  try {
    const own = window.localStorage.getItem(STORY_LANGUAGE_KEY(storyId));
    if (own === 'english' || own === 'french') return own;
  } catch {
    // fall back to the global choice
  }
  return current.language;
}

/** Choosing a language on a launch screen remembers it for the story and globally. */
export function setStoryLanguage(storyId: string, language: PlayLanguage): void {
  try {
    window.localStorage.setItem(STORY_LANGUAGE_KEY(storyId), language);
  } catch {
    // the global choice below still holds
  }
  updateSettings({ language });
}

const reduceQuery = typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-reduced-motion: reduce)') : null;

function subscribeMotion(listener: () => void): () => void {
  reduceQuery?.addEventListener('change', listener);
  const off = subscribe(listener);
  return () => {
    reduceQuery?.removeEventListener('change', listener);
    off();
  };
}

/** Reduced motion as the player wants it: the app setting, else the system's. */
export function prefersReducedMotion(): boolean {
  if (current.reducedMotion !== 'system') return current.reducedMotion === 'on';
  return reduceQuery?.matches ?? false;
}

export function useReducedMotion(): boolean {
  return useSyncExternalStore(subscribeMotion, prefersReducedMotion);
}
