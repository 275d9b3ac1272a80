import type { AnalyticsOverview } from '@herald/contract';
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { formatDayTime } from './format';

/**
 * What to do before there is anything to draw: connect an account, publish a post, or wait for
 * the first reading (taken 10 minutes after publishing). Null once readings exist.
 */
export const X_OFF_NOTE =
  'X posts are read only while “Read X metrics” is on (below): X bills Herald for every read.';

export function EmptyState({
  status,
  xOff = false,
  timeZone,
}: {
  status: AnalyticsOverview['status'];
  /** The zone the viewer reads times in (`useTimeZone`). */
  timeZone: string;
  /** An X account is connected and X metrics are off: its posts will not be read until turned on. */
  xOff?: boolean;
}) {
  if (status.hasReadings) return null;
  const firstAt = status.firstCollectionAt && formatDayTime(status.firstCollectionAt, timeZone);
  const [title, text, action] =
    status.connectedAccounts === 0
      ? [
          'Connect an account to see analytics',
          'Herald reads views, reach, interactions and followers from the accounts you connect.',
          { to: paths.settings, label: 'Connect an account' },
        ]
      : status.publishedTargets === 0
        ? [
            'Publish a post to see analytics',
            'Herald reads a post’s metrics 10 minutes after it is published, then again at 1 and 6 hours, 1, 3, 7 and 30 days, and weekly up to 90 days.',
            { to: paths.createPost, label: 'Create a post' },
          ]
        : [
            'The first figures are on their way',
            firstAt
              ? `The first reading is taken 10 minutes after publishing: around ${firstAt}.`
              : 'The first reading is taken 10 minutes after publishing.',
            null,
          ];
  return (
    <section
      aria-label="Getting started with analytics"
      className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center"
    >
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      <p className="max-w-prose text-sm text-slate-600">{text}</p>
      {xOff && status.connectedAccounts > 0 && (
        <p className="max-w-prose text-sm text-slate-600">{X_OFF_NOTE}</p>
      )}
      {action && <ButtonLink to={action.to}>{action.label}</ButtonLink>}
    </section>
  );
}
