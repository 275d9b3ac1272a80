CREATE TABLE "external_post_metric_snapshots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"external_post_id" uuid NOT NULL,
	"integration_id" uuid NOT NULL,
	"checkpoint" text NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"views" bigint,
	"reach" bigint,
	"likes" bigint,
	"comments" bigint,
	"shares" bigint,
	"saves" bigint,
	"clicks" bigint,
	"video_views" bigint,
	"watch_time_ms" bigint,
	"interactions" bigint,
	"raw" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "external_posts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"integration_id" uuid NOT NULL,
	"platform_id" uuid NOT NULL,
	"external_id" text NOT NULL,
	"permalink" text,
	"text" text,
	"thumbnail_url" text,
	"published_at" timestamp with time zone NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "external_post_metric_snapshots" ADD CONSTRAINT "external_post_metric_snapshots_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_post_metric_snapshots" ADD CONSTRAINT "external_post_metric_snapshots_external_post_id_external_posts_id_fk" FOREIGN KEY ("external_post_id") REFERENCES "public"."external_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_posts" ADD CONSTRAINT "external_posts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_posts" ADD CONSTRAINT "external_posts_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_posts" ADD CONSTRAINT "external_posts_platform_id_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "external_post_metric_snapshots_post_idx" ON "external_post_metric_snapshots" USING btree ("external_post_id","taken_at");--> statement-breakpoint
CREATE UNIQUE INDEX "external_posts_account_uq" ON "external_posts" USING btree ("integration_id","external_id");--> statement-breakpoint
CREATE INDEX "external_posts_org_published_idx" ON "external_posts" USING btree ("organization_id","published_at");--> statement-breakpoint
-- Readings of posts published outside Herald feed the overview's daily series too
-- (docs/analytics.md#posts-published-outside-herald): the same upkeep as 0025's, over the same
-- external post's reading before.
CREATE OR REPLACE FUNCTION analytics_daily_gains_add_external() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  prev_views bigint;
  prev_interactions bigint;
BEGIN
  SELECT s.views, s.interactions INTO prev_views, prev_interactions
    FROM external_post_metric_snapshots s
   WHERE s.external_post_id = NEW.external_post_id AND s.taken_at < NEW.taken_at
   ORDER BY s.taken_at DESC LIMIT 1;
  INSERT INTO analytics_daily_gains AS d
         (organization_id, integration_id, day, views, interactions, readings)
  VALUES (NEW.organization_id, NEW.integration_id, (NEW.taken_at AT TIME ZONE 'UTC')::date,
          NEW.views - coalesce(prev_views, 0),
          NEW.interactions - coalesce(prev_interactions, 0),
          1)
  ON CONFLICT (organization_id, day, integration_id) DO UPDATE SET
    views = coalesce(d.views + excluded.views, d.views, excluded.views),
    interactions = coalesce(d.interactions + excluded.interactions, d.interactions, excluded.interactions),
    readings = d.readings + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER external_post_metric_snapshots_daily_gains_add AFTER INSERT ON external_post_metric_snapshots
  FOR EACH ROW EXECUTE FUNCTION analytics_daily_gains_add_external();
--> statement-breakpoint
-- The rebuild now counts both kinds of readings.
CREATE OR REPLACE FUNCTION analytics_daily_gains_rebuild(org uuid) RETURNS void LANGUAGE sql AS $$
  DELETE FROM analytics_daily_gains WHERE organization_id = org;
  INSERT INTO analytics_daily_gains (organization_id, integration_id, day, views, interactions, readings)
  SELECT organization_id, integration_id, day, sum(views), sum(interactions), count(*)::int
    FROM (
      SELECT s.organization_id,
             coalesce(s.integration_id, '00000000-0000-0000-0000-000000000000'::uuid) AS integration_id,
             (s.taken_at AT TIME ZONE 'UTC')::date AS day,
             s.views - coalesce(lag(s.views) OVER w, 0) AS views,
             s.interactions - coalesce(lag(s.interactions) OVER w, 0) AS interactions
        FROM post_metric_snapshots s
       WHERE s.organization_id = org
      WINDOW w AS (PARTITION BY s.target_id ORDER BY s.taken_at)
      UNION ALL
      SELECT e.organization_id, e.integration_id, (e.taken_at AT TIME ZONE 'UTC')::date,
             e.views - coalesce(lag(e.views) OVER w, 0),
             e.interactions - coalesce(lag(e.interactions) OVER w, 0)
        FROM external_post_metric_snapshots e
       WHERE e.organization_id = org
      WINDOW w AS (PARTITION BY e.external_post_id ORDER BY e.taken_at)
    ) g
   GROUP BY 1, 2, 3;
$$;
