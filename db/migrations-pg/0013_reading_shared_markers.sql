ALTER TABLE "reading_digest_sends" ADD COLUMN "failed_at" bigint;--> statement-breakpoint
-- The required-reading report's totals, shared by every instance: a confirmation bumps this
-- counter in its own transaction (statement trigger), and each instance counts again when the
-- value it last counted at has moved (src/lib/server/reading/tallies.ts). Its own row, not
-- cache_version's: a confirmation does not empty the session caches, and a sign-in does not recount.
CREATE TABLE "reading_tally_version" (
	"id" integer PRIMARY KEY CHECK ("id" = 1),
	"version" bigint NOT NULL
);
--> statement-breakpoint
INSERT INTO "reading_tally_version" ("id", "version") VALUES (1, 0) ON CONFLICT ("id") DO NOTHING;
--> statement-breakpoint
CREATE FUNCTION "bump_reading_tally_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "reading_tally_version" SET "version" = "version" + 1 WHERE "id" = 1;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "reading_confirmations_bump_tally_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "reading_confirmations" FOR EACH STATEMENT EXECUTE FUNCTION "bump_reading_tally_version"();
