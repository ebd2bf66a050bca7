CREATE TABLE "reading_digest_sends" (
	"user_id" text NOT NULL,
	"week" text NOT NULL,
	"claimed_at" bigint NOT NULL,
	"sent_at" bigint,
	CONSTRAINT "reading_digest_sends_user_id_week_pk" PRIMARY KEY("user_id","week")
);
--> statement-breakpoint
DROP INDEX "reading_confirmations_page_idx";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "reading_digest_opt_out" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "reading_digest_sends" ADD CONSTRAINT "reading_digest_sends_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reading_confirmations_page_idx" ON "reading_confirmations" USING btree ("page_path","version","user_id");