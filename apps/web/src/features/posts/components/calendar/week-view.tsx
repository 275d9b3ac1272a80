import dayjs from 'dayjs';
import { Plus } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { createPostSearch, dayKey, postCountLabel } from './calendar-dates';
import {
  dayTarget,
  dropHighlight,
  slotTarget,
  type CalendarGridProps,
} from './calendar-grid-types';
import { CalendarPostChip } from './calendar-post-chip';
import { EmptySlotMarker } from './empty-slot-marker';

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
/** The grid opens scrolled to the working day. */
const FIRST_VISIBLE_HOUR = 7;
const hourLabel = (hour: number) => dayjs().startOf('day').hour(hour).format('h A');
const slotTime = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/**
 * docs/product.md#calendar: Sunday to Saturday. Each day's header has its post count, opens the day's list
 * and offers "Create a post"; under it the day runs hour by hour. Dropping a post on a header
 * keeps its time, on an hour sets that hour. Clicking an empty hour starts a post at that time
 * (keyboard users pick the time in the day's list).
 */
export function WeekView({
  days,
  byDay,
  todayKey,
  canCreate,
  emptySlots,
  onOpenDay,
  isMovable,
  draggingId,
  dragSource,
  dropTarget,
}: CalendarGridProps) {
  const navigate = useNavigate();
  const scroller = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const container = scroller.current;
    const row = container?.querySelector<HTMLElement>(`[data-hour="${FIRST_VISIBLE_HOUR}"]`);
    const head = container?.querySelector<HTMLElement>('thead');
    if (container && row) container.scrollTop = row.offsetTop - (head?.offsetHeight ?? 0);
  }, []);

  return (
    <div
      ref={scroller}
      className="relative max-h-[70vh] overflow-auto rounded-2xl border border-slate-200 bg-white shadow-sm"
    >
      <table className="w-full min-w-[52rem] table-fixed border-collapse text-sm">
        <caption className="sr-only">Posts of the week, by day and hour</caption>
        <thead className="sticky top-0 z-10 bg-white shadow-[0_1px_0_0_var(--color-slate-200)]">
          <tr>
            <td className="w-16" />
            {days.map((day) => {
              const key = dayKey(day);
              const count = byDay.get(key)?.length ?? 0;
              const isToday = key === todayKey;
              return (
                <th
                  key={key}
                  scope="col"
                  aria-label={day.format('dddd, MMMM D')}
                  aria-current={isToday ? 'date' : undefined}
                  {...dropTarget(dayTarget(key))}
                  className={cn(
                    'border-l border-slate-200 p-2 text-left align-top font-normal',
                    isToday && 'bg-indigo-50',
                    dropHighlight,
                  )}
                >
                  <button
                    type="button"
                    aria-haspopup="dialog"
                    onClick={() => onOpenDay(key)}
                    className="flex w-full flex-col items-start rounded-md px-1 text-left hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
                  >
                    <span
                      aria-hidden="true"
                      className="text-xs font-semibold text-slate-600 uppercase"
                    >
                      {day.format('ddd')}
                    </span>
                    <span
                      aria-hidden="true"
                      className={cn(
                        'text-xl font-bold',
                        isToday ? 'text-indigo-700' : 'text-slate-900',
                      )}
                    >
                      {day.format('D')}
                    </span>
                    <span className="sr-only">{day.format('dddd, MMMM D')}</span>
                    <span className="text-xs text-slate-600">
                      {count === 0 ? 'No posts scheduled' : postCountLabel(count)}
                    </span>
                  </button>
                  {canCreate && (
                    <Link
                      to={{ pathname: paths.createPost, search: createPostSearch(day) }}
                      aria-label={`Create a post on ${day.format('dddd, MMMM D')}`}
                      className="mt-1 inline-flex items-center gap-1 rounded-md px-1 text-xs font-semibold text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
                    >
                      <Plus className="size-3" aria-hidden="true" />
                      Create a post
                    </Link>
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {HOURS.map((hour) => (
            <tr key={hour} data-hour={hour} className="border-t border-slate-100">
              <th
                scope="row"
                className="w-16 px-2 py-1 text-right align-top text-xs font-normal whitespace-nowrap text-slate-500"
              >
                {hourLabel(hour)}
              </th>
              {days.map((day) => {
                const key = dayKey(day);
                const posts = (byDay.get(key) ?? []).filter(({ at }) => at.hour() === hour);
                const open = (emptySlots?.get(key) ?? []).filter(({ at }) => at.hour() === hour);
                return (
                  <td
                    key={key}
                    {...dropTarget(slotTarget(key, hour))}
                    title={
                      canCreate
                        ? `Create a post on ${day.format('ddd, MMM D')} at ${hourLabel(hour)}`
                        : undefined
                    }
                    onClick={(event) => {
                      if (!canCreate || event.target !== event.currentTarget) return;
                      void navigate({
                        pathname: paths.createPost,
                        search: createPostSearch(day, slotTime(hour)),
                      });
                    }}
                    className={cn(
                      'h-12 border-l border-slate-100 p-1 align-top',
                      canCreate && 'cursor-pointer hover:bg-slate-50',
                      key === todayKey && 'bg-indigo-50/40',
                      dropHighlight,
                    )}
                  >
                    {posts.length > 0 && (
                      <ul className="flex flex-col gap-1">
                        {posts.map(({ post, at }) => (
                          <li key={post.id}>
                            <CalendarPostChip
                              post={post}
                              at={at}
                              drag={dragSource(post, isMovable(post))}
                              isDragging={draggingId === post.id}
                            />
                          </li>
                        ))}
                      </ul>
                    )}
                    {open.map((slot) => (
                      <EmptySlotMarker key={slot.at.valueOf()} slot={slot} />
                    ))}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
