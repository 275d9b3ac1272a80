CREATE TABLE "rate_limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"count" bigint NOT NULL,
	"reset_at" timestamp with time zone NOT NULL
);
