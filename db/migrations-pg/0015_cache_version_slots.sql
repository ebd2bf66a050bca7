-- The change counter in 32 slots. With one row, every transaction writing users, sessions or roles
-- waited for the one before it from its first such write until that one's commit: a directory's first
-- sync created one person at a time whatever the application's locks allowed. A writer now bumps the
-- slot of its own transaction id (the same slot for all its statements); readers add the slots up.
-- Every slot only grows, so the sum moves exactly when a commit becomes visible, as before.
ALTER TABLE "cache_version" DROP CONSTRAINT IF EXISTS "cache_version_id_check";
--> statement-breakpoint
ALTER TABLE "cache_version" ADD CONSTRAINT "cache_version_slot_check" CHECK ("id" BETWEEN 1 AND 32);
--> statement-breakpoint
INSERT INTO "cache_version" ("id", "version") SELECT "slot", 0 FROM generate_series(1, 32) AS "slot" ON CONFLICT ("id") DO NOTHING;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "bump_cache_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "cache_version" SET "version" = "version" + 1 WHERE "id" = 1 + (txid_current() % 32);
	RETURN NULL;
END;
$$;
