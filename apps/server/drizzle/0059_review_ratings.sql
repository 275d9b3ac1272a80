ALTER TABLE "inbox_conversations" ADD COLUMN "rating" smallint;--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD COLUMN "rating" smallint;--> statement-breakpoint
-- Reviews read before the rating had its own column carry their stars at the start of their text
-- (`★★★★☆ Great croissants`): the stars move to the column and the words stay.
UPDATE "inbox_messages" m SET
  "rating" = 5 - length(replace(left(m."text", 5), '★', '')),
  "text" = regexp_replace(m."text", '^[★☆]{5} ?', '')
FROM "inbox_conversations" c
WHERE c."id" = m."conversation_id" AND c."platform" = 'Google Business Profile'
  AND m."direction" = 'in' AND m."text" ~ '^[★☆]{5}( |$)';--> statement-breakpoint
UPDATE "inbox_conversations" c SET "rating" = (
  SELECT m."rating" FROM "inbox_messages" m
  WHERE m."conversation_id" = c."id" AND m."rating" IS NOT NULL
  ORDER BY m."created_at" DESC LIMIT 1)
WHERE c."platform" = 'Google Business Profile';--> statement-breakpoint
UPDATE "inbox_conversations" SET
  "last_message_preview" = regexp_replace("last_message_preview", '^[★☆]{5} ?', '')
WHERE "platform" = 'Google Business Profile' AND "last_message_preview" ~ '^[★☆]{5}( |$)';
