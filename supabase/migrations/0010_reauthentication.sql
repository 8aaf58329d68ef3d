-- Reauthentication codes (GET /auth/v1/reauthenticate, as Supabase Auth): a 6-digit nonce sent to the account's
-- address, which a password or email change from a session signed in long ago may carry instead of the current
-- password. Kept with the other one-time tokens (one live per user, single use, expiring, burnt after wrong guesses).
DO $migration$
BEGIN
ALTER TABLE looptale_auth.one_time_tokens DROP CONSTRAINT IF EXISTS one_time_tokens_token_type_check;
ALTER TABLE looptale_auth.one_time_tokens ADD CONSTRAINT one_time_tokens_token_type_check
  CHECK (token_type IN ('signup', 'invite', 'magiclink', 'recovery', 'email_change', 'reauthentication'));
END
$migration$;
