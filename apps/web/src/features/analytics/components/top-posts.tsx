import type { AnalyticsOverview } from '@herald/contract';
import { FileText } from 'lucide-react';
import { generatePath, Link } from 'react-router';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import type { TopPostsSort } from '../api/analytics';
import { formatCount, formatRate } from './format';

type TopPost = AnalyticsOverview['topPosts'][number];

const SORTS: Array<{ value: TopPostsSort; label: string }> = [
  { value: 'views', label: 'Views' },
  { value: 'interactions', label: 'Interactions' },
  { value: 'engagement', label: 'Engagement' },
];

/** The range's best posts by the chosen figure, each linking to its details. */
export function TopPosts({
  posts,
  sort,
  onSort,
}: {
  posts: TopPost[];
  sort: TopPostsSort;
  onSort: (sort: TopPostsSort) => void;
}) {
  return (
    <section
      aria-labelledby="analytics-top-posts"
      className="flex min-w-0 flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="analytics-top-posts" className="text-lg font-semibold text-slate-900">
          Top posts
        </h2>
        <div
          role="group"
          aria-label="Sort top posts by"
          className="flex gap-1 rounded-lg bg-slate-100 p-1"
        >
          {SORTS.map((s) => (
            <button
              key={s.value}
              type="button"
              aria-pressed={sort === s.value}
              onClick={() => onSort(s.value)}
              className={cn(
                'rounded-md px-3 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600',
                sort === s.value
                  ? 'bg-white text-slate-900 shadow-sm'
                  : 'text-slate-600 hover:text-slate-900',
              )}
            >
              {s.label}
            </button>
          ))}
        </div>
      </div>
      {posts.length === 0 ? (
        <p className="text-sm text-slate-600">No post published in this range has been read yet.</p>
      ) : (
        <div className="overflow-x-auto">
          {/* On phones the figures go under each post (no sideways scrolling for them). */}
          <table className="w-full text-left text-sm sm:min-w-[36rem]">
            <thead className="text-xs text-slate-500">
              <tr>
                <th scope="col" className="py-2 pr-3 font-medium">
                  Post
                </th>
                <th scope="col" className="hidden py-2 pr-3 font-medium sm:table-cell">
                  Account
                </th>
                <th
                  scope="col"
                  className="hidden py-2 pr-3 text-right font-medium sm:table-cell"
                  aria-sort={sort === 'views' ? 'descending' : undefined}
                >
                  Views
                </th>
                <th
                  scope="col"
                  className="hidden py-2 pr-3 text-right font-medium sm:table-cell"
                  aria-sort={sort === 'interactions' ? 'descending' : undefined}
                >
                  Interactions
                </th>
                <th
                  scope="col"
                  className="hidden py-2 text-right font-medium sm:table-cell"
                  aria-sort={sort === 'engagement' ? 'descending' : undefined}
                >
                  Engagement
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {posts.map((p) => (
                <tr key={p.targetId}>
                  <th scope="row" className="max-w-80 py-2 pr-3 font-normal">
                    <div className="flex items-center gap-3">
                      {/* The picture repeats the link next to it: decorative for screen readers. */}
                      {p.thumbnailUrl ? (
                        <img
                          src={p.thumbnailUrl}
                          alt=""
                          loading="lazy"
                          className="hidden size-10 shrink-0 rounded-md border border-slate-200 bg-slate-100 object-cover sm:block"
                        />
                      ) : (
                        <span className="hidden size-10 shrink-0 items-center justify-center rounded-md border border-slate-200 bg-slate-50 text-slate-400 sm:flex">
                          <FileText className="size-4" aria-hidden="true" />
                        </span>
                      )}
                      {p.source === 'herald' && p.postId ? (
                        <Link
                          to={generatePath(paths.postDetails, { postId: p.postId })}
                          className="line-clamp-2 font-medium text-indigo-700 hover:underline"
                        >
                          {p.title || p.text || 'Untitled post'}
                        </Link>
                      ) : (
                        // Published outside Herald: no details page, the post on its network.
                        <span className="min-w-0">
                          {p.permalink ? (
                            <a
                              href={p.permalink}
                              target="_blank"
                              rel="noreferrer"
                              className="line-clamp-2 font-medium text-indigo-700 hover:underline"
                            >
                              {p.text || 'Untitled post'}
                              <span className="sr-only"> (opens on {p.platform})</span>
                            </a>
                          ) : (
                            <span className="line-clamp-2 font-medium text-slate-900">
                              {p.text || 'Untitled post'}
                            </span>
                          )}
                          <span className="block text-xs text-slate-500">
                            Published outside Herald
                          </span>
                        </span>
                      )}
                    </div>
                    <span className="mt-1 block text-xs text-slate-500 sm:hidden">
                      {p.accountName ?? 'Account'} · {p.platform}
                      <span className="block text-slate-700 tabular-nums">
                        {formatCount(p.views)} views · {formatCount(p.interactions)} interactions ·{' '}
                        {formatRate(p.engagementRate)}
                      </span>
                    </span>
                  </th>
                  <td className="hidden py-2 pr-3 text-slate-700 sm:table-cell">
                    <span className="block">{p.accountName ?? 'Account'}</span>
                    <span className="text-xs text-slate-500">{p.platform}</span>
                  </td>
                  <td className="hidden py-2 pr-3 text-right tabular-nums sm:table-cell">
                    {formatCount(p.views)}
                  </td>
                  <td className="hidden py-2 pr-3 text-right tabular-nums sm:table-cell">
                    {formatCount(p.interactions)}
                  </td>
                  <td className="hidden py-2 text-right tabular-nums sm:table-cell">
                    {formatRate(p.engagementRate)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
