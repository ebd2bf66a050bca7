ALTER TABLE "directory_groups" ADD COLUMN "resource_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "resource_modified_at" bigint;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "resource_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- A SCIM resource's `meta.lastModified` and `meta.version` follow every change of what the resource
-- shows, whichever code path made it (the directory, the admin panel, a CLI, a cascade): triggers,
-- not each caller, keep `resource_modified_at`/`updated_at` and `resource_version`. A User shows its
-- groups' names and a Group its members' e-mails, so each side moves with the other. Membership
-- triggers run once per statement (a group of 20,000 members is one update per side, not 20,000).
-- `db:copy` sets `b1.copying` so that copied rows keep their values.
CREATE FUNCTION "scim_now_ms"() RETURNS bigint LANGUAGE sql AS $$ SELECT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint $$;
--> statement-breakpoint
CREATE FUNCTION "users_resource_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF current_setting('b1.copying', true) = 'on' THEN RETURN NEW; END IF;
	NEW."resource_modified_at" := "scim_now_ms"();
	NEW."resource_version" := OLD."resource_version" + 1;
	IF OLD."email" IS DISTINCT FROM NEW."email" THEN
		UPDATE "directory_groups" SET "updated_at" = "scim_now_ms"(), "resource_version" = "resource_version" + 1
			WHERE "id" IN (SELECT "group_id" FROM "directory_group_members" WHERE "user_id" = NEW."id");
	END IF;
	RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "users_resource_changed" BEFORE UPDATE OF "email", "full_name", "external_id", "deactivated_at", "directory_resource" ON "users"
FOR EACH ROW WHEN (OLD."email" IS DISTINCT FROM NEW."email" OR OLD."full_name" IS DISTINCT FROM NEW."full_name"
	OR OLD."external_id" IS DISTINCT FROM NEW."external_id" OR OLD."deactivated_at" IS DISTINCT FROM NEW."deactivated_at"
	OR OLD."directory_resource" IS DISTINCT FROM NEW."directory_resource")
EXECUTE FUNCTION "users_resource_changed"();
--> statement-breakpoint
CREATE FUNCTION "directory_groups_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF current_setting('b1.copying', true) = 'on' THEN RETURN NEW; END IF;
	NEW."updated_at" := "scim_now_ms"();
	NEW."resource_version" := OLD."resource_version" + 1;
	IF OLD."display_name" IS DISTINCT FROM NEW."display_name" THEN
		UPDATE "users" SET "resource_modified_at" = "scim_now_ms"(), "resource_version" = "resource_version" + 1
			WHERE "id" IN (SELECT "user_id" FROM "directory_group_members" WHERE "group_id" = NEW."id");
	END IF;
	RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "directory_groups_changed" BEFORE UPDATE OF "display_name", "external_id" ON "directory_groups"
FOR EACH ROW WHEN (OLD."display_name" IS DISTINCT FROM NEW."display_name" OR OLD."external_id" IS DISTINCT FROM NEW."external_id")
EXECUTE FUNCTION "directory_groups_changed"();
--> statement-breakpoint
CREATE FUNCTION "directory_members_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF current_setting('b1.copying', true) = 'on' THEN RETURN NULL; END IF;
	UPDATE "users" SET "resource_modified_at" = "scim_now_ms"(), "resource_version" = "resource_version" + 1
		WHERE "id" IN (SELECT DISTINCT "user_id" FROM "changed_members");
	UPDATE "directory_groups" SET "updated_at" = "scim_now_ms"(), "resource_version" = "resource_version" + 1
		WHERE "id" IN (SELECT DISTINCT "group_id" FROM "changed_members");
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "directory_members_added" AFTER INSERT ON "directory_group_members" REFERENCING NEW TABLE AS "changed_members"
FOR EACH STATEMENT EXECUTE FUNCTION "directory_members_changed"();
--> statement-breakpoint
CREATE TRIGGER "directory_members_removed" AFTER DELETE ON "directory_group_members" REFERENCING OLD TABLE AS "changed_members"
FOR EACH STATEMENT EXECUTE FUNCTION "directory_members_changed"();
