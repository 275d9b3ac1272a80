import type { Db } from '../../db/client.js';
import { notifyOrganizationAdmins } from '../notifications/notifications.service.js';
import type { NotificationInput } from '../notifications/notifications.service.js';
import type { PlanRow } from '../plans/plans.service.js';
import { isEntitled } from './subscription-state.js';
import * as repo from './subscriptions.repository.js';

/**
 * Billing groups (docs/product.md#billing-groups). The organization that holds a subscription
 * pays; its owner is the subscriber; the plan's `organizations` number is how many of the
 * subscriber's organizations it covers, the paying one included. Nothing is stored about who is
 * covered: it is worked out from ownership, subscriptions and the subscriber's choice each time
 * it is asked, so a cancellation, a failed payment or a transfer of ownership changes it at once.
 */

export interface GroupOrganization {
  id: string;
  name: string;
  createdAt: Date;
  subscription: repo.SubscriptionRow | null;
  plan: PlanRow | null;
  /** The subscriber's chosen order, or null: covered by creation date after the chosen ones. */
  choice: number | null;
}

type Payer = GroupOrganization & { subscription: repo.SubscriptionRow; plan: PlanRow };

export interface BillingGroup {
  ownerUserId: string;
  /** The organization whose subscription covers the others. */
  payer: Payer;
  plan: PlanRow;
  /** The plan's `organizations`: the paying organization included. */
  limit: number;
  /** The other organizations it covers, in the order they took the room. */
  covered: GroupOrganization[];
  /** The subscriber's organizations the plan has no room for. */
  uncovered: GroupOrganization[];
  /** Other organizations of the subscriber that pay for a plan of their own. */
  ownPlan: GroupOrganization[];
}

export interface ResolveOptions {
  now?: Date;
  /**
   * Treat this organization's subscription as in force whatever its status: who its plan covered,
   * asked once it has ended (to tell them).
   */
  assumeEntitled?: string;
}

const hasPlan = (o: GroupOrganization): o is Payer => Boolean(o.subscription && o.plan);

/**
 * Who pays and who is covered among one owner's organizations (given oldest first). Every
 * organization with a plan in force pays for itself; the one whose plan covers most organizations
 * (the oldest on a tie) is the group's payer and covers the others without a plan of their own:
 * the subscriber's chosen ones first, then by creation date, up to the plan's number.
 */
export function resolveBillingGroup(
  ownerUserId: string,
  organizations: GroupOrganization[],
  { now = new Date(), assumeEntitled }: ResolveOptions = {},
): BillingGroup | null {
  const paying = organizations.filter(
    (o): o is Payer => hasPlan(o) && (o.id === assumeEntitled || isEntitled(o.subscription, now)),
  );
  let payer: Payer | null = null;
  for (const o of paying) {
    if (!payer || o.plan.features.organizations > payer.plan.features.organizations) payer = o;
  }
  if (!payer) return null;
  const payingIds = new Set(paying.map((o) => o.id));
  const candidates = organizations
    .filter((o) => !payingIds.has(o.id))
    .map((o, index) => ({ o, index }))
    .sort(
      (a, b) =>
        (a.o.choice ?? Number.MAX_SAFE_INTEGER) - (b.o.choice ?? Number.MAX_SAFE_INTEGER) ||
        a.index - b.index,
    )
    .map(({ o }) => o);
  const limit = payer.plan.features.organizations;
  const room = Math.max(0, limit - 1);
  return {
    ownerUserId,
    payer,
    plan: payer.plan,
    limit,
    covered: candidates.slice(0, room),
    uncovered: candidates.slice(room),
    ownPlan: paying.filter((o) => o.id !== payer.id),
  };
}

function toGroupOrganizations(rows: repo.BillingGroupRow[]): GroupOrganization[] {
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    createdAt: r.createdAt,
    subscription: r.subscription,
    plan: r.plan,
    choice: r.choice,
  }));
}

/** The owner's organizations (those they still belong to) and the group they make, if any. */
export async function loadBillingGroup(
  db: Db,
  of: { ownerUserId: string } | { organizationId: string },
  options: ResolveOptions = {},
) {
  const rows = await repo.billingGroupRows(db, of);
  const ownerUserId = rows[0]?.ownerUserId ?? null;
  const organizations = toGroupOrganizations(rows);
  return {
    ownerUserId,
    organizations,
    group: ownerUserId ? resolveBillingGroup(ownerUserId, organizations, options) : null,
  };
}

/** Which organization pays for this one when it has no plan of its own, with the group. */
export async function coverageOf(db: Db, organizationId: string, options: ResolveOptions = {}) {
  const { group } = await loadBillingGroup(db, { organizationId }, options);
  if (!group) return null;
  if (group.payer.id === organizationId) return { role: 'payer' as const, group };
  if (group.covered.some((o) => o.id === organizationId))
    return { role: 'covered' as const, group };
  return null;
}

/** Covered organization → who covers it with what: the before and after of a change. */
export type CoverageSnapshot = Map<string, { payerId: string; payerName: string; plan: string }>;

/** Every organization these owners' plans cover now (the paying ones not included). */
export async function snapshotCoverage(
  db: Db,
  ownerUserIds: Array<string | null>,
): Promise<CoverageSnapshot> {
  const snapshot: CoverageSnapshot = new Map();
  for (const ownerUserId of new Set(ownerUserIds)) {
    if (!ownerUserId) continue;
    const { group } = await loadBillingGroup(db, { ownerUserId });
    for (const o of group?.covered ?? []) {
      snapshot.set(o.id, {
        payerId: group!.payer.id,
        payerName: group!.payer.name,
        plan: group!.plan.name,
      });
    }
  }
  return snapshot;
}

/**
 * Tells the admins of each organization whose coverage a change started or ended. `reason`
 * finishes the sentence of an ended one (a transfer says who owns it now).
 */
export async function notifyCoverageChanges(
  db: Db,
  before: CoverageSnapshot,
  after: CoverageSnapshot,
  { reason, skip = new Set<string>() }: { reason?: string; skip?: Set<string> } = {},
) {
  for (const [organizationId, was] of before) {
    const now = after.get(organizationId);
    if (skip.has(organizationId) || (now && now.payerId === was.payerId)) continue;
    await notifyOrganizationAdmins(db, organizationId, {
      type: 'SUBSCRIPTION_UPDATE',
      priority: 'HIGH',
      message: `This organization is no longer covered by ${was.plan} (from ${was.payerName})${reason ? `: ${reason}` : ''}.`,
    });
  }
  for (const [organizationId, is] of after) {
    const was = before.get(organizationId);
    if (skip.has(organizationId) || (was && was.payerId === is.payerId && was.plan === is.plan))
      continue;
    await notifyOrganizationAdmins(db, organizationId, {
      type: 'SUBSCRIPTION_UPDATE',
      priority: 'MEDIUM',
      message: `This organization is now covered by ${is.plan} (from ${is.payerName}).`,
    });
  }
}

/**
 * Passes a notice about the payer's subscription on to the admins of every organization its plan
 * covers (or covered, until the change this notice is about), in their own words. Returns who
 * was told.
 */
export async function notifyCoveredOrganizations(
  db: Db,
  payerId: string,
  notice: Omit<NotificationInput, 'message'> & {
    message: (payer: { name: string; plan: string }) => string;
  },
): Promise<string[]> {
  const coverage = await coverageOf(db, payerId, { assumeEntitled: payerId });
  if (coverage?.role !== 'payer') return [];
  const { group } = coverage;
  const message = notice.message({ name: group.payer.name, plan: group.plan.name });
  for (const o of group.covered) {
    await notifyOrganizationAdmins(db, o.id, { ...notice, message });
  }
  return group.covered.map((o) => o.id);
}
