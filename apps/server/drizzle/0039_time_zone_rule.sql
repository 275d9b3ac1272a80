CREATE TABLE "queue_time_zones" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"time_zone" text NOT NULL,
	"set_by_user_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "queue_time_zones" ADD CONSTRAINT "queue_time_zones_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_time_zones" ADD CONSTRAINT "queue_time_zones_set_by_user_id_users_id_fk" FOREIGN KEY ("set_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Queue times saved before now were read in the organization's default zone, else its
-- `timezone` column (UTC): that zone stays theirs, so no slot moves (docs/queue-and-import.md).
INSERT INTO "queue_time_zones" ("organization_id", "time_zone")
SELECT o.id, coalesce(o.default_time_zone, o.timezone, 'UTC')
  FROM organizations o
 WHERE EXISTS (SELECT 1 FROM queue_slots s WHERE s.organization_id = o.id);
--> statement-breakpoint
-- The rollup goes from UTC days to quarter hours (docs/analytics.md#rollup): emptied here,
-- rebuilt from the readings at the end.
TRUNCATE "analytics_daily_gains";--> statement-breakpoint
ALTER TABLE "analytics_daily_gains" DROP CONSTRAINT "analytics_daily_gains_organization_id_day_integration_id_pk";--> statement-breakpoint
ALTER TABLE "analytics_daily_gains" DROP COLUMN "day";--> statement-breakpoint
ALTER TABLE "analytics_daily_gains" ADD COLUMN "bucket" timestamp with time zone NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_daily_gains" ADD CONSTRAINT "analytics_daily_gains_organization_id_bucket_integration_id_pk" PRIMARY KEY("organization_id","bucket","integration_id");--> statement-breakpoint
-- The quarter hour (on UTC's quarter hours) an instant falls in. Every zone's offset is a whole
-- number of quarter hours, so each zone's midnight starts one of them.
CREATE OR REPLACE FUNCTION analytics_gain_bucket(taken timestamptz) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_timestamp(floor(extract(epoch FROM taken) / 900) * 900)
$$;
--> statement-breakpoint
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
         (organization_id, integration_id, bucket, views, interactions, readings)
  VALUES (NEW.organization_id,
          coalesce(NEW.integration_id, '00000000-0000-0000-0000-000000000000'::uuid),
          analytics_gain_bucket(NEW.taken_at),
          NEW.views - coalesce(prev_views, 0),
          NEW.interactions - coalesce(prev_interactions, 0),
          1)
  ON CONFLICT (organization_id, bucket, integration_id) DO UPDATE SET
    views = coalesce(d.views + excluded.views, d.views, excluded.views),
    interactions = coalesce(d.interactions + excluded.interactions, d.interactions, excluded.interactions),
    readings = d.readings + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_daily_gains_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH gains AS (
    SELECT organization_id,
           coalesce(integration_id, '00000000-0000-0000-0000-000000000000'::uuid) AS integration_id,
           analytics_gain_bucket(taken_at) AS bucket,
           views - coalesce(lag(views) OVER w, 0) AS views,
           interactions - coalesce(lag(interactions) OVER w, 0) AS interactions
      FROM gone
    WINDOW w AS (PARTITION BY target_id ORDER BY taken_at)
  ), per_bucket AS (
    SELECT organization_id, integration_id, bucket, sum(views) AS views,
           sum(interactions) AS interactions, count(*)::int AS readings
      FROM gains GROUP BY 1, 2, 3
  )
  UPDATE analytics_daily_gains d
     SET views = d.views - coalesce(p.views, 0),
         interactions = d.interactions - coalesce(p.interactions, 0),
         readings = greatest(d.readings - p.readings, 0)
    FROM per_bucket p
   WHERE d.organization_id = p.organization_id AND d.integration_id = p.integration_id
     AND d.bucket = p.bucket;
  RETURN NULL;
END $$;
--> statement-breakpoint
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
         (organization_id, integration_id, bucket, views, interactions, readings)
  VALUES (NEW.organization_id, NEW.integration_id, analytics_gain_bucket(NEW.taken_at),
          NEW.views - coalesce(prev_views, 0),
          NEW.interactions - coalesce(prev_interactions, 0),
          1)
  ON CONFLICT (organization_id, bucket, integration_id) DO UPDATE SET
    views = coalesce(d.views + excluded.views, d.views, excluded.views),
    interactions = coalesce(d.interactions + excluded.interactions, d.interactions, excluded.interactions),
    readings = d.readings + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_daily_gains_remove_external() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH kept AS (
    SELECT s.organization_id, s.integration_id, s.external_post_id, s.taken_at, s.views, s.interactions
      FROM external_post_metric_snapshots s
     WHERE s.external_post_id IN (SELECT DISTINCT g.external_post_id FROM gone g)
  ), before AS (
    SELECT * FROM kept
    UNION ALL
    SELECT g.organization_id, g.integration_id, g.external_post_id, g.taken_at, g.views, g.interactions
      FROM gone g
  ), gains AS (
    SELECT organization_id, integration_id, analytics_gain_bucket(taken_at) AS bucket,
           -(views - coalesce(lag(views) OVER w, 0)) AS views,
           -(interactions - coalesce(lag(interactions) OVER w, 0)) AS interactions,
           -1 AS readings
      FROM before
    WINDOW w AS (PARTITION BY external_post_id ORDER BY taken_at)
    UNION ALL
    SELECT organization_id, integration_id, analytics_gain_bucket(taken_at),
           views - coalesce(lag(views) OVER w, 0),
           interactions - coalesce(lag(interactions) OVER w, 0),
           1
      FROM kept
    WINDOW w AS (PARTITION BY external_post_id ORDER BY taken_at)
  ), per_bucket AS (
    SELECT organization_id, integration_id, bucket, sum(views) AS views,
           sum(interactions) AS interactions, sum(readings)::int AS readings
      FROM gains GROUP BY 1, 2, 3
  )
  UPDATE analytics_daily_gains d
     SET views = d.views + coalesce(p.views, 0),
         interactions = d.interactions + coalesce(p.interactions, 0),
         readings = greatest(d.readings + p.readings, 0)
    FROM per_bucket p
   WHERE d.organization_id = p.organization_id AND d.integration_id = p.integration_id
     AND d.bucket = p.bucket;
  -- A quarter hour left with no reading at all is no row of the rollup (as the rebuild counts).
  DELETE FROM analytics_daily_gains d
   WHERE d.readings = 0
     AND (d.organization_id, d.integration_id, d.bucket) IN (
       SELECT DISTINCT g.organization_id, g.integration_id, analytics_gain_bucket(g.taken_at)
         FROM gone g);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION analytics_daily_gains_rebuild(org uuid) RETURNS void LANGUAGE sql AS $$
  DELETE FROM analytics_daily_gains WHERE organization_id = org;
  INSERT INTO analytics_daily_gains (organization_id, integration_id, bucket, views, interactions, readings)
  SELECT organization_id, integration_id, bucket, sum(views), sum(interactions), count(*)::int
    FROM (
      SELECT s.organization_id,
             coalesce(s.integration_id, '00000000-0000-0000-0000-000000000000'::uuid) AS integration_id,
             analytics_gain_bucket(s.taken_at) AS bucket,
             s.views - coalesce(lag(s.views) OVER w, 0) AS views,
             s.interactions - coalesce(lag(s.interactions) OVER w, 0) AS interactions
        FROM post_metric_snapshots s
       WHERE s.organization_id = org
      WINDOW w AS (PARTITION BY s.target_id ORDER BY s.taken_at)
      UNION ALL
      SELECT e.organization_id, e.integration_id, analytics_gain_bucket(e.taken_at),
             e.views - coalesce(lag(e.views) OVER w, 0),
             e.interactions - coalesce(lag(e.interactions) OVER w, 0)
        FROM external_post_metric_snapshots e
       WHERE e.organization_id = org
      WINDOW w AS (PARTITION BY e.external_post_id ORDER BY e.taken_at)
    ) g
   GROUP BY 1, 2, 3;
$$;
--> statement-breakpoint
SELECT analytics_daily_gains_rebuild(id) FROM organizations;
