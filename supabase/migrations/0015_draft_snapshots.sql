-- A draft is stored as its changes, not rewritten whole at each one (docs/authoring-design.md, "Bench"): its document
-- at revision R is the newest snapshot at or before R with the revisions after it applied in order. Each server
-- process keeps the drafts it edits parsed in memory and checks them against story_drafts.revision under the row's
-- lock; a snapshot is written every few hundred revisions, after the answer, so a process that has not the draft
-- in memory replays a bounded number of revisions.
--   story_draft_snapshots: the document at a revision (only the newest one is kept, older ones are deleted).
--   story_drafts.name:     the draft's name, kept with each change, for the list of stories an author may edit.
-- The revisions' changes and inverses become `json` like the documents, so that replaying them gives back each
-- value's own key order (jsonb sorts keys).
DO $migration$
BEGIN
CREATE TABLE IF NOT EXISTS looptale_private.story_draft_snapshots (
  story_id uuid NOT NULL REFERENCES looptale_private.story_drafts (story_id) ON DELETE CASCADE,
  revision integer NOT NULL CHECK (revision >= 0),
  document json NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (story_id, revision)
);

ALTER TABLE looptale_private.story_drafts ADD COLUMN IF NOT EXISTS name text NOT NULL DEFAULT '';

IF EXISTS (SELECT 1 FROM information_schema.columns
            WHERE table_schema = 'looptale_private' AND table_name = 'story_drafts' AND column_name = 'document') THEN
  INSERT INTO looptale_private.story_draft_snapshots (story_id, revision, document)
  SELECT story_id, revision, document FROM looptale_private.story_drafts
  ON CONFLICT DO NOTHING;
  UPDATE looptale_private.story_drafts SET name = COALESCE(document->>'name', '');
  ALTER TABLE looptale_private.story_drafts DROP COLUMN document, DROP COLUMN report;
END IF;

ALTER TABLE looptale_private.story_revisions ALTER COLUMN changes TYPE json USING changes::json;
ALTER TABLE looptale_private.story_revisions ALTER COLUMN inverse TYPE json USING inverse::json;

ALTER TABLE looptale_private.story_draft_snapshots ENABLE ROW LEVEL SECURITY;
END
$migration$;
