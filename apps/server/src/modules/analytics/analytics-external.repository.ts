/**
 * Posts published outside Herald on the connected accounts (docs/analytics.md#posts-published-outside-herald):
 * their own tables (`external_posts`, `external_post_metric_snapshots`), never `posts` or
 * `post_targets`, so the calendar, the library and the publisher never see them. Every query is
 * filtered by organization.
 */
import { and, eq, gte, inArray, not, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.js';
import { externalPostMetricSnapshots, externalPosts, postTargets } from '../../db/schema.js';
import type { ListedPost, PostMetricValues } from '../../platforms/types.js';
import { type OverviewFilter, type TargetReading } from './analytics-overview.repository.js';

/**
 * Stores the listed posts that Herald did not publish (no target of this account has the same
 * network id) and refreshes what the network says of those already known.
 */
export async function upsertExternalPosts(
  db: Db,
  row: {
    organizationId: string;
    integrationId: string;
    platformId: string;
    now: Date;
    posts: ListedPost[];
  },
) {
  if (!row.posts.length) return 0;
  const ours = await db
    .select({ externalId: postTargets.externalId })
    .from(postTargets)
    .where(
      and(
        eq(postTargets.organizationId, row.organizationId),
        eq(postTargets.integrationId, row.integrationId),
        inArray(
          postTargets.externalId,
          row.posts.map((p) => p.externalId),
        ),
      ),
    );
  const heralds = new Set(ours.map((t) => t.externalId));
  const outside = row.posts.filter((p) => !heralds.has(p.externalId));
  for (const p of outside) {
    const values = {
      permalink: p.permalink,
      text: p.text,
      thumbnailUrl: p.thumbnailUrl,
      publishedAt: p.publishedAt,
      lastSeenAt: row.now,
    };
    await db
      .insert(externalPosts)
      .values({
        organizationId: row.organizationId,
        integrationId: row.integrationId,
        platformId: row.platformId,
        externalId: p.externalId,
        firstSeenAt: row.now,
        ...values,
      })
      .onConflictDoUpdate({
        target: [externalPosts.integrationId, externalPosts.externalId],
        set: values,
      });
  }
  return outside.length;
}

/** A Herald target of the external post's account has the same network id. */
const heraldHasIt = sql`exists (select 1 from ${postTargets} t
  where t.organization_id = ${externalPosts.organizationId}
    and t.integration_id = ${externalPosts.integrationId}
    and t.external_id = ${externalPosts.externalId})`;

/**
 * Drops the account's external posts that a Herald target of the same account now has (listed
 * while Herald was still recording the target's network id): the target's readings count that
 * post, so its external readings go with it (they cascade; the delete trigger of
 * `0033_external_gains_on_delete` takes their gains out of `analytics_daily_gains`).
 */
export async function deleteExternalPostsHeraldPublished(
  db: Db,
  organizationId: string,
  integrationId: string,
) {
  const gone = await db
    .delete(externalPosts)
    .where(
      and(
        eq(externalPosts.organizationId, organizationId),
        eq(externalPosts.integrationId, integrationId),
        heraldHasIt,
      ),
    )
    .returning({ id: externalPosts.id });
  return gone.length;
}

/**
 * An account's external posts published since `since`, the ones still read every day; never one
 * that a Herald target of the account also has (its target's readings count it).
 */
export function listExternalPostsToRead(
  db: Db,
  organizationId: string,
  integrationId: string,
  since: Date,
) {
  return db
    .select({
      id: externalPosts.id,
      externalId: externalPosts.externalId,
      publishedAt: externalPosts.publishedAt,
    })
    .from(externalPosts)
    .where(
      and(
        eq(externalPosts.organizationId, organizationId),
        eq(externalPosts.integrationId, integrationId),
        gte(externalPosts.publishedAt, since),
        not(heraldHasIt),
      ),
    );
}

export async function insertExternalSnapshot(
  db: Db,
  row: {
    organizationId: string;
    externalPostId: string;
    integrationId: string;
    checkpoint: string;
    takenAt: Date;
    values: PostMetricValues;
  },
) {
  const v = row.values;
  await db.insert(externalPostMetricSnapshots).values({
    organizationId: row.organizationId,
    externalPostId: row.externalPostId,
    integrationId: row.integrationId,
    checkpoint: row.checkpoint,
    takenAt: row.takenAt,
    views: v.views ?? null,
    reach: v.reach ?? null,
    likes: v.likes ?? null,
    comments: v.comments ?? null,
    shares: v.shares ?? null,
    saves: v.saves ?? null,
    clicks: v.clicks ?? null,
    videoViews: v.videoViews ?? null,
    watchTimeMs: v.watchTimeMs ?? null,
    interactions: v.interactions ?? null,
    raw: v.raw,
  });
}

const list = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

/** An external post's reading, in the shape of a Herald target's, with what the table shows. */
export interface ExternalReading extends TargetReading {
  text: string | null;
  thumbnailUrl: string | null;
}

/**
 * The overview's top posts' other half: external posts of the filter published in [start, end),
 * each with its latest reading taken before `cutoff` (as `listTargetReadings` does for Herald's
 * targets), `targetId` being the external post's id. A post that a Herald target of the same
 * account also has (listed while Herald was still recording its id) is left out.
 */
export function listExternalReadings(
  db: Db,
  f: OverviewFilter,
  start: Date,
  end: Date,
  cutoff: Date,
) {
  const parts = [sql`e.organization_id = ${f.organizationId}`];
  if (f.platformIds?.length) parts.push(sql`e.platform_id in (${list(f.platformIds)})`);
  if (f.integrationIds?.length) parts.push(sql`e.integration_id in (${list(f.integrationIds)})`);
  return rowsOf<ExternalReading>(
    db,
    sql`select e.id as "targetId", null as "postId", e.platform_id as "platformId",
          p.name as platform, coalesce(i.name, i.username) as "accountName",
          to_char(e.published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "publishedAt",
          e.permalink, left(e.text, 280) as text, e.thumbnail_url as "thumbnailUrl",
          s.views::float8 as views, s.reach::float8 as reach,
          s.interactions::float8 as interactions,
          to_char(s.taken_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "takenAt"
        from external_posts e
        join platforms p on p.id = e.platform_id
        join integrations i on i.id = e.integration_id and i.organization_id = e.organization_id
        left join lateral (
          select views, reach, interactions, taken_at from external_post_metric_snapshots s
          where s.external_post_id = e.id and s.organization_id = e.organization_id
            and s.taken_at < ${cutoff.toISOString()}::timestamptz
          order by s.taken_at desc limit 1
        ) s on true
        where ${sql.join(parts, sql` and `)}
          and e.published_at >= ${start.toISOString()}::timestamptz
          and e.published_at < ${end.toISOString()}::timestamptz
          and not exists (select 1 from post_targets t
            where t.organization_id = e.organization_id and t.integration_id = e.integration_id
              and t.external_id = e.external_id)`,
  );
}
