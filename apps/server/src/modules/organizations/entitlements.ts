import type { Db } from '../../db/client.js';

export type EntitledAction = 'invite' | 'post';

/**
 * The one place that decides whether an organization's plan allows an action. Every action is
 * allowed until plans and subscriptions exist; the billing module makes this check real
 * ('No active subscription found. Please subscribe to a plan.' → 403).
 */
export async function requireEntitlement(
  _db: Db,
  _organizationId: string,
  _action: EntitledAction,
): Promise<void> {}
