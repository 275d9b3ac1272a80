import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import * as billing from '../modules/billing/billing.service.js';
import { notifyOrganizationAdmins } from '../modules/notifications/notifications.service.js';
import type { JobDefinition } from './runtime.js';

/**
 * Every minute: ends trials whose 7 days are over, ends self-billed subscriptions cancelled at
 * period end (telling the organizations they covered too), and renews the other self-billed ones. Idempotent (guarded UPDATEs); the API also
 * reads the effective status, so nothing waits on this job for correctness.
 */
export async function sweepSubscriptions(db: Db, now = new Date()) {
  return db.transaction(async (tx) => {
    const expired = await billing.expireTrials(tx, now);
    for (const { organizationId } of expired) {
      await notifyOrganizationAdmins(tx, organizationId, {
        type: 'SUBSCRIPTION_UPDATE',
        priority: 'HIGH',
        message: 'Your free trial has ended. Subscribe to a plan to keep inviting and publishing.',
      });
      await billing.notifyCovered(tx, organizationId, {
        type: 'SUBSCRIPTION_UPDATE',
        priority: 'HIGH',
        message: (payer) =>
          `${payer.name}'s free trial of ${payer.plan}, which covered this organization, has ended.`,
      });
    }
    const ended = await billing.endCanceledPeriods(tx, now);
    for (const { organizationId } of ended) {
      await notifyOrganizationAdmins(tx, organizationId, {
        type: 'SUBSCRIPTION_UPDATE',
        priority: 'HIGH',
        message: 'Your subscription has ended.',
      });
      await billing.notifyCovered(tx, organizationId, {
        type: 'SUBSCRIPTION_UPDATE',
        priority: 'HIGH',
        message: (payer) =>
          `${payer.name}'s ${payer.plan} plan, which covered this organization, has ended.`,
      });
    }
    await billing.renewSelfBilledPeriods(tx, now);
    return { expired: expired.length, ended: ended.length };
  });
}

export function subscriptionsSweepJob(db: Db, log: FastifyBaseLogger): JobDefinition {
  return {
    queue: 'subscriptions.sweep.v1',
    cron: '* * * * *',
    retryLimit: 1,
    async handle() {
      const result = await sweepSubscriptions(db);
      if (result.expired || result.ended) log.info(result, 'subscriptions swept');
    },
  };
}
