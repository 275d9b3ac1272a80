import type { Dayjs } from 'dayjs';
import { Plus } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { createPostSearch, dayKey, postCountLabel } from './calendar-dates';
import { dayTarget, dropHighlight, type CalendarGridProps } from './calendar-grid-types';
import { statusStyle } from '../post-status';
import { CalendarPostChip } from './calendar-post-chip';
import { EmptySlotCount } from './empty-slot-marker';

/** A month cell shows this many posts; the rest are behind "+N more" (the day's list). */
const CHIPS_PER_DAY = 3;
/** A phone's month cell shows this many status dots; its count says the rest. */
const DOTS_PER_DAY = 3;

/**
 * A phone's month: all seven days fit at 390 px, each cell a button with the day, its post
 * count and a dot per post (its status colour), opening the day's list.
 */
function CompactMonth({
  weeks,
  month,
  byDay,
  todayKey,
  emptySlots,
  onOpenDay,
  dropTarget,
}: Pick<CalendarGridProps, 'byDay' | 'todayKey' | 'emptySlots' | 'onOpenDay' | 'dropTarget'> & {
  weeks: Dayjs[][];
  month: Dayjs;
}) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white shadow-sm">
      <table className="w-full table-fixed border-collapse text-sm">
        <MonthHead weeks={weeks} month={month} dayFormat="dd" />
        <tbody>
          {weeks.map((week) => (
            <tr key={dayKey(week[0]!)}>
              {week.map((day) => {
                const key = dayKey(day);
                const posts = byDay.get(key) ?? [];
                const openSlots = emptySlots?.get(key)?.length ?? 0;
                const isToday = key === todayKey;
                const isOtherMonth = day.month() !== month.month();
                return (
                  <td
                    key={key}
                    aria-current={isToday ? 'date' : undefined}
                    {...dropTarget(dayTarget(key))}
                    className={cn(
                      'h-16 border border-slate-100 p-0 align-top',
                      isOtherMonth && 'bg-slate-50',
                      isToday && 'bg-indigo-50',
                      dropHighlight,
                    )}
                  >
                    <button
                      type="button"
                      aria-haspopup="dialog"
                      aria-label={`${day.format('dddd, MMMM D')}, ${posts.length === 0 ? 'no posts' : postCountLabel(posts.length)}${openSlots ? `, ${openSlots} open queue ${openSlots === 1 ? 'slot' : 'slots'}` : ''}`}
                      onClick={() => onOpenDay(key)}
                      className="flex size-full min-h-16 flex-col items-center gap-1 px-0.5 py-1 hover:bg-slate-100 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600"
                    >
                      <span
                        className={cn(
                          'text-xs font-semibold',
                          isOtherMonth ? 'text-slate-500' : 'text-slate-900',
                          isToday && 'text-indigo-700',
                        )}
                      >
                        {day.format('D')}
                      </span>
                      {posts.length > 0 && (
                        <span aria-hidden="true" className="flex items-center gap-0.5">
                          {posts.slice(0, DOTS_PER_DAY).map(({ post }) => (
                            <span
                              key={post.id}
                              className={cn(
                                'size-1.5 rounded-full',
                                statusStyle(post.status).accent,
                              )}
                            />
                          ))}
                        </span>
                      )}
                      {posts.length > DOTS_PER_DAY && (
                        <span
                          aria-hidden="true"
                          className="text-[0.625rem] leading-none text-slate-600"
                        >
                          {posts.length}
                        </span>
                      )}
                      {openSlots > 0 && (
                        <span
                          aria-hidden="true"
                          className="size-1.5 rounded-full border border-dashed border-slate-400"
                        />
                      )}
                    </button>
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

/**
 * Six Sunday-to-Saturday weeks around the month. Each day has its count, its first posts, and
 * "Create a post"; dropping a post on a day keeps its time of day. On a phone the compact month
 * shows instead.
 */
export function MonthView({
  days,
  month,
  byDay,
  todayKey,
  canCreate,
  emptySlots,
  onOpenDay,
  isMovable,
  draggingId,
  dragSource,
  dropTarget,
  compact = false,
}: CalendarGridProps & {
  month: Dayjs;
  /** A phone's month: every day visible, with dots instead of chips. */
  compact?: boolean;
}) {
  const weeks = Array.from({ length: Math.ceil(days.length / 7) }, (_, i) =>
    days.slice(i * 7, i * 7 + 7),
  );
  if (compact) {
    return (
      <CompactMonth
        weeks={weeks}
        month={month}
        byDay={byDay}
        todayKey={todayKey}
        emptySlots={emptySlots}
        onOpenDay={onOpenDay}
        dropTarget={dropTarget}
      />
    );
  }
  return (
    <div className="relative overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm">
      <table className="w-full min-w-[52rem] table-fixed border-collapse text-sm">
        <MonthHead weeks={weeks} month={month} dayFormat="ddd" className="uppercase" />
        <tbody>
          {weeks.map((week) => (
            <tr key={dayKey(week[0]!)}>
              {week.map((day) => {
                const key = dayKey(day);
                const posts = byDay.get(key) ?? [];
                const hidden = posts.length - CHIPS_PER_DAY;
                const isToday = key === todayKey;
                const isOtherMonth = day.month() !== month.month();
                const fullDate = day.format('dddd, MMMM D');
                return (
                  <td
                    key={key}
                    aria-current={isToday ? 'date' : undefined}
                    {...dropTarget(dayTarget(key))}
                    className={cn(
                      'h-32 border border-slate-100 p-1.5 align-top',
                      isOtherMonth && 'bg-slate-50',
                      isToday && 'bg-indigo-50',
                      dropHighlight,
                    )}
                  >
                    <div className="flex items-center justify-between gap-1">
                      <button
                        type="button"
                        aria-haspopup="dialog"
                        aria-label={`${fullDate}, ${posts.length === 0 ? 'no posts' : postCountLabel(posts.length)}`}
                        onClick={() => onOpenDay(key)}
                        className={cn(
                          'flex items-center gap-1.5 rounded-md px-1 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600',
                          isOtherMonth ? 'text-slate-500' : 'text-slate-900',
                        )}
                      >
                        <span className={cn('font-semibold', isToday && 'text-indigo-700')}>
                          {day.format('D')}
                        </span>
                        {posts.length > 0 && (
                          <span className="rounded-full bg-slate-200 px-1.5 text-xs text-slate-700">
                            {posts.length}
                          </span>
                        )}
                      </button>
                      {canCreate && (
                        <Link
                          to={{ pathname: paths.createPost, search: createPostSearch(day) }}
                          aria-label={`Create a post on ${fullDate}`}
                          title="Create a post"
                          className="rounded-md p-0.5 text-slate-500 hover:bg-indigo-50 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
                        >
                          <Plus className="size-4" aria-hidden="true" />
                        </Link>
                      )}
                    </div>
                    {posts.length > 0 && (
                      <ul className="mt-1 flex flex-col gap-1">
                        {posts.slice(0, CHIPS_PER_DAY).map(({ post, at }) => (
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
                    {hidden > 0 && (
                      <button
                        type="button"
                        aria-haspopup="dialog"
                        aria-label={`${hidden} more on ${fullDate}`}
                        onClick={() => onOpenDay(key)}
                        className="mt-1 rounded-md px-1 text-xs font-semibold text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
                      >
                        +{hidden} more
                      </button>
                    )}
                    <EmptySlotCount slots={emptySlots?.get(key) ?? []} />
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

/** The month table's caption and weekday row: two letters on a phone, three on a desktop. */
function MonthHead({
  weeks,
  month,
  dayFormat,
  className = '',
}: {
  weeks: Dayjs[][];
  month: Dayjs;
  dayFormat: 'dd' | 'ddd';
  className?: string;
}) {
  return (
    <>
      <caption className="sr-only">Posts of {month.format('MMMM YYYY')}, by day</caption>
      <thead>
        <tr>
          {weeks[0]?.map((day) => (
            <th
              key={day.day()}
              scope="col"
              abbr={day.format('dddd')}
              className={`border-b border-slate-200 py-2 text-xs font-semibold text-slate-600 ${className}`.trim()}
            >
              {day.format(dayFormat)}
            </th>
          ))}
        </tr>
      </thead>
    </>
  );
}
