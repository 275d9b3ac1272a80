import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { integrations, platforms, posts, postTargets } from '../../db/schema.js';

/** The organization's newest connected account on a platform, with the platform's name. */
export async function findConnectedAccount(db: Db, organizationId: string, platformId: string) {
  const [row] = await db
    .select({ integration: integrations, name: platforms.name })
    .from(integrations)
    .innerJoin(platforms, eq(platforms.id, integrations.platformId))
    .where(
      and(
        eq(integrations.organizationId, organizationId),
        eq(integrations.platformId, platformId),
        eq(integrations.status, 'CONNECTED'),
      ),
    )
    .orderBy(desc(integrations.connectedAt))
    .limit(1);
  return row ?? null;
}

/** A post's target on a platform, with the platform's name; null when the post does not go there. */
export async function findPostTarget(
  db: Db,
  organizationId: string,
  postId: string,
  platformId: string,
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
      ),
    );
  return row ?? null;
}
