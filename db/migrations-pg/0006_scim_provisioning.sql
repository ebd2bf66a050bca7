CREATE TABLE "directory_group_members" (
	"group_id" text NOT NULL,
	"user_id" text NOT NULL,
	CONSTRAINT "directory_group_members_group_id_user_id_pk" PRIMARY KEY("group_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "directory_groups" (
	"id" text PRIMARY KEY NOT NULL,
	"display_name" text NOT NULL,
	"external_id" text,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "provisioned_at" bigint;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "deactivated_at" bigint;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "directory_resource" text;--> statement-breakpoint
ALTER TABLE "directory_group_members" ADD CONSTRAINT "directory_group_members_group_id_directory_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."directory_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "directory_group_members" ADD CONSTRAINT "directory_group_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "directory_group_members_user_idx" ON "directory_group_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "directory_groups_display_name_idx" ON "directory_groups" USING btree ("display_name");--> statement-breakpoint
CREATE UNIQUE INDEX "users_external_id_unique" ON "users" USING btree ("external_id");