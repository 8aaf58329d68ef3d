-- Waitlist invitations issued by this server (`looptale waitlist invite EMAIL`): each for one address, stored as the
-- SHA-256 of its token (the token itself is only in the link sent to the invitee). POST /marketing/waitlist_redeem
-- accepts only a token issued here for the caller's own address, so a made-up or someone else's token is refused.
-- Redemptions made from now on keep the token's digest in waitlist_redemptions.invite_token, not the token.
DO $migration$
BEGIN
CREATE TABLE IF NOT EXISTS marketing.waitlist_invitations (
  token_hash text PRIMARY KEY,
  email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS waitlist_invitations_email_idx ON marketing.waitlist_invitations (lower(email));
ALTER TABLE marketing.waitlist_invitations ENABLE ROW LEVEL SECURITY;
END
$migration$;
