ALTER TABLE "inbox_sync_state" ADD COLUMN "poll_claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "inbox_webhook_events" ADD COLUMN "claimed_until" timestamp with time zone;