import type { Db } from '../../db/client.js';
import { announceOutcome } from './outcome-notifications.js';
import type { PublishQueue } from './publish-queue.js';
import * as repo from './targets.repository.js';

export interface WatchdogDeps {
  db: Db;
  queue: PublishQueue;
  /** A target untouched for this long in a working state belongs to a worker that is gone. */
  stuckAfterMs: number;
  now?: () => Date;
}

/**
 * Nothing stays "Publishing…" forever. Before the visible call, a stuck target is simply queued
 * again (nothing was published). After it, Herald cannot know: the target becomes UNCERTAIN and
 * the people who care are told to check. QUEUED targets that are overdue get their job back.
 */
export async function runWatchdog(deps: WatchdogDeps) {
  const now = deps.now?.() ?? new Date();
  const before = new Date(now.getTime() - deps.stuckAfterMs);
  let requeued = 0;
  let uncertain = 0;
  for (const stuck of await repo.stuckTargets(deps.db, ['PREPARING', 'READY'], before)) {
    const moved = await repo.transition(deps.db, stuck.id, [stuck.status], 'QUEUED');
    if (moved) {
      await deps.queue.retryAt(stuck.id, now);
      requeued += 1;
    }
  }
  for (const stuck of await repo.stuckTargets(deps.db, ['PUBLISHING'], before)) {
    const loaded = await repo.loadTarget(deps.db, stuck.id);
    if (!loaded) continue;
    const message = `Herald lost track of this post while publishing it to ${loaded.platformName} (the worker stopped). Check ${loaded.platformName}, then mark it as published or retry.`;
    const moved = await repo.transition(
      deps.db,
      stuck.id,
      ['PUBLISHING'],
      'UNCERTAIN',
      { error: message },
      stuck.attemptId ?? undefined,
    );
    if (!moved) continue;
    uncertain += 1;
    await repo.settlePostStatus(deps.db, loaded.post.id, now);
    await announceOutcome(deps.db, {
      organizationId: loaded.post.organizationId,
      postId: loaded.post.id,
      targetId: loaded.target.id,
      authorId: loaded.post.createdByUserId,
      platformName: loaded.platformName,
      outcome: 'UNCERTAIN',
      error: message,
    });
  }
  const overdue = await repo.overdueQueued(deps.db, new Date(now.getTime() - 30_000));
  for (const target of overdue) await deps.queue.retryAt(target.id, now);
  return { requeued, uncertain, overdue: overdue.length };
}
