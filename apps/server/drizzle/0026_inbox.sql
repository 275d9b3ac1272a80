CREATE TABLE "inbox_conversations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"integration_id" uuid NOT NULL,
	"platform" text NOT NULL,
	"kind" text NOT NULL,
	"thread_external_id" text NOT NULL,
	"participant_external_id" text,
	"participant" jsonb,
	"title" text NOT NULL,
	"root_post_external_id" text,
	"root_post_permalink" text,
	"root_post_text" text,
	"post_id" uuid,
	"last_message_preview" text,
	"last_message_direction" text,
	"last_message_sender_name" text,
	"last_message_at" timestamp with time zone NOT NULL,
	"last_inbound_at" timestamp with time zone,
	"unread" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"archived_at" timestamp with time zone,
	"assignee_user_id" uuid,
	"labels" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbox_labels" (
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inbox_labels_organization_id_name_pk" PRIMARY KEY("organization_id","name")
);
--> statement-breakpoint
CREATE TABLE "inbox_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"conversation_id" uuid NOT NULL,
	"external_id" text,
	"client_key" text,
	"kind" text NOT NULL,
	"direction" text NOT NULL,
	"author" jsonb,
	"text" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"parent_external_id" text,
	"deleted" boolean DEFAULT false NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	"liked" boolean DEFAULT false NOT NULL,
	"edited" boolean DEFAULT false NOT NULL,
	"delivery" text,
	"error" text,
	"sent_by_user_id" uuid,
	"private_reply_to" text,
	"private_replied_at" timestamp with time zone,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbox_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"conversation_id" uuid NOT NULL,
	"author_user_id" uuid,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbox_saved_replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"title" text NOT NULL,
	"text" text NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbox_sync_state" (
	"integration_id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"cursor" jsonb,
	"next_poll_at" timestamp with time zone,
	"last_synced_at" timestamp with time zone,
	"sync_error" text,
	"subscribed" boolean,
	"subscription_checked_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbox_webhook_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider" text NOT NULL,
	"body" "bytea" NOT NULL,
	"headers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "inbox_conversations" ADD CONSTRAINT "inbox_conversations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_conversations" ADD CONSTRAINT "inbox_conversations_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_conversations" ADD CONSTRAINT "inbox_conversations_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_conversations" ADD CONSTRAINT "inbox_conversations_assignee_user_id_users_id_fk" FOREIGN KEY ("assignee_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_labels" ADD CONSTRAINT "inbox_labels_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD CONSTRAINT "inbox_messages_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD CONSTRAINT "inbox_messages_conversation_id_inbox_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."inbox_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD CONSTRAINT "inbox_messages_sent_by_user_id_users_id_fk" FOREIGN KEY ("sent_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_notes" ADD CONSTRAINT "inbox_notes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_notes" ADD CONSTRAINT "inbox_notes_conversation_id_inbox_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."inbox_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_notes" ADD CONSTRAINT "inbox_notes_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_saved_replies" ADD CONSTRAINT "inbox_saved_replies_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_saved_replies" ADD CONSTRAINT "inbox_saved_replies_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_sync_state" ADD CONSTRAINT "inbox_sync_state_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_sync_state" ADD CONSTRAINT "inbox_sync_state_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inbox_conversations_thread_key" ON "inbox_conversations" USING btree ("integration_id","kind","thread_external_id");--> statement-breakpoint
CREATE INDEX "inbox_conversations_list_idx" ON "inbox_conversations" USING btree ("organization_id","status","last_message_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "inbox_conversations"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "inbox_conversations_unread_idx" ON "inbox_conversations" USING btree ("organization_id","status","last_message_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "inbox_conversations"."archived_at" is null and "inbox_conversations"."unread";--> statement-breakpoint
CREATE INDEX "inbox_conversations_platform_idx" ON "inbox_conversations" USING btree ("organization_id","platform","status","last_message_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "inbox_conversations"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "inbox_conversations_labels_idx" ON "inbox_conversations" USING gin ("labels");--> statement-breakpoint
CREATE UNIQUE INDEX "inbox_messages_external_key" ON "inbox_messages" USING btree ("conversation_id","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "inbox_messages_client_key" ON "inbox_messages" USING btree ("conversation_id","client_key");--> statement-breakpoint
CREATE INDEX "inbox_messages_thread_idx" ON "inbox_messages" USING btree ("conversation_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "inbox_messages_pending_idx" ON "inbox_messages" USING btree ("delivery","updated_at") WHERE "inbox_messages"."delivery" = 'pending';--> statement-breakpoint
CREATE INDEX "inbox_notes_conversation_idx" ON "inbox_notes" USING btree ("conversation_id","created_at");--> statement-breakpoint
CREATE INDEX "inbox_saved_replies_org_idx" ON "inbox_saved_replies" USING btree ("organization_id","title");--> statement-breakpoint
CREATE INDEX "inbox_sync_state_due_idx" ON "inbox_sync_state" USING btree ("next_poll_at");--> statement-breakpoint
CREATE INDEX "inbox_webhook_events_unprocessed_idx" ON "inbox_webhook_events" USING btree ("received_at") WHERE "inbox_webhook_events"."processed_at" is null;--> statement-breakpoint
CREATE INDEX "post_targets_external_idx" ON "post_targets" USING btree ("integration_id","external_id");