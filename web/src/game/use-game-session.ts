// The GameSession of a run for as long as a screen shows it. Sessions live in a small registry so that React's strict
// mode (render twice, mount-unmount-mount) reuses one session instead of opening two sockets; the last release
// disposes it on the next tick unless the screen mounted again meanwhile.
import { useEffect, useSyncExternalStore } from 'react';
import type { PlayModel } from '../../../engine/client/game-screen/model.js';
import type { PlayLanguage } from '../../../engine/schema/enums.js';
import type { PlayerStory } from '../../../engine/schema/player.js';
import { GameSession } from './game-session.js';

type Entry = { session: GameSession; refs: number; timer: ReturnType<typeof setTimeout> | null };
const sessions = new Map<string, Entry>();

function entryFor(run: PlayerStory, storyName: string, language: PlayLanguage): Entry {
  let e = sessions.get(run.id);
  if (!e) {
    e = { session: new GameSession(run, storyName, language), refs: 0, timer: null };
    sessions.set(run.id, e);
  }
  return e;
}

export function hasGameSession(runId: string): boolean {
  return sessions.has(runId);
}

/** Drops a run's session at once (closing the game: audio stops, state is reset). */
export function closeGameSession(runId: string): void {
  const e = sessions.get(runId);
  if (!e) return;
  sessions.delete(runId);
  if (e.timer) clearTimeout(e.timer);
  e.session.dispose();
}

export function useGameSession(run: PlayerStory, storyName: string, language: PlayLanguage): GameSession {
  const session = entryFor(run, storyName, language).session;
  useEffect(() => {
    const e = sessions.get(run.id);
    if (!e) return;
    e.refs++;
    if (e.timer) clearTimeout(e.timer);
    e.timer = null;
    return () => {
      e.refs--;
      if (e.refs > 0) return;
      e.timer = setTimeout(() => {
        if (e.refs === 0 && sessions.get(run.id) === e) closeGameSession(run.id);
      }, 0);
    };
  }, [run.id, session]);
  return session;
}

/** The model, redrawn on every change. */
export function usePlayModel(session: GameSession): PlayModel {
  return useSyncExternalStore(session.subscribe, () => session.model);
}

/** The session's own notice (a failed view read or End Current Run), beside the model. */
export function useNotice(session: GameSession): string | null {
  return useSyncExternalStore(session.subscribe, () => session.notice);
}
