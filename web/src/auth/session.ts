// The auth session as an external store (useSyncExternalStore): subscribed at module load, so the SIGNED_IN that
// supabase-js emits while it reads a magic link's tokens from the URL is never missed. `loading` until the session
// is known (the full-page spinner); the access token goes to the API client on every change (refreshes included).
import type { AuthChangeEvent, Session } from '@supabase/supabase-js';
import { useSyncExternalStore } from 'react';
import { accessTokenRefreshed, setAccessToken } from '../api/client.js';
import { auth, openedFromAuthLink as fromUrl } from './auth-client.js';

export type SessionState =
  | { readonly status: 'loading' }
  | { readonly status: 'signed_out' }
  | { readonly status: 'signed_in'; readonly session: Session; readonly userId: string; readonly email: string };

export type SessionSnapshot = {
  readonly state: SessionState;
  /** Counts sign-ins from a signed-out state in this page (the modal, or a link that came back signed in). */
  readonly signIns: number;
  /** A password-reset link was opened: the player is signed in to choose a new password. */
  readonly recovering: boolean;
  readonly lastEvent: AuthChangeEvent | null;
};

let snapshot: SessionSnapshot = { state: { status: 'loading' }, signIns: 0, recovering: false, lastEvent: null };
const listeners = new Set<() => void>();

function set(next: SessionSnapshot): void {
  snapshot = next;
  for (const l of listeners) l();
}

function stateOf(session: Session | null): SessionState {
  if (!session) return { status: 'signed_out' };
  return { status: 'signed_in', session, userId: session.user.id, email: session.user.email ?? '' };
}

auth.onAuthStateChange((event, session) => {
  // A refresh also goes to the open game socket, which the server closes when its first token expires otherwise.
  if (event === 'TOKEN_REFRESHED' && session) accessTokenRefreshed(session.access_token);
  else setAccessToken(session?.access_token ?? null);
  const before = snapshot.state.status;
  const state = stateOf(session);
  const cameBack = state.status === 'signed_in' && (before === 'signed_out' || (before === 'loading' && event === 'SIGNED_IN' && fromUrl));
  set({
    state,
    signIns: snapshot.signIns + (cameBack ? 1 : 0),
    recovering: event === 'PASSWORD_RECOVERY' ? true : state.status === 'signed_out' ? false : snapshot.recovering,
    lastEvent: event,
  });
});


export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getSnapshot(): SessionSnapshot {
  return snapshot;
}

export function useSession(): SessionSnapshot {
  return useSyncExternalStore(subscribe, getSnapshot);
}

/** The recovery form is done (new password saved, or abandoned). */
export function endRecovery(): void {
  set({ ...snapshot, recovering: false });
}

export async function signOut(): Promise<void> {
  await auth.signOut();
}
