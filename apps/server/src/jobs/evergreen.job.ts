import { runEvergreen, type EvergreenDeps } from '../modules/evergreen/evergreen.service.js';
import type { JobDefinition } from './runtime.js';

/**
 * Evergreen (docs/evergreen.md): every minute, the collections fill the empty queue slots of
 * the next EVERGREEN_FILL_AHEAD_HOURS, and repeating posts whose latest occurrence went out get
 * their next one.
 */
export function evergreenJob(deps: EvergreenDeps): JobDefinition {
  return {
    queue: 'evergreen.fill.v1',
    cron: '* * * * *',
    retryLimit: 1,
    async handle() {
      const done = await runEvergreen(deps);
      if (done.filled > 0 || done.repeated > 0) deps.log.info(done, 'evergreen posts made');
    },
  };
}
