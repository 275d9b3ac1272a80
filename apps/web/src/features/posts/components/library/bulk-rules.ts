import type { Post, PostStatus } from '@herald/contract';

/*
 * Which chosen posts each bulk action takes (docs/product.md#bulk-actions), as the server decides
 * it: the bar says beforehand why an action does not fit the selection instead of letting the
 * server refuse it. The server still checks, and its sentence is shown when it refuses.
 */

export type BulkActionName =
  'reschedule' | 'queue' | 'duplicate' | 'approve' | 'reject' | 'draft' | 'delete';

/** How a status reads in a reason, one post and several. */
const STATUS_WORDS: Record<PostStatus, [string, string]> = {
  draft: ['draft', 'drafts'],
  pending_approval: ['post waiting for approval', 'posts waiting for approval'],
  scheduled: ['scheduled post', 'scheduled posts'],
  publishing: ['post being published', 'posts being published'],
  partially_published: ['partly published post', 'partly published posts'],
  published: ['published post', 'published posts'],
  failed: ['failed post', 'failed posts'],
};

interface Rule {
  /** The statuses the action takes. */
  takes: readonly PostStatus[];
  /** Whether a post of those statuses also needs a time. */
  needsTime?: boolean;
  /** The reason's start, before "unselect …". */
  says: string;
}

const RULES: Record<BulkActionName, Rule | null> = {
  reschedule: {
    takes: ['scheduled', 'pending_approval', 'partially_published', 'failed'],
    needsTime: true,
    says: 'Only posts with a time (scheduled, waiting for approval or failed) can be rescheduled',
  },
  queue: {
    takes: ['draft', 'scheduled', 'pending_approval', 'failed'],
    says: 'Posts already published or being published cannot be added to the queue',
  },
  approve: { takes: ['pending_approval'], says: 'Only posts waiting for approval can be approved' },
  reject: { takes: ['pending_approval'], says: 'Only posts waiting for approval can be rejected' },
  draft: {
    takes: ['draft', 'pending_approval', 'scheduled', 'failed'],
    says: 'Posts already published (or being published) cannot go back to draft',
  },
  delete: {
    takes: ['draft', 'pending_approval', 'scheduled', 'partially_published', 'published', 'failed'],
    says: 'Posts being published right now cannot be deleted',
  },
  duplicate: null,
};

const fits = (rule: Rule, post: Post) =>
  rule.takes.includes(post.status) && (!rule.needsTime || Boolean(post.scheduledAt));

/** "2 drafts and 1 published post": the posts that do not fit, by why. */
function describe(rule: Rule, posts: readonly Post[]): string {
  const counts = new Map<PostStatus | 'timeless', number>();
  for (const post of posts) {
    // A post of a status the action takes does not fit for want of a time.
    const key = rule.takes.includes(post.status) ? 'timeless' : post.status;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const parts = [...counts].map(([key, n]) => {
    if (key === 'timeless') return `${n} ${n === 1 ? 'post' : 'posts'} without a time`;
    const [one, many] = STATUS_WORDS[key];
    return `${n} ${n === 1 ? one : many}`;
  });
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0]!;
}

/**
 * Why `action` does not fit the chosen posts, as a sentence naming what to unselect; null when
 * every one of them can take it.
 */
export function bulkReason(action: BulkActionName, posts: readonly Post[]): string | null {
  const rule = RULES[action];
  if (!rule) return null;
  const misfits = posts.filter((post) => !fits(rule, post));
  if (misfits.length === 0) return null;
  return `${rule.says}: unselect ${describe(rule, misfits)}.`;
}

/** Whether any chosen post waits for a decision (the bar offers Approve and Reject then). */
export const anyWaiting = (posts: readonly Post[]) =>
  posts.some((post) => post.status === 'pending_approval');
