import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import type { TokenCipher } from '../../lib/token-crypto.js';
import { PlatformError } from '../../platforms/errors.js';
import type { NetworkRuntime } from '../../platforms/runtime.js';
import type { MetricsAdapter } from '../../platforms/types.js';
import { toStoredAccount } from '../integrations/integrations.service.js';
import type { AnalyticsQueue, SnapshotJob } from './analytics-queue.js';
import * as repo from './analytics.repository.js';

export interface AnalyticsDeps {
  db: Db;
  networks: Map<string, NetworkRuntime>;
  cipher: TokenCipher;
  queue: AnalyticsQueue;
  log: FastifyBaseLogger;
  now?: () => Date;
}

/** How long a rate-limited account is left alone when the network does not say. */
export const DEFAULT_BACKOFF_MS = 15 * 60_000;

export type CollectOutcome =
  'COLLECTED' | 'NOTHING' | 'SKIPPED' | 'X_OFF' | 'BUDGET_SPENT' | 'BACKING_OFF' | 'REFUSED';

const metricsOf = (networks: Map<string, NetworkRuntime>, platformName: string) =>
  [...networks.values()].find((n) => n.name === platformName)?.adapter.metrics ?? null;

const monthOf = (d: Date) => d.toISOString().slice(0, 7);

/**
 * Collects analytics from the networks. A refused read never throws to the caller: it marks the
 * account's analytics stale with the network's reason, and a rate limit also sets a back-off.
 * Publishing is never touched.
 */
export class AnalyticsCollector {
  constructor(private readonly deps: AnalyticsDeps) {}

  private now() {
    return this.deps.now?.() ?? new Date();
  }

  /** Whether X's billed reads may go ahead for this organization; takes them from the budget. */
  private async mayRead(metrics: MetricsAdapter, organizationId: string, integrationId: string) {
    if (!metrics.billedReads) return 'OK' as const;
    const settings = await repo.getSettings(this.deps.db, organizationId);
    if (!settings?.xEnabled) return 'X_OFF' as const;
    if (await repo.takeXReads(this.deps.db, organizationId, monthOf(this.now()), 1))
      return 'OK' as const;
    await repo.setAccountStatus(this.deps.db, {
      integrationId,
      organizationId,
      now: this.now(),
      staleReason: `This month's budget of ${settings.xMonthlyReadBudget} X reads is spent; X metrics resume next month or when the budget is raised.`,
    });
    return 'BUDGET_SPENT' as const;
  }

  /** Records a refusal; returns when to try again for a rate limit. */
  private async refused(integrationId: string, organizationId: string, err: unknown) {
    const now = this.now();
    const message = err instanceof PlatformError ? err.message : 'The network could not be read.';
    const backoffUntil =
      err instanceof PlatformError && err.kind === 'rate_limited'
        ? new Date(
            now.getTime() +
              (err.details.retryAfterSeconds !== undefined
                ? err.details.retryAfterSeconds * 1000
                : DEFAULT_BACKOFF_MS),
          )
        : null;
    await repo.setAccountStatus(this.deps.db, {
      integrationId,
      organizationId,
      now,
      staleReason: message,
      backoffUntil,
    });
    this.deps.log.info({ integrationId, err: message }, 'analytics read refused');
    return backoffUntil;
  }

  /** One snapshot of a published target (the snapshot job). */
  async collectSnapshot(job: SnapshotJob): Promise<CollectOutcome> {
    const { db } = this.deps;
    const loaded = await repo.loadPublishedTarget(db, job.targetId);
    if (
      !loaded?.integration ||
      !loaded.target.externalId ||
      loaded.integration.status !== 'CONNECTED'
    )
      return 'SKIPPED';
    const { target, integration } = loaded;
    const metrics = metricsOf(this.deps.networks, loaded.platformName);
    if (!metrics) return 'SKIPPED';
    const status = await repo.getAccountStatus(db, integration.id);
    if (status?.backoffUntil && status.backoffUntil > this.now()) {
      await this.deps.queue.retryAt(job, status.backoffUntil);
      return 'BACKING_OFF';
    }
    const allowed = await this.mayRead(metrics, target.organizationId, integration.id);
    if (allowed !== 'OK') return allowed;
    try {
      const values = await metrics.postMetrics(toStoredAccount(this.deps.cipher, integration), {
        externalId: target.externalId!,
        publishedAt: target.publishedAt ?? this.now(),
      });
      if (!values) return 'NOTHING';
      const now = this.now();
      await repo.insertSnapshot(db, {
        organizationId: target.organizationId,
        postId: target.postId,
        targetId: target.id,
        integrationId: integration.id,
        checkpoint: job.checkpoint,
        takenAt: now,
        values,
      });
      await repo.setAccountStatus(db, {
        integrationId: integration.id,
        organizationId: target.organizationId,
        now,
        staleReason: null,
      });
      return 'COLLECTED';
    } catch (err) {
      const retryAt = await this.refused(integration.id, target.organizationId, err);
      if (retryAt) await this.deps.queue.retryAt(job, retryAt);
      return 'REFUSED';
    }
  }

  /**
   * An operator's "collect now" for one organization: a reading of every published target
   * (checkpoint `manual`, on top of the schedule's) and today's figures of every connected
   * account, under the same X budget and back-off rules as the jobs.
   */
  async collectNow(organizationId: string) {
    const counts = { targets: 0, collected: 0, accounts: 0 };
    for (const targetId of await repo.listPublishedTargetIds(this.deps.db, organizationId)) {
      counts.targets += 1;
      const outcome = await this.collectSnapshot({ targetId, checkpoint: 'manual' });
      if (outcome === 'COLLECTED') counts.collected += 1;
    }
    const accounts = await this.collectAccounts(organizationId);
    counts.accounts = Object.values(accounts).filter((o) => o === 'COLLECTED').length;
    return counts;
  }

  /** Today's figures of every connected account (the daily job), or of one organization's. */
  async collectAccounts(organizationId?: string): Promise<Record<string, CollectOutcome>> {
    const { db } = this.deps;
    const outcomes: Record<string, CollectOutcome> = {};
    for (const { integration, platformName } of await repo.listConnectedIntegrations(
      db,
      organizationId,
    )) {
      outcomes[integration.id] = await this.collectAccount(integration, platformName);
    }
    return outcomes;
  }

  private async collectAccount(
    integration: Awaited<ReturnType<typeof repo.listConnectedIntegrations>>[number]['integration'],
    platformName: string,
  ): Promise<CollectOutcome> {
    const { db } = this.deps;
    const metrics = metricsOf(this.deps.networks, platformName);
    if (!metrics) return 'SKIPPED';
    const status = await repo.getAccountStatus(db, integration.id);
    if (status?.backoffUntil && status.backoffUntil > this.now()) return 'BACKING_OFF';
    const allowed = await this.mayRead(metrics, integration.organizationId, integration.id);
    if (allowed !== 'OK') return allowed;
    try {
      const values = await metrics.accountMetrics(toStoredAccount(this.deps.cipher, integration));
      if (!values) return 'NOTHING';
      const now = this.now();
      await repo.upsertAccountDay(db, {
        organizationId: integration.organizationId,
        integrationId: integration.id,
        day: now.toISOString().slice(0, 10),
        at: now,
        values,
      });
      await repo.setAccountStatus(db, {
        integrationId: integration.id,
        organizationId: integration.organizationId,
        now,
        staleReason: null,
      });
      return 'COLLECTED';
    } catch (err) {
      await this.refused(integration.id, integration.organizationId, err);
      return 'REFUSED';
    }
  }
}
