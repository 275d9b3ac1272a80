import type { PgBoss } from 'pg-boss';
import { wakeLocalWorkers } from '../../lib/local-workers.js';

/** A stored webhook delivery to parse and store (versioned with its payload). */
export const INBOX_WEBHOOK_QUEUE = 'inbox.webhook.v1';
/** The first import of a connected account's inbox, and its webhook subscription. */
export const INBOX_IMPORT_QUEUE = 'inbox.import.v1';
/** Every minute: polls the accounts whose next poll is due. */
export const INBOX_POLL_QUEUE = 'inbox.poll.v1';
/** An account a network's notice says has news (Google's Pub/Sub): read now, as its poll reads. */
export const INBOX_READ_QUEUE = 'inbox.read.v1';
/**
 * A pushed read that met a running poll is tried again after it: most polls end within seconds,
 * and a claim lasts 10 minutes at most, so tries 5 s apart, doubling, reach past either.
 */
export const INBOX_READ_RETRY = { retryLimit: 7, retryDelay: 5, retryBackoff: true } as const;
/** Every 15 minutes: checks that the app still receives each account's webhooks. */
export const INBOX_SUBSCRIPTIONS_QUEUE = 'inbox.subscriptions.v1';

const WEBHOOK_DEBOUNCE_MS = 250;

export interface InboxWebhookJob {
  eventId: string;
}
export interface InboxImportJob {
  integrationId: string;
}
export type InboxReadJob = InboxImportJob;

/** Where inbox jobs go: the process's pg-boss (none in tests without a worker). */
export class InboxQueue {
  private lastSentAt = 0;
  private trailing: NodeJS.Timeout | null = null;

  constructor(private readonly boss: PgBoss | null) {}

  private async send(eventId: string) {
    this.lastSentAt = Date.now();
    if (!this.boss) return;
    await this.boss.send(INBOX_WEBHOOK_QUEUE, { eventId } satisfies InboxWebhookJob, {
      singletonKey: 'pending-deliveries',
    });
    // A handler in this process takes it now instead of at its next poll (up to 0.5 s later).
    wakeLocalWorkers(this.boss, INBOX_WEBHOOK_QUEUE);
  }

  /**
   * One job drains every stored delivery, so a burst needs one job, not one per delivery: at
   * most one is queued per second from this process, the last one of a burst after it. (Should
   * the process stop in between, the minute's poll job drains what is left.)
   */
  async processWebhook(eventId: string): Promise<void> {
    if (!this.boss) return;
    if (Date.now() - this.lastSentAt >= WEBHOOK_DEBOUNCE_MS) {
      await this.send(eventId);
      return;
    }
    this.trailing ??= setTimeout(() => {
      this.trailing = null;
      void Promise.resolve(this.send(eventId)).catch(() => {});
    }, WEBHOOK_DEBOUNCE_MS).unref();
  }

  /**
   * Reads these accounts now (a pushed notice). Keyed per account: notices delivered twice, or
   * several for one account while its read waits, make one read.
   */
  async readAccounts(integrationIds: string[]): Promise<void> {
    if (!this.boss) return;
    for (const integrationId of integrationIds)
      await this.boss.send(INBOX_READ_QUEUE, { integrationId } satisfies InboxReadJob, {
        singletonKey: integrationId,
        ...INBOX_READ_RETRY,
      });
    if (integrationIds.length) wakeLocalWorkers(this.boss, INBOX_READ_QUEUE);
  }

  /** After an account connects; keyed so a double connect imports once. */
  async importAccounts(integrationIds: string[]): Promise<void> {
    for (const integrationId of integrationIds) {
      await this.boss?.send(INBOX_IMPORT_QUEUE, { integrationId } satisfies InboxImportJob, {
        singletonKey: integrationId,
      });
    }
  }
}
