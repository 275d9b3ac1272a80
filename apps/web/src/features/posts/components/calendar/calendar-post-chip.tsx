import { defaultContent, type Post } from '@herald/contract';
import type { Dayjs } from 'dayjs';
import type { ComponentProps } from 'react';
import { generatePath, Link } from 'react-router';
import { NetworkMark } from '@/components/ui/network-mark';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { accountsLine } from '../post-accounts';
import { statusLabel, statusStyle, uploadedAheadTo } from '../post-status';
import { networksPhrase } from './calendar-dates';

export const DRAG_HINT_ID = 'calendar-drag-hint';

type DragProps = Partial<Pick<ComponentProps<'a'>, 'onDragStart' | 'onDragEnd'>> & {
  draggable: boolean;
};

/**
 * A chip has room for this many network marks; a post for more networks shows one fewer and
 * "+N" in the last place, so the row never grows wider than three marks.
 */
export const MARKS_PER_CHIP = 3;

/** The network marks a chip shows, and how many networks "+N" stands for. */
export function chipMarks<T>(platforms: readonly T[]): { shown: T[]; more: number } {
  if (platforms.length <= MARKS_PER_CHIP) return { shown: [...platforms], more: 0 };
  const shown = platforms.slice(0, MARKS_PER_CHIP - 1);
  return { shown, more: platforms.length - shown.length };
}

/**
 * A post in a calendar cell: time, status colour, the networks it goes to and the start of its
 * text; opens the post.
 */
export function CalendarPostChip({
  post,
  at,
  drag,
  isDragging = false,
}: {
  post: Post;
  /** The post's wall time; null for a draft without one (the Unscheduled tray). */
  at: Dayjs | null;
  drag: DragProps;
  isDragging?: boolean;
}) {
  const text = defaultContent(post.content).trim() || 'No content';
  // The title, when set, names the post better than the start of its text.
  const label = post.title?.trim() || text;
  const style = statusStyle(post.status);
  // Which accounts it goes out from, else which networks (a post from before accounts were named).
  const who = accountsLine(post) || networksPhrase(post);
  const time = at ? at.format('h:mm A') : 'No date';
  const marks = chipMarks(post.platforms);
  // Already at a network that publishes it itself at its time (YouTube's scheduling).
  const uploaded = uploadedAheadTo(post);
  const status = `${statusLabel(post.status)}${uploaded.length ? ` (uploaded to ${uploaded.join(', ')})` : ''}`;
  return (
    <Link
      to={generatePath(paths.postDetails, { postId: post.id })}
      title={`${time} · ${status}${who ? ` · ${who}` : ''} · ${post.title?.trim() ? `${post.title.trim()} · ` : ''}${text}`}
      aria-describedby={drag.draggable ? DRAG_HINT_ID : undefined}
      {...drag}
      className={cn(
        'block rounded-md border border-slate-200 bg-white px-1.5 py-1 text-xs text-slate-800 shadow-sm hover:border-indigo-300 hover:bg-indigo-50',
        'focus-visible:outline-2 focus-visible:outline-indigo-600',
        drag.draggable && 'cursor-grab active:cursor-grabbing',
        isDragging && 'opacity-50',
      )}
    >
      {/* In a narrow cell the marks wrap under the time rather than spill out of the chip. */}
      <span className="flex flex-wrap items-center gap-x-1.5 gap-y-0.5">
        <span className="flex items-center gap-1.5">
          <span className={cn('size-2 shrink-0 rounded-full', style.accent)} aria-hidden="true" />
          <span className="font-semibold whitespace-nowrap tabular-nums">{time}</span>
        </span>
        <span className="ml-auto flex shrink-0 items-center gap-0.5">
          {marks.shown.map((platform) => (
            <NetworkMark key={platform.id} name={platform.name} size="xs" className="size-4" />
          ))}
          {marks.more > 0 && (
            <span
              aria-hidden="true"
              data-testid="more-networks"
              className="grid h-4 min-w-4 place-items-center rounded-full bg-slate-200 px-0.5 text-[0.625rem] leading-none font-semibold text-slate-700"
            >
              +{marks.more}
            </span>
          )}
        </span>
      </span>
      <span className={cn('block truncate', label !== text && 'font-medium')}>{label}</span>
      <span className="sr-only">
        , {status}
        {who && `, on ${who}`}
      </span>
    </Link>
  );
}
