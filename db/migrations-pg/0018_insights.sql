CREATE TABLE "insights_comments" (
	"id" text PRIMARY KEY NOT NULL,
	"page" text NOT NULL,
	"version" text NOT NULL,
	"helpful" integer NOT NULL,
	"reason" text,
	"body" text NOT NULL,
	"user_id" text,
	"day" text NOT NULL,
	"status" text DEFAULT 'nova' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "insights_keys" (
	"name" text PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "insights_queries" (
	"query" text PRIMARY KEY NOT NULL,
	"people" integer NOT NULL,
	"last_day" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "insights_query_people" (
	"query" text NOT NULL,
	"person" text NOT NULL,
	CONSTRAINT "insights_query_people_query_person_pk" PRIMARY KEY("query","person")
);
--> statement-breakpoint
CREATE TABLE "insights_readers" (
	"page" text NOT NULL,
	"week" text NOT NULL,
	"register" integer NOT NULL,
	"rank" integer NOT NULL,
	CONSTRAINT "insights_readers_page_week_register_pk" PRIMARY KEY("page","week","register")
);
--> statement-breakpoint
CREATE TABLE "insights_reads" (
	"page" text NOT NULL,
	"day" text NOT NULL,
	"role" text NOT NULL,
	"reads" integer NOT NULL,
	CONSTRAINT "insights_reads_page_day_role_pk" PRIMARY KEY("page","day","role")
);
--> statement-breakpoint
CREATE TABLE "insights_searches" (
	"query" text NOT NULL,
	"day" text NOT NULL,
	"searches" integer NOT NULL,
	"empty" integer NOT NULL,
	"opens" integer NOT NULL,
	CONSTRAINT "insights_searches_query_day_pk" PRIMARY KEY("query","day")
);
--> statement-breakpoint
CREATE TABLE "insights_votes" (
	"vote_key" text PRIMARY KEY NOT NULL,
	"page" text NOT NULL,
	"version" text NOT NULL,
	"helpful" integer NOT NULL,
	"reason" text,
	"day" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "insights_comments" ADD CONSTRAINT "insights_comments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "insights_comments_page_idx" ON "insights_comments" USING btree ("page","day");--> statement-breakpoint
CREATE INDEX "insights_comments_day_idx" ON "insights_comments" USING btree ("day");--> statement-breakpoint
CREATE INDEX "insights_queries_last_day_idx" ON "insights_queries" USING btree ("last_day");--> statement-breakpoint
CREATE INDEX "insights_readers_week_idx" ON "insights_readers" USING btree ("week","page","rank");--> statement-breakpoint
CREATE INDEX "insights_reads_role_day_idx" ON "insights_reads" USING btree ("role","day","page","reads");--> statement-breakpoint
CREATE INDEX "insights_searches_day_idx" ON "insights_searches" USING btree ("day","query","searches","empty","opens");--> statement-breakpoint
CREATE INDEX "insights_votes_page_idx" ON "insights_votes" USING btree ("page","version");--> statement-breakpoint
CREATE INDEX "insights_votes_day_idx" ON "insights_votes" USING btree ("day","page","helpful");