-- One counter every instance reads per request: any write to a table behind the gate's session
-- cache bumps it in the writer's own transaction, so the new value is visible exactly when the
-- new rows are (a sequence would show it before the commit).
CREATE TABLE "cache_version" (
	"id" integer PRIMARY KEY CHECK ("id" = 1),
	"version" bigint NOT NULL
);
--> statement-breakpoint
INSERT INTO "cache_version" ("id", "version") VALUES (1, 0) ON CONFLICT ("id") DO NOTHING;
--> statement-breakpoint
CREATE FUNCTION "bump_cache_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "cache_version" SET "version" = "version" + 1 WHERE "id" = 1;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "users_bump_cache_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
--> statement-breakpoint
CREATE TRIGGER "sessions_bump_cache_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "sessions" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
--> statement-breakpoint
CREATE TRIGGER "roles_bump_cache_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "roles" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
--> statement-breakpoint
CREATE TRIGGER "user_roles_bump_cache_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "user_roles" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
--> statement-breakpoint
CREATE TRIGGER "pages_bump_cache_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "pages" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
--> statement-breakpoint
CREATE TRIGGER "role_permissions_bump_cache_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "role_permissions" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
--> statement-breakpoint
CREATE TRIGGER "two_factor_secrets_bump_cache_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "two_factor_secrets" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
