CREATE TABLE "health_probe" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"probed_at" bigint NOT NULL
);
