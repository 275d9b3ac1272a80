-- Removed readings of posts published outside Herald take back what they had added to
-- analytics_daily_gains (docs/analytics.md#posts-published-outside-herald), as 0025's trigger
-- does for Herald's readings. Each touched external post's gains are counted again over the
-- readings it keeps: what the post's readings gave before the delete (kept and gone) is taken
-- away, what the kept ones give now is added back, so removing any of its readings (all of them
-- when the post or its account goes, or one in the middle) leaves the rollup equal to
-- analytics_daily_gains_rebuild's count. Never an INSERT: a deleted organization's rows go by
-- their own cascade.
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
    SELECT organization_id, integration_id, (taken_at AT TIME ZONE 'UTC')::date AS day,
           -(views - coalesce(lag(views) OVER w, 0)) AS views,
           -(interactions - coalesce(lag(interactions) OVER w, 0)) AS interactions,
           -1 AS readings
      FROM before
    WINDOW w AS (PARTITION BY external_post_id ORDER BY taken_at)
    UNION ALL
    SELECT organization_id, integration_id, (taken_at AT TIME ZONE 'UTC')::date,
           views - coalesce(lag(views) OVER w, 0),
           interactions - coalesce(lag(interactions) OVER w, 0),
           1
      FROM kept
    WINDOW w AS (PARTITION BY external_post_id ORDER BY taken_at)
  ), per_day AS (
    SELECT organization_id, integration_id, day, sum(views) AS views,
           sum(interactions) AS interactions, sum(readings)::int AS readings
      FROM gains GROUP BY 1, 2, 3
  )
  UPDATE analytics_daily_gains d
     SET views = d.views + coalesce(p.views, 0),
         interactions = d.interactions + coalesce(p.interactions, 0),
         readings = greatest(d.readings + p.readings, 0)
    FROM per_day p
   WHERE d.organization_id = p.organization_id AND d.integration_id = p.integration_id
     AND d.day = p.day;
  -- A day left with no reading at all is no day of the rollup (the rebuild has no row for it).
  DELETE FROM analytics_daily_gains d
   WHERE d.readings = 0
     AND (d.organization_id, d.integration_id, d.day) IN (
       SELECT DISTINCT g.organization_id, g.integration_id, (g.taken_at AT TIME ZONE 'UTC')::date
         FROM gone g);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER external_post_metric_snapshots_daily_gains_remove AFTER DELETE ON external_post_metric_snapshots
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION analytics_daily_gains_remove_external();
