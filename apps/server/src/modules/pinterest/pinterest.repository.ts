import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { integrations, platforms } from '../../db/schema.js';

/** A connected account of the organization, with its network's name. */
export async function findAccountWithNetwork(
  db: Db,
  organizationId: string,
  integrationId: string,
) {
  const [row] = await db
    .select({ integration: integrations, networkName: platforms.name })
    .from(integrations)
    .innerJoin(platforms, eq(platforms.id, integrations.platformId))
    .where(
      and(eq(integrations.organizationId, organizationId), eq(integrations.id, integrationId)),
    );
  return row ?? null;
}
