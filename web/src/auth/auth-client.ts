// Sign-in through @supabase/supabase-js against the game server's /auth/v1 (the Supabase Auth API). Only the auth
// part of supabase-js is used: the app's data comes from /api, so the catalogue does not ship the realtime, storage
// and PostgREST clients that createClient() would build (about 35 KB gzip).
import { AuthClient } from '@supabase/supabase-js';
import { SERVER_URL } from '../api/client.js';

/** The public anonymous-role key: the local server ignores it; a Supabase deployment sets VITE_SUPABASE_ANON_KEY. */
const ANON_KEY: string = (import.meta.env.VITE_SUPABASE_ANON_KEY as string | undefined) ?? 'looptale-public-anon-key';

/** The page was opened from an auth email (tokens in the fragment): read before supabase-js consumes and clears it. */
export const openedFromAuthLink = /access_token=|error_description=/.test(window.location.hash);

export const auth = new AuthClient({
  url: `${SERVER_URL}/auth/v1`,
  headers: { apikey: ANON_KEY, Authorization: `Bearer ${ANON_KEY}` },
  storageKey: `sb-${window.location.hostname}-auth-token`,
  autoRefreshToken: true,
  persistSession: true,
  detectSessionInUrl: true,
  flowType: 'implicit',
});

/** Where auth emails send the player back: the site's origin (the spec's redirect). */
export const REDIRECT_TO = SERVER_URL;
