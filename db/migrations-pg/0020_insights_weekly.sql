CREATE TABLE "insights_reader_weeks" (
	"page" text NOT NULL,
	"week" text NOT NULL,
	"filled" integer NOT NULL,
	"harmonic" bigint NOT NULL,
	CONSTRAINT "insights_reader_weeks_page_week_pk" PRIMARY KEY("page","week")
);
--> statement-breakpoint
CREATE TABLE "insights_reads_weekly" (
	"page" text NOT NULL,
	"week" integer NOT NULL,
	"role" text NOT NULL,
	"reads" integer NOT NULL,
	CONSTRAINT "insights_reads_weekly_page_week_role_pk" PRIMARY KEY("page","week","role")
);
--> statement-breakpoint
CREATE TABLE "insights_search_totals" (
	"query" text PRIMARY KEY NOT NULL,
	"searches" integer NOT NULL,
	"empty" integer NOT NULL,
	"opens" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "insights_votes_weekly" (
	"page" text NOT NULL,
	"week" integer NOT NULL,
	"helpful" integer NOT NULL,
	"votes" integer NOT NULL,
	CONSTRAINT "insights_votes_weekly_page_week_helpful_pk" PRIMARY KEY("page","week","helpful")
);
--> statement-breakpoint
CREATE INDEX "insights_reader_weeks_week_idx" ON "insights_reader_weeks" USING btree ("week","page");--> statement-breakpoint
CREATE INDEX "insights_reads_weekly_role_idx" ON "insights_reads_weekly" USING btree ("role","week","page","reads");
--> statement-breakpoint
-- Pre-summed tables kept by triggers (issue 43, speed): backfilled from the rows already stored, then every insert, update or delete of a day's row, a register, a vote or a day's searches changes its sum in the same transaction (relative updates under the row's lock: exact with any number of instances). `db:copy` sets `b1.copying`: the copied sums come with the rows.
INSERT INTO "insights_reads_weekly" ("page", "week", "role", "reads") SELECT "page", ((("day")::date - DATE '1970-01-01' + 3) / 7), "role", sum("reads") FROM "insights_reads" GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO "insights_reader_weeks" ("page", "week", "filled", "harmonic") SELECT "page", "week", count(*), sum((CASE WHEN "rank" > 52 THEN 0 ELSE (1::bigint << (52 - "rank")) END)) FROM "insights_readers" GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO "insights_votes_weekly" ("page", "week", "helpful", "votes") SELECT "page", ((("day")::date - DATE '1970-01-01' + 3) / 7), "helpful", count(*) FROM "insights_votes" GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO "insights_search_totals" ("query", "searches", "empty", "opens") SELECT "query", sum("searches"), sum("empty"), sum("opens") FROM "insights_searches" GROUP BY 1;
--> statement-breakpoint
CREATE FUNCTION "insights_reads_weekly_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('b1.copying', true) = 'on' THEN RETURN NULL; END IF;
  IF TG_OP <> 'INSERT' THEN
    UPDATE "insights_reads_weekly" SET "reads" = "reads" - OLD."reads" WHERE "page" = OLD."page" AND "week" = (((OLD."day")::date - DATE '1970-01-01' + 3) / 7) AND "role" = OLD."role";
    DELETE FROM "insights_reads_weekly" WHERE "page" = OLD."page" AND "week" = (((OLD."day")::date - DATE '1970-01-01' + 3) / 7) AND "role" = OLD."role" AND "reads" = 0;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO "insights_reads_weekly" ("page", "week", "role", "reads") VALUES (NEW."page", (((NEW."day")::date - DATE '1970-01-01' + 3) / 7), NEW."role", NEW."reads")
      ON CONFLICT ("page", "week", "role") DO UPDATE SET "reads" = "insights_reads_weekly"."reads" + excluded."reads";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "insights_reads_weekly_write" AFTER INSERT OR DELETE ON "insights_reads" FOR EACH ROW EXECUTE FUNCTION "insights_reads_weekly_sync"();
--> statement-breakpoint
CREATE TRIGGER "insights_reads_weekly_update" AFTER UPDATE ON "insights_reads" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION "insights_reads_weekly_sync"();
--> statement-breakpoint
CREATE FUNCTION "insights_reader_weeks_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('b1.copying', true) = 'on' THEN RETURN NULL; END IF;
  IF TG_OP <> 'INSERT' THEN
    UPDATE "insights_reader_weeks" SET "filled" = "filled" - 1, "harmonic" = "harmonic" - (CASE WHEN OLD."rank" > 52 THEN 0 ELSE (1::bigint << (52 - OLD."rank")) END) WHERE "page" = OLD."page" AND "week" = OLD."week";
    DELETE FROM "insights_reader_weeks" WHERE "page" = OLD."page" AND "week" = OLD."week" AND "filled" = 0;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO "insights_reader_weeks" ("page", "week", "filled", "harmonic") VALUES (NEW."page", NEW."week", 1, (CASE WHEN NEW."rank" > 52 THEN 0 ELSE (1::bigint << (52 - NEW."rank")) END))
      ON CONFLICT ("page", "week") DO UPDATE SET "filled" = "insights_reader_weeks"."filled" + 1, "harmonic" = "insights_reader_weeks"."harmonic" + excluded."harmonic";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "insights_reader_weeks_write" AFTER INSERT OR DELETE ON "insights_readers" FOR EACH ROW EXECUTE FUNCTION "insights_reader_weeks_sync"();
--> statement-breakpoint
CREATE TRIGGER "insights_reader_weeks_update" AFTER UPDATE ON "insights_readers" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION "insights_reader_weeks_sync"();
--> statement-breakpoint
CREATE FUNCTION "insights_votes_weekly_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('b1.copying', true) = 'on' THEN RETURN NULL; END IF;
  IF TG_OP <> 'INSERT' THEN
    UPDATE "insights_votes_weekly" SET "votes" = "votes" - 1 WHERE "page" = OLD."page" AND "week" = (((OLD."day")::date - DATE '1970-01-01' + 3) / 7) AND "helpful" = OLD."helpful";
    DELETE FROM "insights_votes_weekly" WHERE "page" = OLD."page" AND "week" = (((OLD."day")::date - DATE '1970-01-01' + 3) / 7) AND "helpful" = OLD."helpful" AND "votes" = 0;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO "insights_votes_weekly" ("page", "week", "helpful", "votes") VALUES (NEW."page", (((NEW."day")::date - DATE '1970-01-01' + 3) / 7), NEW."helpful", 1)
      ON CONFLICT ("page", "week", "helpful") DO UPDATE SET "votes" = "insights_votes_weekly"."votes" + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "insights_votes_weekly_write" AFTER INSERT OR DELETE ON "insights_votes" FOR EACH ROW EXECUTE FUNCTION "insights_votes_weekly_sync"();
--> statement-breakpoint
CREATE TRIGGER "insights_votes_weekly_update" AFTER UPDATE ON "insights_votes" FOR EACH ROW WHEN (OLD."page" IS DISTINCT FROM NEW."page" OR OLD."helpful" IS DISTINCT FROM NEW."helpful" OR (((OLD."day")::date - DATE '1970-01-01' + 3) / 7) IS DISTINCT FROM (((NEW."day")::date - DATE '1970-01-01' + 3) / 7)) EXECUTE FUNCTION "insights_votes_weekly_sync"();
--> statement-breakpoint
CREATE FUNCTION "insights_search_totals_sync"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('b1.copying', true) = 'on' THEN RETURN NULL; END IF;
  IF TG_OP <> 'INSERT' THEN
    UPDATE "insights_search_totals" SET "searches" = "searches" - OLD."searches", "empty" = "empty" - OLD."empty", "opens" = "opens" - OLD."opens" WHERE "query" = OLD."query";
    DELETE FROM "insights_search_totals" WHERE "query" = OLD."query" AND "searches" = 0 AND "empty" = 0 AND "opens" = 0;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO "insights_search_totals" ("query", "searches", "empty", "opens") VALUES (NEW."query", NEW."searches", NEW."empty", NEW."opens")
      ON CONFLICT ("query") DO UPDATE SET "searches" = "insights_search_totals"."searches" + excluded."searches", "empty" = "insights_search_totals"."empty" + excluded."empty", "opens" = "insights_search_totals"."opens" + excluded."opens";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "insights_search_totals_write" AFTER INSERT OR DELETE ON "insights_searches" FOR EACH ROW EXECUTE FUNCTION "insights_search_totals_sync"();
--> statement-breakpoint
CREATE TRIGGER "insights_search_totals_update" AFTER UPDATE ON "insights_searches" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION "insights_search_totals_sync"();