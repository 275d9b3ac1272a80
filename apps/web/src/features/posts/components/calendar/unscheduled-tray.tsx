import type { Post } from '@herald/contract';
import { CalendarX2 } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { CalendarPostChip } from './calendar-post-chip';
import type { CalendarGridProps } from './calendar-grid-types';

/** How many undated drafts the tray asks for; the rest are in Posts. */
export const UNSCHEDULED_TRAY_SIZE = 50;

/**
 * docs/product.md#calendar: drafts without a time, beside the calendar instead of on the day
 * they were written. Each opens its post; a member who may edit drags one onto a day (or an
 * hour) to schedule it. Nothing shows while there are none.
 */
export function UnscheduledTray({
  posts,
  totalCount,
  canDrag,
  isMovable,
  draggingId,
  dragSource,
}: {
  posts: readonly Post[];
  /** How many undated drafts there are, including those not asked for. */
  totalCount: number;
  /** Whether the view shown has days to drop on (the agenda has none). */
  canDrag: boolean;
} & Pick<CalendarGridProps, 'isMovable' | 'draggingId' | 'dragSource'>) {
  if (posts.length === 0) return null;
  const more = totalCount - posts.length;
  const dragging = canDrag && posts.some(isMovable);
  return (
    <section
      aria-labelledby="unscheduled-tray-title"
      className="rounded-2xl border border-dashed border-slate-300 bg-slate-50 p-3"
    >
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h2
          id="unscheduled-tray-title"
          className="flex items-center gap-1.5 text-sm font-semibold text-slate-900"
        >
          <CalendarX2 className="size-4 text-slate-500" aria-hidden="true" />
          Unscheduled
          <span className="rounded-full bg-slate-200 px-1.5 text-xs font-medium text-slate-700">
            {totalCount}
          </span>
        </h2>
        <p className="text-xs text-slate-600">
          {dragging
            ? 'Drafts without a date. Drag one onto a day to schedule it, or open it.'
            : 'Drafts without a date. Open one to give it a time.'}
        </p>
      </div>
      <ul
        aria-label="Drafts without a date"
        className="mt-2 grid grid-cols-[repeat(auto-fill,minmax(9.5rem,1fr))] gap-1.5"
      >
        {posts.map((post) => (
          <li key={post.id}>
            <CalendarPostChip
              post={post}
              at={null}
              drag={dragSource(post, canDrag && isMovable(post))}
              isDragging={draggingId === post.id}
            />
          </li>
        ))}
      </ul>
      {more > 0 && (
        <p className="mt-2 text-xs text-slate-600">
          And {more} more in{' '}
          <Link
            to={{ pathname: paths.content, search: '?tab=drafts' }}
            className="font-semibold text-indigo-700 underline-offset-4 hover:underline"
          >
            Posts
          </Link>
          .
        </p>
      )}
    </section>
  );
}
