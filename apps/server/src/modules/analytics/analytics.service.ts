import { webUrlOrNull } from '@herald/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import type { TokenCipher } from '../../lib/token-crypto.js';
import { PlatformError } from '../../platforms/errors.js';
import type { NetworkRuntime } from '../../platforms/runtime.js';
import type { MetricsAdapter, StoredAccount } from '../../platforms/types.js';
import { refreshAccount, toStoredAccount } from '../integrations/integrations.service.js';
import * as external from './analytics-external.repository.js';
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

/**
 * Posts published outside Herald (docs/analytics.md#posts-published-outside-herald): how far
 * back the daily listing looks and how long such a post is read (the schedule's 90 days), how
 * many posts one listing takes, and how old a listed post must be (a post Herald is publishing
 * right now may be listed before Herald recorded its id).
 */
export const EXTERNAL_WINDOW_MS = 90 * 86_400_000;
export const EXTERNAL_LIST_LIMIT = 50;
export const EXTERNAL_MIN_AGE_MS = 15 * 60_000;

export type CollectOutcome =
  'COLLECTED' | 'NOTHING' | 'SKIPPED' | 'X_OFF' | 'BUDGET_SPENT' | 'BACKING_OFF' | 'REFUSED';

/** What one collection of an organization did (the contract's `AnalyticsReadCounts`). */
export interface CollectCounts {
  targets: number;
  collected: number;
  queued: number;
  accounts: number;
}

const metricsOf = (networks: Map<string, NetworkRuntime>, platformName: string) =>
  [...networks.values()].find((n) => n.name === platformName)?.adapter.metrics ?? null;

const monthOf = (d: Date) => d.toISOString().slice(0, 7);

/** A connected account's row, as the integrations module stores it. */
type AccountRow = Parameters<typeof toStoredAccount>[1];

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
  private async mayRead(
    metrics: MetricsAdapter,
    organizationId: string,
    integrationId: string,
    reads = 1,
  ) {
    if (!metrics.billedReads) return 'OK' as const;
    const settings = await repo.getSettings(this.deps.db, organizationId);
    if (!settings?.xEnabled) return 'X_OFF' as const;
    if (await repo.takeXReads(this.deps.db, organizationId, monthOf(this.now()), reads))
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

  /**
   * A read with the account's tokens. When the network says they no longer work (`reauth`) and
   * they can be refreshed, they are refreshed once — one refresher at a time per account, from
   * the tokens as they are once its lock is held (`refreshAccount`, as the publisher does) — and
   * the read is made again; `access.row` then holds the refreshed account for later reads. A
   * refused refresh marks the account for reconnecting and is the read's refusal.
   */
  private async withTokens<T>(
    access: { row: AccountRow },
    platformName: string,
    read: (account: StoredAccount) => Promise<T>,
  ): Promise<T> {
    try {
      return await read(toStoredAccount(this.deps.cipher, access.row));
    } catch (err) {
      const network = [...this.deps.networks.values()].find((n) => n.name === platformName);
      if (!(err instanceof PlatformError) || err.kind !== 'reauth' || !network?.adapter.refresh)
        throw err;
      access.row = await refreshAccount(this.deps, network, access.row);
      return read(toStoredAccount(this.deps.cipher, access.row));
    }
  }

  /** One snapshot of a published target (the snapshot job). */
  async collectSnapshot(job: SnapshotJob): Promise<CollectOutcome> {
    return (await this.snapshot(job)).outcome;
  }

  /**
   * One snapshot, and whether it was queued again for the end of a wait the network asked for
   * (a back-off still running, or a rate limit now).
   */
  private async snapshot(job: SnapshotJob): Promise<{ outcome: CollectOutcome; queued: boolean }> {
    const { db } = this.deps;
    const done = (outcome: CollectOutcome, queued = false) => ({ outcome, queued });
    const loaded = await repo.loadPublishedTarget(db, job.targetId);
    if (
      !loaded?.integration ||
      !loaded.target.externalId ||
      loaded.integration.status !== 'CONNECTED'
    )
      return done('SKIPPED');
    const { target, integration } = loaded;
    const metrics = metricsOf(this.deps.networks, loaded.platformName);
    if (!metrics) return done('SKIPPED');
    const status = await repo.getAccountStatus(db, integration.id);
    if (status?.backoffUntil && status.backoffUntil > this.now())
      return done('BACKING_OFF', await this.deps.queue.retryAt(job, status.backoffUntil));
    const allowed = await this.mayRead(metrics, target.organizationId, integration.id);
    if (allowed !== 'OK') return done(allowed);
    try {
      const values = await this.withTokens({ row: integration }, loaded.platformName, (account) =>
        metrics.postMetrics(account, {
          externalId: target.externalId!,
          publishedAt: target.publishedAt ?? this.now(),
        }),
      );
      if (!values) return done('NOTHING');
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
      return done('COLLECTED');
    } catch (err) {
      const retryAt = await this.refused(integration.id, target.organizationId, err);
      return done('REFUSED', retryAt ? await this.deps.queue.retryAt(job, retryAt) : false);
    }
  }

  /**
   * One organization's metrics now: a reading of every published target (published since
   * `publishedSince` when given; checkpoint `manual`, on top of the schedule's) and today's
   * figures of every connected account, under the same X budget and back-off rules as the jobs.
   * A reading the network asks to wait for is queued for the end of the wait. The operator's
   * "collect now" and the organization's "Refresh metrics" both come here.
   */
  async collectNow(
    organizationId: string,
    { publishedSince }: { publishedSince?: Date } = {},
  ): Promise<CollectCounts> {
    const { db } = this.deps;
    const counts: CollectCounts = { targets: 0, collected: 0, queued: 0, accounts: 0 };
    const batched = new Set<string>();
    // Networks that read many posts in one request (X) get one request per account.
    for (const group of await repo.listPublishedTargetsByAccount(
      db,
      organizationId,
      publishedSince,
    )) {
      const metrics = metricsOf(this.deps.networks, group.platformName);
      if (!metrics?.postMetricsBatch) continue;
      for (const t of group.targets) batched.add(t.id);
      counts.targets += group.targets.length;
      const read = await this.collectBatch(group, metrics);
      counts.collected += read.collected;
      counts.queued += read.queued;
    }
    for (const targetId of await repo.listPublishedTargetIds(db, organizationId, publishedSince)) {
      if (batched.has(targetId)) continue;
      counts.targets += 1;
      const read = await this.snapshot({ targetId, checkpoint: 'manual' });
      if (read.outcome === 'COLLECTED') counts.collected += 1;
      if (read.queued) counts.queued += 1;
    }
    const accounts = await this.collectAccounts(organizationId);
    counts.accounts = Object.values(accounts).filter((o) => o === 'COLLECTED').length;
    return counts;
  }

  /** Each target's reading queued for `at` (the end of its account's back-off); how many were. */
  private async queueBatch(targets: Array<{ id: string }>, at: Date): Promise<number> {
    let queued = 0;
    for (const t of targets)
      if (await this.deps.queue.retryAt({ targetId: t.id, checkpoint: 'manual' }, at)) queued += 1;
    return queued;
  }

  /**
   * One account's published targets read in batches (`postMetricsBatch`, X's
   * `GET /2/tweets?ids=`): one billed read per post, taken from the budget before asking;
   * answers how many targets got a reading, and how many were queued for the end of a back-off.
   */
  private async collectBatch(
    group: Awaited<ReturnType<typeof repo.listPublishedTargetsByAccount>>[number],
    metrics: MetricsAdapter,
  ): Promise<{ collected: number; queued: number }> {
    const { db } = this.deps;
    const { integration } = group;
    const none = { collected: 0, queued: 0 };
    if (integration.status !== 'CONNECTED' || !group.targets.length) return none;
    const status = await repo.getAccountStatus(db, integration.id);
    if (status?.backoffUntil && status.backoffUntil > this.now())
      return { collected: 0, queued: await this.queueBatch(group.targets, status.backoffUntil) };
    const allowed = await this.mayRead(
      metrics,
      integration.organizationId,
      integration.id,
      group.targets.length,
    );
    if (allowed !== 'OK') return none;
    try {
      const values = await this.withTokens({ row: integration }, group.platformName, (account) =>
        metrics.postMetricsBatch!(
          account,
          group.targets.map((t) => ({
            externalId: t.externalId,
            publishedAt: t.publishedAt ?? this.now(),
          })),
        ),
      );
      const now = this.now();
      let collected = 0;
      for (const t of group.targets) {
        const read = values.get(t.externalId);
        if (!read) continue;
        await repo.insertSnapshot(db, {
          organizationId: integration.organizationId,
          postId: t.postId,
          targetId: t.id,
          integrationId: integration.id,
          checkpoint: 'manual',
          takenAt: now,
          values: read,
        });
        collected += 1;
      }
      await repo.setAccountStatus(db, {
        integrationId: integration.id,
        organizationId: integration.organizationId,
        now,
        staleReason: null,
      });
      return { collected, queued: 0 };
    } catch (err) {
      const retryAt = await this.refused(integration.id, integration.organizationId, err);
      return retryAt
        ? { collected: 0, queued: await this.queueBatch(group.targets, retryAt) }
        : none;
    }
  }

  /**
   * The account's posts published outside Herald (docs/analytics.md#posts-published-outside-herald):
   * lists its recent posts, keeps those Herald did not publish, and takes one reading of each
   * published in the last 90 days. Runs with the account's daily figures.
   */
  private async collectExternal(
    integration: Awaited<ReturnType<typeof repo.listConnectedIntegrations>>[number]['integration'],
    metrics: MetricsAdapter,
  ): Promise<void> {
    if (!metrics.listRecentPosts) return;
    const { db } = this.deps;
    const account = toStoredAccount(this.deps.cipher, integration);
    const since = new Date(this.now().getTime() - EXTERNAL_WINDOW_MS);
    const listed = await metrics.listRecentPosts(account, { since, limit: EXTERNAL_LIST_LIMIT });
    const settled = new Date(this.now().getTime() - EXTERNAL_MIN_AGE_MS);
    await external.upsertExternalPosts(db, {
      organizationId: integration.organizationId,
      integrationId: integration.id,
      platformId: integration.platformId,
      now: this.now(),
      // The permalink and picture become a link and an image: only web addresses are kept.
      posts: listed
        .filter((p) => p.publishedAt <= settled)
        .map((p) => ({
          ...p,
          permalink: webUrlOrNull(p.permalink),
          thumbnailUrl: webUrlOrNull(p.thumbnailUrl),
        })),
    });
    // A stored post that a Herald target now has is counted by the target's readings: dropped,
    // never read (nor counted) twice.
    await external.deleteExternalPostsHeraldPublished(
      db,
      integration.organizationId,
      integration.id,
    );
    const toRead = await external.listExternalPostsToRead(
      db,
      integration.organizationId,
      integration.id,
      since,
    );
    if (!toRead.length) return;
    // A billed network takes one read per post from the budget, or reads none of them.
    const allowed = await this.mayRead(
      metrics,
      integration.organizationId,
      integration.id,
      toRead.length,
    );
    if (allowed !== 'OK') return;
    const values = new Map<string, Awaited<ReturnType<MetricsAdapter['postMetrics']>>>();
    if (metrics.postMetricsBatch) {
      const read = await metrics.postMetricsBatch(account, toRead);
      for (const [id, v] of read) values.set(id, v);
    } else {
      for (const p of toRead) values.set(p.externalId, await metrics.postMetrics(account, p));
    }
    const now = this.now();
    for (const p of toRead) {
      const read = values.get(p.externalId);
      if (!read) continue;
      await external.insertExternalSnapshot(db, {
        organizationId: integration.organizationId,
        externalPostId: p.id,
        integrationId: integration.id,
        checkpoint: 'daily',
        takenAt: now,
        values: read,
      });
    }
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
      const access = { row: integration };
      const values = await this.withTokens(access, platformName, (account) =>
        metrics.accountMetrics(account),
      );
      if (!values) return 'NOTHING';
      const now = this.now();
      // Past days the network still gives (Instagram's follower_count) fill the days Herald
      // did not read; a day it read is kept.
      if (values.followersHistory?.length)
        await repo.fillFollowerDays(db, {
          organizationId: integration.organizationId,
          integrationId: integration.id,
          at: now,
          days: values.followersHistory,
        });
      await repo.upsertAccountDay(db, {
        organizationId: integration.organizationId,
        integrationId: integration.id,
        day: now.toISOString().slice(0, 10),
        at: now,
        values,
      });
      // With the tokens the read above ended with (refreshed, if it had to).
      await this.collectExternal(access.row, metrics);
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

/** The organization's X switch and monthly read budget, which the inbox's X reads share. */
export function getXSettings(db: Db, organizationId: string) {
  return repo.getSettings(db, organizationId);
}

/** Counts reads another module already made against this month's X budget (the inbox's polls). */
export function chargeXReads(db: Db, organizationId: string, month: string, reads: number) {
  return repo.chargeXReads(db, organizationId, month, reads);
}
