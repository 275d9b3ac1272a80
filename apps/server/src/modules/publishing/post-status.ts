import type { PostStatus, TargetStatus } from '@herald/contract';

/** What the derivation needs of one target. */
export interface TargetState {
  status: TargetStatus;
  dueAt: Date | null;
  publishedAt: Date | null;
}

export interface DerivedPostStatus {
  status: Exclude<PostStatus, 'draft'> | 'draft';
  /** When the post was last published to a network, once nothing is left waiting; else null. */
  publishedAt: Date | null;
  /** The earliest time a waiting target is due; null when none waits for a time. */
  nextAt: Date | null;
}

/** Waiting for its time: not started yet, or uploaded ahead for the network to publish then. */
const WAITS = new Set<TargetStatus>(['QUEUED', 'UPLOADED']);

/** A target the engine is on (or should be on: a QUEUED target already due, e.g. a retry). */
function isWorking(target: TargetState, now: Date) {
  if (target.status === 'PREPARING' || target.status === 'READY') return true;
  if (target.status === 'PUBLISHING') return true;
  return WAITS.has(target.status) && target.dueAt !== null && target.dueAt <= now;
}

/**
 * A QUEUED target waiting for a later time, or for no time at all (a draft's other networks);
 * an UPLOADED one waiting for the time its network publishes it.
 */
function isWaiting(target: TargetState, now: Date) {
  return WAITS.has(target.status) && (target.dueAt === null || target.dueAt > now);
}

/**
 * docs/product.md#post-statuses, the table: the post's status from its targets.
 * 1. any target being worked on (PREPARING, READY, PUBLISHING, or QUEUED and due) → publishing;
 * 2. every target PUBLISHED → published;
 * 3. some PUBLISHED and the rest waiting for a later time, FAILED or UNCERTAIN → partially_published;
 * 4. none PUBLISHED and some waiting → scheduled (draft when none of them has a time);
 * 5. none PUBLISHED and nothing waiting (all FAILED or UNCERTAIN) → failed.
 * The post's publishedAt is the last publication, set only once nothing is waiting or working.
 */
export function derivePostStatus(targets: readonly TargetState[], now: Date): DerivedPostStatus {
  const waiting = targets.filter((t) => isWaiting(t, now));
  const dueTimes = waiting.flatMap((t) => (t.dueAt ? [t.dueAt.getTime()] : []));
  const nextAt = dueTimes.length > 0 ? new Date(Math.min(...dueTimes)) : null;
  const published = targets.filter((t) => t.status === 'PUBLISHED');
  const lastOut =
    published.length > 0
      ? new Date(Math.max(...published.map((t) => t.publishedAt?.getTime() ?? 0)))
      : null;

  if (targets.some((t) => isWorking(t, now))) {
    return { status: 'publishing', publishedAt: null, nextAt };
  }
  if (published.length > 0 && published.length === targets.length) {
    return { status: 'published', publishedAt: lastOut, nextAt: null };
  }
  if (published.length > 0) {
    return {
      status: 'partially_published',
      publishedAt: waiting.length === 0 ? lastOut : null,
      nextAt,
    };
  }
  if (waiting.length > 0) {
    return { status: nextAt ? 'scheduled' : 'draft', publishedAt: null, nextAt };
  }
  return { status: 'failed', publishedAt: null, nextAt: null };
}
