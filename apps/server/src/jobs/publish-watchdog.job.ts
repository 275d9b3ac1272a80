import type { FastifyBaseLogger } from 'fastify';
import { runWatchdog, type WatchdogDeps } from '../modules/publishing/watchdog.js';
import type { JobDefinition } from './runtime.js';

/** Every minute: explain or requeue stuck targets, and give overdue ones their job back. */
export function publishWatchdogJob(
  deps: WatchdogDeps,
  log: FastifyBaseLogger,
): JobDefinition<Record<string, never>> {
  return {
    queue: 'publish.watchdog.v1',
    cron: '* * * * *',
    retryLimit: 0,
    async handle() {
      const result = await runWatchdog(deps);
      if (result.requeued || result.uncertain || result.reconciled || result.overdue) {
        log.info(result, 'publishing watchdog acted');
      }
    },
  };
}
