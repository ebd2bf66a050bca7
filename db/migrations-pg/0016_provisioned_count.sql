CREATE TABLE "provisioned_count" (
	"slot" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"people" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- How many accounts the directory manages, kept by a trigger whatever path writes users: SCIM's
-- unfiltered list reads the sum for `totalResults` instead of counting every provisioned row on each
-- page. A writer adds to the slot of its own transaction id (up to 32 rows, made on first use), so
-- parallel creates do not wait on one row. `db:copy` sets `b1.copying`: copied rows bring their count.
INSERT INTO "provisioned_count" ("slot", "people") SELECT 1, count(*) FROM "users" WHERE "provisioned_at" IS NOT NULL;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "count_provisioned"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	delta integer;
BEGIN
	IF current_setting('b1.copying', true) = 'on' THEN RETURN NULL; END IF;
	IF TG_OP = 'INSERT' THEN
		delta := CASE WHEN NEW."provisioned_at" IS NULL THEN 0 ELSE 1 END;
	ELSIF TG_OP = 'DELETE' THEN
		delta := CASE WHEN OLD."provisioned_at" IS NULL THEN 0 ELSE -1 END;
	ELSE
		delta := (CASE WHEN NEW."provisioned_at" IS NULL THEN 0 ELSE 1 END) - (CASE WHEN OLD."provisioned_at" IS NULL THEN 0 ELSE 1 END);
	END IF;
	IF delta <> 0 THEN
		INSERT INTO "provisioned_count" ("slot", "people") VALUES (1 + (txid_current() % 32), delta)
		ON CONFLICT ("slot") DO UPDATE SET "people" = "provisioned_count"."people" + excluded."people";
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "provisioned_count_changed" AFTER INSERT OR DELETE OR UPDATE OF "provisioned_at" ON "users"
FOR EACH ROW EXECUTE FUNCTION "count_provisioned"();
