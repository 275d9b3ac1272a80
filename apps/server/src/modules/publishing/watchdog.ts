import type { Db } from '../../db/client.js';
import { recordPublication } from '../../lib/metrics.js';
import { announceOutcome } from './outcome-notifications.js';
import type { PublishQueue } from './publish-queue.js';
import type { StuckOutcome } from './publisher.js';
import * as repo from './targets.repository.js';
import {
  stuckFollowUps,
  targetsWithWaitingFollowUps,
  transitionFollowUp,
} from './follow-ups.repository.js';

export interface WatchdogDeps {
  db: Db;
  queue: PublishQueue;
  /**
   * Asks the network what became of a target left PUBLISHING (Publisher.reconcileStuck); without
   * it every such target is UNCERTAIN.
   */
  reconcile?: (targetId: string, attemptId: string | null) => Promise<StuckOutcome>;
  /** The same for a thread part or first comment left PUBLISHING (Publisher.reconcileStuckFollowUp). */
  reconcileFollowUp?: (followUpId: string, attemptId: string | null) => Promise<string>;
  /** A target untouched for this long in a working state belongs to a worker that is gone. */
  stuckAfterMs: number;
  now?: () => Date;
}

/** A target left in a working state by a run that is gone, as the watchdog reads it. */
type StuckTarget = { id: string; status: repo.TargetStatus; attemptId: string | null };

/**
 * Settles targets whose run is gone. Before the visible call (PREPARING, READY), the target is
 * simply queued again (nothing was published). After it (PUBLISHING), the network is asked first
 * (most of those posts did go out): found, the target is PUBLISHED with its id and link; still
 * being processed there, it is looked at again on the next run. Only when the network cannot tell
 * does it become UNCERTAIN, and the people who care are told to check. Every move is guarded by
 * the state read (and the attempt), so two settlers never both act on one target.
 */
async function settleStuck(deps: WatchdogDeps, stuckTargets: StuckTarget[], now: Date) {
  let requeued = 0;
  let uncertain = 0;
  let reconciled = 0;
  for (const stuck of stuckTargets) {
    if (stuck.status !== 'PREPARING' && stuck.status !== 'READY') continue;
    const moved = await repo.transition(deps.db, stuck.id, [stuck.status], 'QUEUED');
    if (moved) {
      await deps.queue.retryAt(stuck.id, now);
      requeued += 1;
    }
  }
  for (const stuck of stuckTargets) {
    if (stuck.status !== 'PUBLISHING') continue;
    const looked = deps.reconcile ? await deps.reconcile(stuck.id, stuck.attemptId) : 'UNKNOWN';
    if (looked === 'PUBLISHED') reconciled += 1;
    if (looked !== 'UNKNOWN') continue;
    const loaded = await repo.loadTarget(deps.db, stuck.id);
    if (!loaded) continue;
    const message = `Herald lost track of this post while publishing it to ${loaded.platformName} (the worker stopped), and ${loaded.platformName} could not confirm whether it went out. Check ${loaded.platformName}, then mark it as published or retry.`;
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
    recordPublication(loaded.platformName, 'UNCERTAIN', null);
    await repo.settlePostStatus(deps.db, loaded.post.id, now);
    await announceOutcome(deps.db, {
      organizationId: loaded.post.organizationId,
      postId: loaded.post.id,
      targetId: loaded.target.id,
      authorId: loaded.post.createdByUserId,
      platformName: loaded.platformName,
      outcome: 'UNCERTAIN',
      error: message,
      now,
    });
  }
  return { requeued, uncertain, reconciled };
}

/**
 * Nothing stays "Publishing…" forever: a target untouched in a working state for `stuckAfterMs`
 * is settled (settleStuck). QUEUED targets that are overdue get their job back.
 */
export async function runWatchdog(deps: WatchdogDeps) {
  const now = deps.now?.() ?? new Date();
  const before = new Date(now.getTime() - deps.stuckAfterMs);
  const stuck = [
    ...(await repo.stuckTargets(deps.db, ['PREPARING', 'READY'], before)),
    ...(await repo.stuckTargets(deps.db, ['PUBLISHING'], before)),
  ];
  const { requeued, uncertain, reconciled } = await settleStuck(deps, stuck, now);
  // Thread parts and first comments: a stuck one is looked up (never sent again blindly), and
  // waiting ones whose run was lost get their target's job back.
  for (const stuck of await stuckFollowUps(deps.db, before)) {
    if (deps.reconcileFollowUp) {
      await deps.reconcileFollowUp(stuck.id, stuck.attemptId);
    } else {
      await transitionFollowUp(
        deps.db,
        stuck.id,
        ['PUBLISHING'],
        'UNCERTAIN',
        {
          error:
            'Herald lost track of this part while publishing it (the worker stopped). Check the network, then mark it as published or retry.',
        },
        stuck.attemptId ?? undefined,
      );
    }
  }
  for (const targetId of await targetsWithWaitingFollowUps(deps.db, before)) {
    await deps.queue.retryAt(targetId, now);
  }
  const overdue = await repo.overdueQueued(deps.db, new Date(now.getTime() - 30_000));
  for (const target of overdue) await deps.queue.retryAt(target.id, now);
  return { requeued, uncertain, reconciled, overdue: overdue.length };
}

/**
 * The targets held by a process that died (its heartbeat lapsed past `lapseSeconds`, or its row
 * is gone) are settled now, by the same rules as the watchdog's, instead of after
 * `stuckAfterMs`: each is first taken over by `processId` (one settler per target when several
 * workers notice the same death), so if this process dies in turn, another takes them over.
 */
export async function settleOrphans(deps: WatchdogDeps, processId: string, lapseSeconds: number) {
  const now = deps.now?.() ?? new Date();
  const adopted: StuckTarget[] = [];
  const from = new Set<string>();
  for (const orphan of await repo.orphanedTargets(deps.db, lapseSeconds)) {
    if (!orphan.heldBy) continue;
    if (await repo.adoptTarget(deps.db, orphan.id, orphan.status, orphan.heldBy, processId)) {
      adopted.push(orphan);
      from.add(orphan.heldBy);
    }
  }
  if (adopted.length === 0)
    return { adopted: 0, from: [], requeued: 0, uncertain: 0, reconciled: 0 };
  return { adopted: adopted.length, from: [...from], ...(await settleStuck(deps, adopted, now)) };
}
