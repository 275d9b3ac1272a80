CREATE TABLE "member_accounts" (
	"member_id" uuid NOT NULL,
	"integration_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	CONSTRAINT "member_accounts_member_id_integration_id_pk" PRIMARY KEY("member_id","integration_id")
);
--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "accounts_limited" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "member_accounts" ADD CONSTRAINT "member_accounts_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_accounts" ADD CONSTRAINT "member_accounts_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_accounts" ADD CONSTRAINT "member_accounts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_accounts_integration_idx" ON "member_accounts" USING btree ("integration_id");