-- Local authentication (AUTH_PROVIDER=local) in the shape of Supabase Auth (GoTrue): users, sessions, rotating refresh
-- tokens, one-time email tokens, external identities (Google), PKCE flow state, OAuth state; plus
-- marketing.waitlist_redemptions.
-- In a schema of its own, looptale_auth, never `auth`: on Supabase that schema belongs to Supabase Auth (its own users,
-- sessions and refresh_tokens; `postgres` may not create anything there). The first version of this file created these
-- tables in `auth`; 0003_schemas.sql moves a database made by that version here.
-- Secrets are never stored in clear: refresh tokens, email links and codes are SHA-256 digests; passwords are scrypt.
-- One DO block, i.e. one statement: the migration runner sends a file as a single query (see 0001_core.sql).
DO $migration$
BEGIN

CREATE SCHEMA IF NOT EXISTS looptale_auth;

CREATE TABLE IF NOT EXISTS looptale_auth.users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Always stored lower-case; unique case-insensitively. NULL is allowed for accounts without an email.
  email text CHECK (email IS NULL OR email = lower(email)),
  -- 'scrypt$<log2 N>$<r>$<p>$<salt b64url>$<hash b64url>' or NULL (magic-link and Google-only accounts).
  encrypted_password text,
  email_confirmed_at timestamptz,
  confirmation_sent_at timestamptz,
  recovery_sent_at timestamptz,
  -- A pending email change waiting for confirmation from the new address.
  email_change text,
  email_change_sent_at timestamptz,
  role text NOT NULL DEFAULT 'authenticated',
  raw_app_meta_data jsonb NOT NULL DEFAULT '{}'::jsonb,
  raw_user_meta_data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  last_sign_in_at timestamptz,
  banned_until timestamptz
);
CREATE UNIQUE INDEX IF NOT EXISTS users_email_key ON looptale_auth.users (lower(email)) WHERE email IS NOT NULL;

CREATE TABLE IF NOT EXISTS looptale_auth.identities (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES looptale_auth.users (id) ON DELETE CASCADE,
  provider text NOT NULL,
  -- The provider's subject ('sub' for Google; the user id for the email provider).
  provider_id text NOT NULL,
  identity_data jsonb NOT NULL DEFAULT '{}'::jsonb,
  email text,
  last_sign_in_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider, provider_id)
);
CREATE INDEX IF NOT EXISTS identities_user_id_idx ON looptale_auth.identities (user_id);

CREATE TABLE IF NOT EXISTS looptale_auth.sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES looptale_auth.users (id) ON DELETE CASCADE,
  aal text NOT NULL DEFAULT 'aal1',
  -- [{ "method": "password" | "otp" | "oauth" | ..., "timestamp": <unix seconds> }]
  amr jsonb NOT NULL DEFAULT '[]'::jsonb,
  user_agent text,
  ip text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  refreshed_at timestamptz,
  -- Set when the session ends (logout, refresh-token reuse, password change); kept a while so other server processes
  -- sharing the database can notice and close the user's sockets.
  ended_at timestamptz,
  end_reason text
);
CREATE INDEX IF NOT EXISTS sessions_user_id_idx ON looptale_auth.sessions (user_id) WHERE ended_at IS NULL;
CREATE INDEX IF NOT EXISTS sessions_ended_at_idx ON looptale_auth.sessions (ended_at) WHERE ended_at IS NOT NULL;

-- Opaque refresh tokens, hashed. Each use revokes the token and issues a child; presenting a revoked token again
-- (reuse) ends the whole session.
CREATE TABLE IF NOT EXISTS looptale_auth.refresh_tokens (
  id bigserial PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  session_id uuid NOT NULL REFERENCES looptale_auth.sessions (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES looptale_auth.users (id) ON DELETE CASCADE,
  parent_id bigint REFERENCES looptale_auth.refresh_tokens (id) ON DELETE SET NULL,
  revoked boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS refresh_tokens_session_id_idx ON looptale_auth.refresh_tokens (session_id);

-- Email links and codes (magic link, recovery, signup confirmation, invite, email change). One live token per user and
-- type; single use; expiring; a code guessed wrong too often is burnt.
CREATE TABLE IF NOT EXISTS looptale_auth.one_time_tokens (
  id bigserial PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES looptale_auth.users (id) ON DELETE CASCADE,
  token_type text NOT NULL CHECK (token_type IN ('signup', 'invite', 'magiclink', 'recovery', 'email_change')),
  -- SHA-256 of the secret in the email link (also what clients pass as token_hash).
  link_hash text NOT NULL UNIQUE,
  -- SHA-256 of '<email>:<6-digit code>'.
  otp_hash text NOT NULL,
  -- The address the email went to (the new address for an email change).
  relates_to text NOT NULL,
  redirect_to text,
  code_challenge text,
  code_challenge_method text,
  failed_attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  UNIQUE (user_id, token_type)
);
CREATE INDEX IF NOT EXISTS one_time_tokens_relates_to_idx ON looptale_auth.one_time_tokens (relates_to);

-- PKCE: an auth code handed to the client's redirect, exchanged once with the code verifier.
CREATE TABLE IF NOT EXISTS looptale_auth.flow_state (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES looptale_auth.users (id) ON DELETE CASCADE,
  auth_code_hash text NOT NULL UNIQUE,
  code_challenge text NOT NULL,
  code_challenge_method text NOT NULL CHECK (code_challenge_method IN ('s256', 'plain')),
  authentication_method text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);

-- OAuth (Google) round trips in flight: keyed by the hash of the state parameter, single use, short-lived.
CREATE TABLE IF NOT EXISTS looptale_auth.oauth_states (
  state_hash text PRIMARY KEY,
  provider text NOT NULL,
  -- Our PKCE verifier towards the provider and the id_token nonce (needed in clear for the code exchange).
  code_verifier text NOT NULL,
  nonce text NOT NULL,
  redirect_to text NOT NULL,
  code_challenge text,
  code_challenge_method text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);

-- Invitations redeemed after sign-in (POST /marketing/waitlist_redeem). One redemption per email and per invite
-- token; redeeming the same pair again is a no-op. user_id has no foreign key so that a deleted account keeps the
-- marketing record (and AUTH_PROVIDER=supabase users need no local row).
CREATE SCHEMA IF NOT EXISTS marketing;
CREATE TABLE IF NOT EXISTS marketing.waitlist_redemptions (
  id bigserial PRIMARY KEY,
  email text NOT NULL CHECK (email = lower(email)),
  invite_token text NOT NULL,
  user_id uuid,
  redeemed_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX IF NOT EXISTS waitlist_redemptions_email_key ON marketing.waitlist_redemptions (email);
CREATE UNIQUE INDEX IF NOT EXISTS waitlist_redemptions_invite_token_key ON marketing.waitlist_redemptions (invite_token);

END
$migration$;
