import type { Db } from '../db/client.js';
import { integrations, postMetricSnapshots, posts, postTargets } from '../db/schema.js';

/** A connected account written straight into the database, for the analytics tests' readings. */
export async function seedConnectedAccount(
  db: Db,
  organizationId: string,
  platformId: string,
  name: string,
): Promise<string> {
  const [row] = await db
    .insert(integrations)
    .values({
      organizationId,
      platformId,
      platformAccountId: `${organizationId}-${name}`,
      status: 'CONNECTED',
      name,
    })
    .returning({ id: integrations.id });
  return row!.id;
}

/**
 * A published post on one account with its readings (`[takenAt, views, reach, interactions]`),
 * written straight into the database as the analytics tests do.
 */
export async function seedPublishedPost(
  db: Db,
  post: {
    organizationId: string;
    integrationId: string;
    platformId: string;
    accountName: string;
    content: string;
    publishedAt: string;
    readings: Array<[string, number | null, number | null, number | null]>;
  },
): Promise<string> {
  const [row] = await db
    .insert(posts)
    .values({
      organizationId: post.organizationId,
      status: 'published',
      content: post.content,
      publishedAt: new Date(post.publishedAt),
    })
    .returning({ id: posts.id });
  const [target] = await db
    .insert(postTargets)
    .values({
      postId: row!.id,
      organizationId: post.organizationId,
      platformId: post.platformId,
      integrationId: post.integrationId,
      accountName: post.accountName,
      status: 'PUBLISHED',
      publishedAt: new Date(post.publishedAt),
    })
    .returning({ id: postTargets.id });
  for (const [takenAt, views, reach, interactions] of post.readings)
    await db.insert(postMetricSnapshots).values({
      organizationId: post.organizationId,
      postId: row!.id,
      targetId: target!.id,
      integrationId: post.integrationId,
      checkpoint: '1h',
      takenAt: new Date(takenAt),
      views,
      reach,
      interactions,
    });
  return row!.id;
}
