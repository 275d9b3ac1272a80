import type { FastifyBaseLogger } from 'fastify';
import {
  INBOX_IMPORT_QUEUE,
  INBOX_POLL_QUEUE,
  INBOX_READ_QUEUE,
  INBOX_READ_RETRY,
  INBOX_SUBSCRIPTIONS_QUEUE,
  INBOX_WEBHOOK_QUEUE,
  type InboxImportJob,
  type InboxReadJob,
  type InboxWebhookJob,
} from '../modules/inbox/inbox-queue.js';
import type { InboxSync } from '../modules/inbox/inbox-sync.js';
import type { AnyJobDefinition, JobDefinition } from './runtime.js';

/**
 * Stored webhook deliveries, parsed and stored (docs/inbox.md#webhooks): each job drains every
 * delivery waiting (its own and what arrived since); a short poll keeps the inbox live.
 */
export const inboxWebhookJob = (sync: InboxSync): JobDefinition<InboxWebhookJob> => ({
  queue: INBOX_WEBHOOK_QUEUE,
  retryLimit: 3,
  work: { batchSize: 10, pollingIntervalSeconds: 0.5 },
  async handle() {
    await sync.processPendingWebhooks();
  },
});

/** A newly connected account: subscribe and import its history. */
export const inboxImportJob = (sync: InboxSync): JobDefinition<InboxImportJob> => ({
  queue: INBOX_IMPORT_QUEUE,
  retryLimit: 2,
  async handle(payloads) {
    for (const { integrationId } of payloads) await sync.importAccount(integrationId);
  },
});

/**
 * An account a pushed notice named (Google Business Profile's Pub/Sub): polled now, from its
 * cursor, whatever its next poll's time. A poll already running for it may have read before the
 * news arrived, so the job fails and pg-boss tries it again after that poll (`readAccounts`
 * sends it with a delay between tries); reading again from the cursor finds nothing twice.
 */
export const inboxReadJob = (sync: InboxSync): JobDefinition<InboxReadJob> => ({
  queue: INBOX_READ_QUEUE,
  retryLimit: INBOX_READ_RETRY.retryLimit,
  // One waiting read per account: notices that arrive while it waits add nothing.
  policy: 'short',
  // One account per job, so a busy account's retry reads no other account again.
  work: { batchSize: 1, pollingIntervalSeconds: 0.5 },
  async handle(payloads) {
    for (const { integrationId } of payloads)
      if ((await sync.pollAccount(integrationId)) === 'BUSY')
        throw new Error(`another poll is reading ${integrationId}; read again after it`);
  },
});

/** Every minute: the accounts whose poll is due (each network's interval decides how often). */
export const inboxPollJob = (
  sync: InboxSync,
  log: FastifyBaseLogger,
): JobDefinition<Record<string, never>> => ({
  queue: INBOX_POLL_QUEUE,
  cron: '* * * * *',
  retryLimit: 0,
  async handle() {
    const outcomes = await sync.pollDue();
    const polled = Object.values(outcomes).filter((o) => o === 'POLLED').length;
    if (polled) log.info({ polled }, 'inbox accounts polled');
  },
});

/** Every 15 minutes: that the app still receives each account's webhooks. */
export const inboxSubscriptionsJob = (sync: InboxSync): JobDefinition<Record<string, never>> => ({
  queue: INBOX_SUBSCRIPTIONS_QUEUE,
  cron: '*/15 * * * *',
  retryLimit: 0,
  async handle() {
    await sync.checkSubscriptions();
  },
});

export const inboxJobs = (sync: InboxSync, log: FastifyBaseLogger): AnyJobDefinition[] => [
  inboxWebhookJob(sync),
  inboxImportJob(sync),
  inboxReadJob(sync),
  inboxPollJob(sync, log),
  inboxSubscriptionsJob(sync),
];
