-- 0008: tournament posts go through the outbox, and a lease names the claim that holds it.
-- PostgreSQL's version of the file of the same number one folder up (see that file for why):
-- PostgreSQL changes the constraints in place instead of rebuilding the table. A lease held
-- when the bot upgrades counts as the writer's hold (it runs out as before).

ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check CHECK (kind IN (
    'reminder', 'timeout', 'computer_move', 'round_paired', 'match_welcome', 'final_table'));
ALTER TABLE outbox ALTER COLUMN game_id DROP NOT NULL;
ALTER TABLE outbox ADD COLUMN lease_token TEXT;  -- a claim's random token, or 'writer'
UPDATE outbox SET lease_token = 'writer' WHERE lease_until IS NOT NULL;
