CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at","id");--> statement-breakpoint
-- The user search's index (admin list and the audit log's user filter): trigrams of each user's name and
-- e-mail, lower-cased and with the accents of Portuguese (and Latin-1) letters removed, so a
-- `like '%…%'` on the same expression is an index read. pg_trgm ships with PostgreSQL (contrib) and
-- is a trusted extension: the database's owner may create it. fastupdate off: new users go straight into
-- the index instead of a pending list that each search would read until the next VACUUM.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin ((translate(lower("full_name" || ' ' || "email"), 'ÁÀÂÃÄÅáàâãäåÉÈÊËéèêëÍÌÎÏíìîïÓÒÔÕÖóòôõöÚÙÛÜúùûüÇçÑñÝýÿ', 'aaaaaaaaaaaaeeeeeeeeiiiiiiiioooooooooouuuuuuuuccnnyyy')) gin_trgm_ops) WITH (fastupdate = off);
