import type { Post } from '@herald/contract';
import { useId, type ReactNode } from 'react';
import { TimeZoneNote } from '@/components/ui/time-zone-note';
import { useTimeZoneRule } from '@/lib/use-time-zone';
import { formatPostDate } from '../post-dates';
import { nextPublication } from '../post-status';
import { StatusBadge } from '../status-badge';
import { ApprovalHistory } from './approval-history';

/** docs/product.md#post-details: Status, Created At, Scheduled For, Author (and when it went out). */
export function DetailsPanel({ post }: { post: Post }) {
  const headingId = useId();
  const { zone, source: zoneSource } = useTimeZoneRule();
  // A post partly out says when its next network is due ("Partially published · Next: {time}").
  const next = post.status === 'partially_published' ? nextPublication(post) : null;
  const rows: Array<[string, ReactNode]> = [
    [
      'Status',
      <span key="status" className="flex flex-wrap items-center justify-end gap-x-2 gap-y-1">
        <StatusBadge status={post.status} />
        {next && (
          <span className="text-xs font-medium text-slate-700">
            Next: {formatPostDate(next, zone)}
          </span>
        )}
      </span>,
    ],
    ['Created At', formatPostDate(post.createdAt, zone, { empty: 'Unknown' })],
    ['Scheduled For', formatPostDate(post.scheduledAt, zone)],
  ];
  if (post.publishedAt) rows.push(['Published At', formatPostDate(post.publishedAt, zone)]);
  rows.push(['Author', post.creator?.displayName?.trim() || 'Unknown']);
  // docs/feeds.md: a post a feed made names the feed it came from.
  if (post.source?.kind === 'feed') rows.push(['From Feed', post.source.name]);
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Details
      </h2>
      <dl className="mt-3 flex flex-col divide-y divide-slate-100 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="flex items-center justify-between gap-4 py-2">
            <dt className="text-slate-600">{label}</dt>
            <dd className="text-right font-medium text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <TimeZoneNote zone={zone} source={zoneSource} className="mt-2" />
      <ApprovalHistory orgId={post.organizationId} postId={post.id} zone={zone} />
    </section>
  );
}
