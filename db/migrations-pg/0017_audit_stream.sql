CREATE TABLE "audit_destinations" (
	"name" text PRIMARY KEY NOT NULL,
	"delivered_id" integer DEFAULT 0 NOT NULL,
	"delivered_at" bigint,
	"paused" integer DEFAULT 0 NOT NULL,
	"stopped_reason" text,
	"last_error" text,
	"last_error_at" bigint,
	"lease_owner" text,
	"lease_until" bigint DEFAULT 0 NOT NULL,
	"updated_at" bigint NOT NULL
);
