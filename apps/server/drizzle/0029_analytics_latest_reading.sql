CREATE TABLE "post_metric_latest" (
	"target_id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"snapshot_id" uuid NOT NULL,
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
	"engagement_base" bigint GENERATED ALWAYS AS (case when interactions is not null then coalesce(views, reach) end) STORED
);
--> statement-breakpoint
ALTER TABLE "post_metric_latest" ADD CONSTRAINT "post_metric_latest_target_id_post_targets_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."post_targets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_metric_latest" ADD CONSTRAINT "post_metric_latest_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "post_metric_latest_org_idx" ON "post_metric_latest" USING btree ("organization_id");--> statement-breakpoint
-- The latest reading's upkeep (docs/analytics.md#latest-reading). An inserted reading takes the
-- target's row only when it is later than the one there, by (taken_at, id): a reading arriving
-- out of order, or a second one with the same time, leaves the latest as it is.
CREATE OR REPLACE FUNCTION post_metric_latest_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO post_metric_latest AS l
         (target_id, organization_id, snapshot_id, taken_at, views, reach, likes, comments,
          shares, saves, clicks, video_views, watch_time_ms, interactions)
  VALUES (NEW.target_id, NEW.organization_id, NEW.id, NEW.taken_at, NEW.views, NEW.reach,
          NEW.likes, NEW.comments, NEW.shares, NEW.saves, NEW.clicks, NEW.video_views,
          NEW.watch_time_ms, NEW.interactions)
  ON CONFLICT (target_id) DO UPDATE SET
    organization_id = excluded.organization_id, snapshot_id = excluded.snapshot_id,
    taken_at = excluded.taken_at, views = excluded.views, reach = excluded.reach,
    likes = excluded.likes, comments = excluded.comments, shares = excluded.shares,
    saves = excluded.saves, clicks = excluded.clicks, video_views = excluded.video_views,
    watch_time_ms = excluded.watch_time_ms, interactions = excluded.interactions
  WHERE (excluded.taken_at, excluded.snapshot_id) > (l.taken_at, l.snapshot_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Recomputes the latest reading of `targets` from the readings they still have (none: no row).
CREATE OR REPLACE FUNCTION post_metric_latest_refresh(targets uuid[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM post_metric_latest WHERE target_id = ANY (targets);
  INSERT INTO post_metric_latest
         (target_id, organization_id, snapshot_id, taken_at, views, reach, likes, comments,
          shares, saves, clicks, video_views, watch_time_ms, interactions)
  SELECT DISTINCT ON (s.target_id) s.target_id, s.organization_id, s.id, s.taken_at, s.views,
         s.reach, s.likes, s.comments, s.shares, s.saves, s.clicks, s.video_views,
         s.watch_time_ms, s.interactions
    FROM post_metric_snapshots s
   WHERE s.target_id = ANY (targets)
   ORDER BY s.target_id, s.taken_at DESC, s.id DESC;
$$;
--> statement-breakpoint
-- Removed readings: the targets whose latest reading went fall back on the reading before it
-- (a deleted target has none left, and its row goes with it).
CREATE OR REPLACE FUNCTION post_metric_latest_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM post_metric_latest_refresh(array(
    SELECT DISTINCT g.target_id FROM gone g
      JOIN post_metric_latest l ON l.target_id = g.target_id AND l.snapshot_id = g.id));
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Changed readings (nothing in Herald changes one; kept right anyway): recomputed.
CREATE OR REPLACE FUNCTION post_metric_latest_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM post_metric_latest_refresh(array(
    SELECT target_id FROM gone UNION SELECT target_id FROM came));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER post_metric_snapshots_latest_add AFTER INSERT ON post_metric_snapshots
  FOR EACH ROW EXECUTE FUNCTION post_metric_latest_add();
--> statement-breakpoint
CREATE TRIGGER post_metric_snapshots_latest_remove AFTER DELETE ON post_metric_snapshots
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION post_metric_latest_remove();
--> statement-breakpoint
CREATE TRIGGER post_metric_snapshots_latest_change AFTER UPDATE ON post_metric_snapshots
  REFERENCING OLD TABLE AS gone NEW TABLE AS came
  FOR EACH STATEMENT EXECUTE FUNCTION post_metric_latest_change();
--> statement-breakpoint
-- Rebuilds one organization's rows from its readings: the backfill below, and what a bulk load
-- with the triggers off runs after loading (bench/analytics.mjs).
CREATE OR REPLACE FUNCTION post_metric_latest_rebuild(org uuid) RETURNS void LANGUAGE sql AS $$
  DELETE FROM post_metric_latest WHERE organization_id = org;
  INSERT INTO post_metric_latest
         (target_id, organization_id, snapshot_id, taken_at, views, reach, likes, comments,
          shares, saves, clicks, video_views, watch_time_ms, interactions)
  SELECT DISTINCT ON (s.target_id) s.target_id, s.organization_id, s.id, s.taken_at, s.views,
         s.reach, s.likes, s.comments, s.shares, s.saves, s.clicks, s.video_views,
         s.watch_time_ms, s.interactions
    FROM post_metric_snapshots s
   WHERE s.organization_id = org
   ORDER BY s.target_id, s.taken_at DESC, s.id DESC;
$$;
--> statement-breakpoint
SELECT post_metric_latest_rebuild(id) FROM organizations;
