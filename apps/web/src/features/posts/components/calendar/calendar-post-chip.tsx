import { defaultContent, type Post } from '@herald/contract';
import type { Dayjs } from 'dayjs';
import type { ComponentProps } from 'react';
import { generatePath, Link } from 'react-router';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { statusLabel, statusStyle } from '../post-status';

export const DRAG_HINT_ID = 'calendar-drag-hint';

type DragProps = Partial<Pick<ComponentProps<'a'>, 'onDragStart' | 'onDragEnd'>> & {
  draggable: boolean;
};

/** A post in a calendar cell: time, status colour and the start of its text; opens the post. */
export function CalendarPostChip({
  post,
  at,
  drag,
  isDragging = false,
}: {
  post: Post;
  at: Dayjs;
  drag: DragProps;
  isDragging?: boolean;
}) {
  const text = defaultContent(post.content).trim() || 'No content';
  // The title, when set, names the post better than the start of its text.
  const label = post.title?.trim() || text;
  const style = statusStyle(post.status);
  return (
    <Link
      to={generatePath(paths.postDetails, { postId: post.id })}
      title={`${at.format('h:mm A')} · ${statusLabel(post.status)} · ${post.title?.trim() ? `${post.title.trim()} · ` : ''}${text}`}
      aria-describedby={drag.draggable ? DRAG_HINT_ID : undefined}
      {...drag}
      className={cn(
        'block rounded-md border border-slate-200 bg-white px-1.5 py-1 text-xs text-slate-800 shadow-sm hover:border-indigo-300 hover:bg-indigo-50',
        'focus-visible:outline-2 focus-visible:outline-indigo-600',
        drag.draggable && 'cursor-grab active:cursor-grabbing',
        isDragging && 'opacity-50',
      )}
    >
      <span className="flex items-center gap-1.5">
        <span className={cn('size-2 shrink-0 rounded-full', style.accent)} aria-hidden="true" />
        <span className="font-semibold tabular-nums">{at.format('h:mm A')}</span>
      </span>
      <span className={cn('block truncate', label !== text && 'font-medium')}>{label}</span>
      <span className="sr-only">, {statusLabel(post.status)}</span>
    </Link>
  );
}
