CREATE TABLE "queue_slots" (
	"organization_id" uuid NOT NULL,
	"integration_id" uuid NOT NULL,
	"weekday" integer NOT NULL,
	"minute" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "queue_slots_integration_id_weekday_minute_pk" PRIMARY KEY("integration_id","weekday","minute")
);
--> statement-breakpoint
CREATE TABLE "queued_posts" (
	"post_id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"slot_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "queue_slots" ADD CONSTRAINT "queue_slots_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_slots" ADD CONSTRAINT "queue_slots_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queued_posts" ADD CONSTRAINT "queued_posts_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queued_posts" ADD CONSTRAINT "queued_posts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "queue_slots_org_idx" ON "queue_slots" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "queued_posts_org_idx" ON "queued_posts" USING btree ("organization_id","slot_at");