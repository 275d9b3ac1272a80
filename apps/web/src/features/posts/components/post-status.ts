import type { Post } from '@herald/contract';

/**
 * docs/product.md#post-statuses: a post's colours by status. The library and details know draft, scheduled,
 * publishing, partially published, published (same as posted) and failed; the calendar also knows the workflow statuses some
 * teams use. Matching ignores case, and `_` or `-` read as spaces ("ON_HOLD" is "on hold").
 * Any other status takes the draft style.
 */
export interface StatusStyle {
  /** Badge background and text (contrast AA on both). */
  badge: string;
  /** A small solid accent: calendar dots and chip edges. */
  accent: string;
}

const DRAFT: StatusStyle = { badge: 'bg-slate-100 text-slate-700', accent: 'bg-slate-400' };
const PUBLISHED: StatusStyle = {
  badge: 'bg-emerald-100 text-emerald-800',
  accent: 'bg-emerald-500',
};
const FAILED: StatusStyle = { badge: 'bg-red-100 text-red-800', accent: 'bg-red-500' };
const IN_PROGRESS: StatusStyle = { badge: 'bg-amber-100 text-amber-900', accent: 'bg-amber-500' };

const STATUS_STYLES: Record<string, StatusStyle> = {
  draft: DRAFT,
  scheduled: { badge: 'bg-blue-100 text-blue-800', accent: 'bg-blue-500' },
  published: PUBLISHED,
  posted: PUBLISHED,
  // Some networks have it; others wait for their time or failed.
  'partially published': {
    badge: 'bg-emerald-50 text-emerald-900 ring-1 ring-emerald-300 ring-inset',
    accent: 'bg-emerald-300',
  },
  failed: FAILED,
  errors: FAILED,
  approved: { badge: 'bg-teal-100 text-teal-800', accent: 'bg-teal-500' },
  'in progress': IN_PROGRESS,
  // Herald's own "the engine is on it" state reads as in progress.
  publishing: IN_PROGRESS,
  'on hold': { badge: 'bg-orange-100 text-orange-900', accent: 'bg-orange-500' },
  sent: { badge: 'bg-cyan-100 text-cyan-900', accent: 'bg-cyan-500' },
  'waiting for approval': { badge: 'bg-yellow-100 text-yellow-900', accent: 'bg-yellow-500' },
  // Herald's own docs/product.md#approvals state.
  'pending approval': { badge: 'bg-yellow-100 text-yellow-900', accent: 'bg-yellow-500' },
  idea: { badge: 'bg-violet-100 text-violet-800', accent: 'bg-violet-500' },
};

function normalize(status: string): string {
  return status.trim().toLowerCase().replace(/[_-]+/g, ' ').replace(/\s+/g, ' ');
}

export function statusStyle(status: string | null | undefined): StatusStyle {
  return STATUS_STYLES[normalize(status ?? '')] ?? DRAFT;
}

/** "waiting_for_approval" → "Waiting for approval"; an empty status reads "Draft". */
export function statusLabel(status: string | null | undefined): string {
  const text = normalize(status ?? '');
  if (!text) return 'Draft';
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** docs/product.md#post-statuses: editing is offered only when the post is not published (or posted). */
export function isPublished(status: string | null | undefined): boolean {
  const text = normalize(status ?? '');
  return text === 'published' || text === 'posted';
}

/** Whether Edit is offered: not for a post that is out everywhere, nor while it is going out. */
export function isEditable(status: string | null | undefined): boolean {
  return !isPublished(status) && normalize(status ?? '') !== 'publishing';
}

/**
 * When the post's next network is due: the earliest time a queued target waits for, or a target
 * uploaded ahead is published at by its network, if it is still ahead ("Next: {time}" beside
 * "Partially published").
 */
export function nextPublication(
  post: Pick<Post, 'platformPosts'>,
  now = Date.now(),
): string | null {
  const ahead = post.platformPosts
    .filter(
      (t) =>
        (t.status === 'QUEUED' || t.status === 'UPLOADED') && t.dueAt && Date.parse(t.dueAt) > now,
    )
    .map((t) => t.dueAt!)
    .sort((a, b) => Date.parse(a) - Date.parse(b));
  return ahead[0] ?? null;
}

/**
 * The networks that already hold the post, uploaded ahead, and publish it themselves at its time
 * (a YouTube video YouTube makes public then), once each.
 */
export function uploadedAheadTo(post: Pick<Post, 'platformPosts'>): string[] {
  return [
    ...new Set(
      post.platformPosts.filter((t) => t.status === 'UPLOADED').map((t) => t.platformName),
    ),
  ];
}
