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
    work: { batchSize: 32, pollingIntervalSeconds: 0.5 },
    async handle(payloads) {
      await Promise.all(
        payloads.map(async ({ targetId }) => {
          const outcome = await publisher.run(targetId);
          log.debug({ targetId, outcome }, 'publish target');
        }),
      );
    },
  };
}
