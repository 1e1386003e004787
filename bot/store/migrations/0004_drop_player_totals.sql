-- 0004: `players` keeps only the name to show.
-- Why: since 0003 every statistic and rating is read from `ratings`, `rating_history` and the
-- games themselves; the per-player totals of 0001 (and its unused Glicko-2 columns) were still
-- written at every game end but never read. None of them is part of an index or constraint, so
-- they can simply be dropped.

ALTER TABLE players DROP COLUMN rating;
ALTER TABLE players DROP COLUMN rating_deviation;
ALTER TABLE players DROP COLUMN volatility;
ALTER TABLE players DROP COLUMN games;
ALTER TABLE players DROP COLUMN wins;
ALTER TABLE players DROP COLUMN draws;
ALTER TABLE players DROP COLUMN losses;
ALTER TABLE players DROP COLUMN points;
ALTER TABLE players DROP COLUMN match_wins;
