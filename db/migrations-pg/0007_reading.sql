CREATE TABLE "reading_confirmations" (
	"user_id" text NOT NULL,
	"page_path" text NOT NULL,
	"version" integer NOT NULL,
	"confirmed_at" bigint NOT NULL,
	CONSTRAINT "reading_confirmations_user_id_page_path_version_pk" PRIMARY KEY("user_id","page_path","version")
);
--> statement-breakpoint
CREATE TABLE "reading_news_visits" (
	"user_id" text PRIMARY KEY NOT NULL,
	"seen_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reading_confirmations" ADD CONSTRAINT "reading_confirmations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reading_news_visits" ADD CONSTRAINT "reading_news_visits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reading_confirmations_page_idx" ON "reading_confirmations" USING btree ("page_path","version");