CREATE TABLE "page_audience" (
	"page_id" integer NOT NULL,
	"role_id" integer NOT NULL,
	CONSTRAINT "page_audience_page_id_role_id_pk" PRIMARY KEY("page_id","role_id")
);
--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "audience_override" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "pages" ADD COLUMN "access_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "access_limited" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "page_audience" ADD CONSTRAINT "page_audience_page_id_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "page_audience" ADD CONSTRAINT "page_audience_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A page's audience sits behind the gate's session cache like role_permissions: every write moves the counter.
CREATE TRIGGER "page_audience_bump_cache_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "page_audience" FOR EACH STATEMENT EXECUTE FUNCTION "bump_cache_version"();
