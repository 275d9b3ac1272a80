import { ANALYTICS_REFRESH_COOLDOWN_MINUTES } from '@herald/contract';
import { RefreshCw } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { SCREEN_TOAST_DURATIONS } from '@/config/toast';
import { toast, toastError } from '@/lib/toast';
import { refreshRefusal, useRefreshMetrics, type AnalyticsRefreshResult } from '../api/analytics';
import { formatClock } from './format';

export const REFRESH_FAILED = 'The metrics could not be refreshed. Please try again.';

const count = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The confirmation after a refresh: what was read now, what waits for a network. */
export function refreshedMessage(result: AnalyticsRefreshResult): string {
  if (result.targets === 0)
    return result.accounts === 0
      ? 'Nothing to refresh yet: no connected account could be read and no post of the last 90 days.'
      : `Metrics refreshed: ${count(result.accounts, 'account', 'accounts')} read; no post of the last 90 days to read.`;
  const notRead = result.targets - result.collected - result.queued;
  const parts = [
    `${count(result.collected, 'post reading', 'post readings')} taken`,
    result.queued > 0 && `${result.queued.toLocaleString('en-US')} queued until the network allows`,
    notRead > 0 && `${notRead.toLocaleString('en-US')} not read`,
  ].filter(Boolean);
  return `Metrics refreshed: ${parts.join(', ')}.`;
}

/** "You can refresh again at 14:05" in the viewer's zone. */
export const refreshAgainAt = (instant: string, zone: string) =>
  `You can refresh again at ${formatClock(instant, zone)}`;

/**
 * "Refresh metrics" (docs/analytics.md#refresh-metrics), for members who may use it: reads the
 * networks now. During the organization's cooldown it is disabled and says when it may be used
 * again, in the viewer's time zone; it comes back by itself when that time comes.
 */
export function RefreshButton({
  orgId,
  nextRefreshAt,
  timeZone,
}: {
  orgId: string;
  /** From the analytics settings: when the cooldown ends (null: never refreshed). */
  nextRefreshAt: string | null;
  timeZone: string;
}) {
  const refresh = useRefreshMetrics(orgId);
  const hintId = useId();
  const [now, setNow] = useState(() => Date.now());
  const until = nextRefreshAt ? Date.parse(nextRefreshAt) : Number.NaN;
  const coolingDown = until > now;
  useEffect(() => {
    if (Number.isNaN(until)) return;
    // Looks at the clock again when the cooldown is over (at once for one already over): the
    // button comes back by itself. The timer goes with the component.
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, until - Date.now()) + 50);
    return () => clearTimeout(timer);
  }, [until]);

  const run = () =>
    refresh.mutate(undefined, {
      onSuccess: (result) => {
        toast.success(refreshedMessage(result), {
          duration: SCREEN_TOAST_DURATIONS.analyticsRefreshed,
        });
      },
      onError: (error) => {
        const refusal = refreshRefusal(error);
        // The server's sentence names UTC; the viewer reads their own time.
        if (refusal) toast.error(`${refreshAgainAt(refusal.nextAllowedAt, timeZone)}.`);
        else toastError(error, REFRESH_FAILED);
      },
    });

  return (
    <div className="flex flex-col items-start gap-1">
      <Button
        variant="secondary"
        size="sm"
        onClick={run}
        disabled={coolingDown || refresh.isPending}
        aria-describedby={hintId}
      >
        <RefreshCw
          className={refresh.isPending ? 'size-4 motion-safe:animate-spin' : 'size-4'}
          aria-hidden="true"
        />
        {refresh.isPending ? 'Refreshing…' : 'Refresh metrics'}
      </Button>
      {/* Said under the button while it waits; otherwise only to screen readers, as its description. */}
      <p id={hintId} className={coolingDown ? 'text-xs text-slate-600' : 'sr-only'}>
        {coolingDown && nextRefreshAt
          ? refreshAgainAt(nextRefreshAt, timeZone)
          : `Reads the networks now, once every ${ANALYTICS_REFRESH_COOLDOWN_MINUTES} minutes.`}
      </p>
    </div>
  );
}
