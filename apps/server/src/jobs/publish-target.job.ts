import type { FastifyBaseLogger } from 'fastify';
import { PUBLISH_QUEUE, type PublishJob } from '../modules/publishing/publish-queue.js';
import type { Publisher } from '../modules/publishing/publisher.js';
import type { JobDefinition } from './runtime.js';

/**
 * Publishes one target. Safe to run twice: each step of the publisher is a guarded transition,
 * so a duplicate or retried job finds the target already moved and does nothing.
 */
export function publishTargetJob(
  publisher: Publisher,
  log: FastifyBaseLogger,
): JobDefinition<PublishJob> {
  return {
    queue: PUBLISH_QUEUE,
    retryLimit: 3,
    // pg-boss fetches the next batch only when the whole batch is done, and waits out the rest of
    // the polling interval after a quick one: at most batchSize jobs per 0.5 s per worker (16 gave
    // 32/s, so 1,000 posts due together took 31–34 s; bench/scheduler.mjs). 64 with X's
    // concurrency of 32 (caps.ts) takes half a burst in one fetch: 1,000 in ~10–16 s on 2 cores.
    // The price: a worker that dies strands up to batchSize − concurrency fetched jobs, which the
    // watchdog's overdue pass gives back (a minute or so later).
    work: { batchSize: 64, pollingIntervalSeconds: 0.5 },
    // Publish now (and a retry asked for by hand) is waited on by a person: the job is fetched
    // when it is committed, not at the next poll (which cost 0.5–0.7 s per Publish now;
    // bench/publish-now.mjs). Jobs due later wake nobody until their time.
    wakeOnSend: true,
    // A stopping worker's targets are handed back at their next safe step (Publisher.handBack).
    async handle(payloads, signal) {
      const targetIds = payloads.map(({ targetId }) => targetId);
      const outcomes = await publisher.runMany(targetIds, signal);
      targetIds.forEach((targetId, i) =>
        log.debug({ targetId, outcome: outcomes[i] }, 'publish target'),
      );
    },
  };
}
