import { defaultContent, type Post } from '@herald/contract';
import type { Dayjs } from 'dayjs';
import { Plus } from 'lucide-react';
import { generatePath, Link } from 'react-router';
import { NetworkMark } from '@/components/ui/network-mark';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { StatusBadge } from '../status-badge';
import { agendaDays, createPostSearch, networksPhrase, postCountLabel } from './calendar-dates';
import type { CalendarGridProps } from './calendar-grid-types';

function AgendaItem({ post, at }: { post: Post; at: Dayjs }) {
  const text = defaultContent(post.content).trim() || 'No content';
  const title = post.title?.trim();
  const networks = networksPhrase(post);
  return (
    <li>
      <Link
        to={generatePath(paths.postDetails, { postId: post.id })}
        className="flex min-w-0 items-start gap-3 rounded-lg px-3 py-2.5 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <span className="w-[4.75rem] shrink-0 pt-0.5 text-sm font-semibold whitespace-nowrap text-slate-900 tabular-nums">
          {at.format('h:mm A')}
        </span>
        <span className="flex min-w-0 flex-1 flex-col gap-1">
          <span
            className={cn(
              'line-clamp-2 text-sm break-words text-slate-800',
              title && 'font-medium',
            )}
          >
            {title || text}
          </span>
          <span className="flex flex-wrap items-center gap-1.5">
            {post.platforms.map((platform) => (
              <NetworkMark key={platform.id} name={platform.name} size="xs" />
            ))}
            {networks && <span className="sr-only">, on {networks}</span>}
            <span className="sr-only">, </span>
            <StatusBadge status={post.status} />
          </span>
        </span>
      </Link>
    </li>
  );
}

/**
 * Phones' calendar (docs/product.md#calendar): the week as a list of days, each with its posts in
 * time order: time, networks, title (or the start of the text) and status. A day's heading
 * opens its list (with "Move to…"); rescheduling by drag is the week and month views' job.
 */
export function AgendaView({ days, byDay, todayKey, canCreate, onOpenDay }: CalendarGridProps) {
  const agenda = agendaDays(days, byDay);
  const total = agenda.reduce((sum, day) => sum + day.posts.length, 0);
  return (
    <div className="flex flex-col gap-3">
      {total === 0 && (
        <p className="rounded-2xl border border-dashed border-slate-300 px-4 py-3 text-sm text-slate-600">
          No posts this week.
        </p>
      )}
      <ol aria-label="Agenda" className="flex flex-col gap-3">
        {agenda.map(({ key, day, posts }) => {
          const isToday = key === todayKey;
          const fullDate = day.format('dddd, MMMM D');
          return (
            <li
              key={key}
              aria-current={isToday ? 'date' : undefined}
              className={cn(
                'rounded-2xl border bg-white shadow-sm',
                isToday ? 'border-indigo-300' : 'border-slate-200',
              )}
            >
              <section aria-label={fullDate}>
                <div className="flex items-center justify-between gap-2 border-b border-slate-100 px-3 py-2">
                  <h3 className="min-w-0">
                    <button
                      type="button"
                      aria-haspopup="dialog"
                      onClick={() => onOpenDay(key)}
                      className="flex flex-wrap items-baseline gap-x-2 rounded-md px-1 text-left hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
                    >
                      <span
                        className={cn(
                          'text-sm font-semibold',
                          isToday ? 'text-indigo-700' : 'text-slate-900',
                        )}
                      >
                        {fullDate}
                        {isToday && ' · Today'}
                      </span>
                      <span className="text-xs font-normal text-slate-600">
                        {posts.length === 0 ? 'No posts' : postCountLabel(posts.length)}
                      </span>
                    </button>
                  </h3>
                  {canCreate && (
                    <Link
                      to={{ pathname: paths.createPost, search: createPostSearch(day) }}
                      aria-label={`Create a post on ${fullDate}`}
                      title="Create a post"
                      className="shrink-0 rounded-md p-1 text-slate-500 hover:bg-indigo-50 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
                    >
                      <Plus className="size-4" aria-hidden="true" />
                    </Link>
                  )}
                </div>
                {posts.length > 0 && (
                  <ul className="flex flex-col divide-y divide-slate-100 p-1">
                    {posts.map(({ post, at }) => (
                      <AgendaItem key={post.id} post={post} at={at} />
                    ))}
                  </ul>
                )}
              </section>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
