import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { integrations, platforms, posts, postTargets } from '../../db/schema.js';

/** Among `reachable` accounts only (a member limited to some); null: any account. */
const within = (column: AnyPgColumn, reachable: readonly string[] | null) =>
  reachable === null ? undefined : reachable.length ? inArray(column, [...reachable]) : sql`false`;

/**
 * The organization's connected account on a platform, with the platform's name: the one named
 * (the account a post went out from), else the newest.
 */
export async function findConnectedAccount(
  db: Db,
  organizationId: string,
  platformId: string,
  integrationId?: string | null,
  reachable: readonly string[] | null = null,
) {
  const [row] = await db
    .select({ integration: integrations, name: platforms.name })
    .from(integrations)
    .innerJoin(platforms, eq(platforms.id, integrations.platformId))
    .where(
      and(
        eq(integrations.organizationId, organizationId),
        eq(integrations.platformId, platformId),
        eq(integrations.status, 'CONNECTED'),
        integrationId ? eq(integrations.id, integrationId) : undefined,
        within(integrations.id, reachable),
      ),
    )
    .orderBy(desc(integrations.connectedAt))
    .limit(1);
  return row ?? null;
}

/**
 * A post's target on a platform, with the platform's name: the one of the named account, else a
 * published one first (where the post goes to several accounts of the network); null when the
 * post does not go there.
 */
export async function findPostTarget(
  db: Db,
  organizationId: string,
  postId: string,
  platformId: string,
  integrationId?: string,
  reachable: readonly string[] | null = null,
) {
  const [row] = await db
    .select({ target: postTargets, name: platforms.name })
    .from(postTargets)
    .innerJoin(posts, eq(posts.id, postTargets.postId))
    .innerJoin(platforms, eq(platforms.id, postTargets.platformId))
    .where(
      and(
        eq(posts.organizationId, organizationId),
        eq(postTargets.postId, postId),
        eq(postTargets.platformId, platformId),
        integrationId ? eq(postTargets.integrationId, integrationId) : undefined,
        within(postTargets.integrationId, reachable),
      ),
    )
    .orderBy(sql`${postTargets.status} = 'PUBLISHED' desc`, postTargets.createdAt)
    .limit(1);
  return row ?? null;
}
