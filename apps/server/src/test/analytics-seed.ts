import type { Db } from '../db/client.js';
import { integrations } from '../db/schema.js';

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
