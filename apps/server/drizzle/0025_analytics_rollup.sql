CREATE TABLE "analytics_daily_gains" (
	"organization_id" uuid NOT NULL,
	"integration_id" uuid NOT NULL,
	"day" date NOT NULL,
	"views" bigint,
	"interactions" bigint,
	"readings" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_daily_gains_organization_id_day_integration_id_pk" PRIMARY KEY("organization_id","day","integration_id")
);
--> statement-breakpoint
ALTER TABLE "analytics_daily_gains" ADD CONSTRAINT "analytics_daily_gains_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "post_targets_org_published_idx" ON "post_targets" USING btree ("organization_id","published_at") WHERE status = 'PUBLISHED';--> statement-breakpoint
-- The rollup's upkeep (docs/analytics.md#rollup). A reading adds what it gained over the same
-- target's reading before it (NULL stays NULL: a metric the network does not give).
CREATE OR REPLACE FUNCTION analytics_daily_gains_add() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  prev_views bigint;
  prev_interactions bigint;
BEGIN
  SELECT s.views, s.interactions INTO prev_views, prev_interactions
    FROM post_metric_snapshots s
   WHERE s.target_id = NEW.target_id AND s.taken_at < NEW.taken_at
   ORDER BY s.taken_at DESC LIMIT 1;
  INSERT INTO analytics_daily_gains AS d
         (organization_id, integration_id, day, views, interactions, readings)
  VALUES (NEW.organization_id,
          coalesce(NEW.integration_id, '00000000-0000-0000-0000-000000000000'::uuid),
          (NEW.taken_at AT TIME ZONE 'UTC')::date,
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
-- Removed readings (a deleted post takes all its target's readings with it) take back what they
-- had added.
CREATE OR REPLACE FUNCTION analytics_daily_gains_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH gains AS (
    SELECT organization_id,
           coalesce(integration_id, '00000000-0000-0000-0000-000000000000'::uuid) AS integration_id,
           (taken_at AT TIME ZONE 'UTC')::date AS day,
           views - coalesce(lag(views) OVER w, 0) AS views,
           interactions - coalesce(lag(interactions) OVER w, 0) AS interactions
      FROM gone
    WINDOW w AS (PARTITION BY target_id ORDER BY taken_at)
  ), per_day AS (
    SELECT organization_id, integration_id, day, sum(views) AS views,
           sum(interactions) AS interactions, count(*)::int AS readings
      FROM gains GROUP BY 1, 2, 3
  )
  UPDATE analytics_daily_gains d
     SET views = d.views - coalesce(p.views, 0),
         interactions = d.interactions - coalesce(p.interactions, 0),
         readings = greatest(d.readings - p.readings, 0)
    FROM per_day p
   WHERE d.organization_id = p.organization_id AND d.integration_id = p.integration_id
     AND d.day = p.day;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER post_metric_snapshots_daily_gains_add AFTER INSERT ON post_metric_snapshots
  FOR EACH ROW EXECUTE FUNCTION analytics_daily_gains_add();
--> statement-breakpoint
CREATE TRIGGER post_metric_snapshots_daily_gains_remove AFTER DELETE ON post_metric_snapshots
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION analytics_daily_gains_remove();
--> statement-breakpoint
-- Backfill from the readings already kept: also what a bulk load runs after loading with the
-- triggers off (bench/analytics.mjs).
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
    ) g
   GROUP BY 1, 2, 3;
$$;
--> statement-breakpoint
SELECT analytics_daily_gains_rebuild(id) FROM organizations;
