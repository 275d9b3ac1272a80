import type { LinkClicks } from '@herald/contract';
import { generatePath, Link } from 'react-router';
import { paths } from '@/config/paths';
import { formatCount } from './format';

/**
 * docs/analytics.md#short-links: the clicks on each published post's short links, per account
 * (a post sent to three accounts has three rows: each account's text has its own links).
 */
export function LinkClicksTable({ targets }: { targets: LinkClicks['targets'] }) {
  return (
    <section
      aria-labelledby="analytics-link-clicks"
      className="flex min-w-0 flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-col gap-1">
        <h2 id="analytics-link-clicks" className="text-lg font-semibold text-slate-900">
          Short link clicks
        </h2>
        <p className="text-sm text-slate-600">
          Visits to the posts&apos; short links, counted by Herald as they happen (robots and link
          previews are not counted).
        </p>
      </div>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead className="text-xs text-slate-500">
            <tr>
              <th scope="col" className="py-2 pr-3 font-medium">
                Post
              </th>
              <th scope="col" className="hidden py-2 pr-3 font-medium sm:table-cell">
                Account
              </th>
              <th scope="col" className="hidden py-2 pr-3 font-medium md:table-cell">
                Links
              </th>
              <th scope="col" className="py-2 text-right font-medium">
                Clicks
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {targets.map((t) => (
              <tr key={t.targetId}>
                <th scope="row" className="max-w-80 py-2 pr-3 align-top font-normal">
                  <Link
                    to={generatePath(paths.postDetails, { postId: t.postId })}
                    className="line-clamp-2 font-medium text-indigo-700 hover:underline"
                  >
                    {t.title || t.text || 'Untitled post'}
                  </Link>
                  {/* On phones the account goes under the post. */}
                  <span className="block text-xs text-slate-500 sm:hidden">
                    {t.platform}
                    {t.accountName ? ` · ${t.accountName}` : ''}
                  </span>
                </th>
                <td className="hidden py-2 pr-3 align-top text-slate-700 sm:table-cell">
                  <span className="block">{t.accountName ?? '—'}</span>
                  <span className="block text-xs text-slate-500">{t.platform}</span>
                </td>
                <td className="hidden max-w-72 py-2 pr-3 align-top md:table-cell">
                  <ul className="flex flex-col gap-1">
                    {t.links.map((l) => (
                      <li key={l.shortUrl} className="text-xs text-slate-600">
                        <span className="block truncate" title={l.url}>
                          {l.url}
                        </span>
                        <span className="text-slate-500">
                          {`${l.shortUrl} · ${formatCount(l.clicks)} ${l.clicks === 1 ? 'click' : 'clicks'}`}
                        </span>
                      </li>
                    ))}
                  </ul>
                </td>
                <td className="py-2 text-right align-top font-semibold text-slate-900 tabular-nums">
                  {formatCount(t.clicks)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
