DROP INDEX "post_targets_post_platform_key";--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "account_name" text;--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "account_username" text;--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "account_external_id" text;--> statement-breakpoint
-- Targets not yet out whose account is gone go to the account that would have been picked before
-- (the newest connected one of that network in the organization), as publishing did until now.
UPDATE "post_targets" t SET "integration_id" = (
  SELECT i."id" FROM "integrations" i
  WHERE i."organization_id" = t."organization_id" AND i."platform_id" = t."platform_id" AND i."status" = 'CONNECTED'
  ORDER BY i."connected_at" DESC LIMIT 1
) WHERE t."integration_id" IS NULL AND t."status" IN ('QUEUED', 'PREPARING', 'READY');--> statement-breakpoint
UPDATE "post_targets" t SET "account_name" = i."name", "account_username" = i."username", "account_external_id" = i."platform_account_id"
FROM "integrations" i WHERE i."id" = t."integration_id";--> statement-breakpoint
CREATE UNIQUE INDEX "post_targets_post_integration_key" ON "post_targets" USING btree ("post_id","integration_id");