-- A user's role across the product: player (the default: no row), author (may create stories and edit the stories
-- they own or were invited to: story_authors) or admin (edits every story and owns the fixture stories). One role per
-- user, set with `looptale user role EMAIL ROLE`; GET /api/me reports it. Admins granted before this migration stay
-- admins.
DO $migration$
BEGIN
ALTER TABLE looptale_private.user_roles DROP CONSTRAINT IF EXISTS user_roles_role_check;
ALTER TABLE looptale_private.user_roles ADD CONSTRAINT user_roles_role_check CHECK (role IN ('admin', 'author'));
IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'user_roles_one_per_user') THEN
  ALTER TABLE looptale_private.user_roles ADD CONSTRAINT user_roles_one_per_user UNIQUE (user_id);
END IF;
END
$migration$;
