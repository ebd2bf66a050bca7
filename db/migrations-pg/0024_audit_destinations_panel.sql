ALTER TABLE "audit_destinations" ADD COLUMN "url" text;--> statement-breakpoint
ALTER TABLE "audit_destinations" ADD COLUMN "secret_sealed" text;--> statement-breakpoint
ALTER TABLE "audit_destinations" ADD COLUMN "previous_secret_sealed" text;--> statement-breakpoint
ALTER TABLE "audit_destinations" ADD COLUMN "previous_until" bigint;--> statement-breakpoint
ALTER TABLE "audit_destinations" ADD COLUMN "config_version" integer DEFAULT 0 NOT NULL;