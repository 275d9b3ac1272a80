import { networkBySlug } from '../../platforms/catalog.js';
import type { PublishCaps } from '../../platforms/network-module.js';

/**
 * How hard Herald may push a network: its module's `publishCaps`, read from the network's own
 * limits.ts so the numbers live in one place (docs/networks.md#at-a-glance).
 */
export function capsOf(slug: string): PublishCaps {
  const network = networkBySlug(slug);
  if (!network) throw new Error(`No network '${slug}' in the catalog.`);
  return network.publishCaps;
}

/**
 * Slots of the caps above, taken by the publisher around a run: at most `limit` holders of one
 * key at a time. Resolves with the slot's release, or null when `signal` aborts the wait (the
 * worker is stopping: nothing was started, the run hands its target back).
 */
export interface PublishSlots {
  acquire(key: string, limit: number, signal?: AbortSignal): Promise<(() => void) | null>;
  /** Gives back whatever is still held (the process is stopping). */
  close(): Promise<void>;
}

/**
 * Per-key counting semaphores within this process. Enough on its own where one process publishes
 * (the embedded PGlite database belongs to one); shared-slots.ts builds the cluster-wide slots of
 * PostgreSQL on it.
 */
export class Semaphores implements PublishSlots {
  private readonly held = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  async acquire(key: string, limit: number, signal?: AbortSignal): Promise<(() => void) | null> {
    if ((this.held.get(key) ?? 0) >= limit) {
      const granted = await new Promise<boolean>((resolve) => {
        const grant = () => {
          signal?.removeEventListener('abort', abort);
          resolve(true);
        };
        const abort = () => {
          const queue = this.waiting.get(key) ?? [];
          const at = queue.indexOf(grant);
          // Already granted: the slot is this waiter's and is given back below.
          if (at >= 0) queue.splice(at, 1);
          resolve(at < 0);
        };
        if (signal?.aborted) return resolve(false);
        this.waiting.set(key, [...(this.waiting.get(key) ?? []), grant]);
        signal?.addEventListener('abort', abort, { once: true });
      });
      if (!granted) return null;
    } else {
      this.held.set(key, (this.held.get(key) ?? 0) + 1);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const queue = this.waiting.get(key) ?? [];
      const next = queue.shift();
      // The slot passes straight to the next waiter; otherwise it is given back.
      if (next) next();
      else this.held.set(key, (this.held.get(key) ?? 1) - 1);
    };
  }

  async close() {}
}
