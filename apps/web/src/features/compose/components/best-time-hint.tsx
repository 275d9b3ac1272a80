import { Sparkles } from 'lucide-react';
import { useCan } from '@/lib/permissions';
import { useComposerBestTimes } from '../api/use-best-times';
import { bestSlot, nextOccurrence, WEEKDAYS } from '../utils/best-time';
import { formatLocal, nowAsLocal } from '../utils/schedule';

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * docs/product.md#best-time-hint: under the date picker, when the organization's own analytics
 * show a weekday and hour its posts did best, and a button that picks the next such time.
 */
export function BestTimeHint({
  orgId,
  integrationIds,
  zone,
  onPick,
  disabled,
}: {
  orgId: string;
  integrationIds: readonly string[];
  zone: string;
  onPick: (value: string) => void;
  disabled?: boolean;
}) {
  const canView = useCan('GET /organizations/:orgId/analytics/best-times');
  const map = useComposerBestTimes(canView ? orgId : null, integrationIds, zone);
  const slot = map.data ? bestSlot(map.data) : null;
  if (!slot) return null;
  const next = nextOccurrence(slot, nowAsLocal(zone));
  const rate =
    slot.engagementRate !== null
      ? `${(slot.engagementRate * 100).toFixed(1)}% engagement`
      : `${Math.round(slot.interactionsPerPost ?? 0)} interactions per post`;
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2 rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-950">
      <Sparkles className="size-4 shrink-0" aria-hidden="true" />
      <p className="flex-1">
        Your posts did best on{' '}
        <strong>
          {WEEKDAYS[slot.weekday]}s around {pad(slot.hour)}:00
        </strong>{' '}
        ({rate} over {slot.posts} posts, last 90 days).
      </p>
      <button
        type="button"
        disabled={disabled}
        onClick={() => onPick(next)}
        className="rounded-md px-2 py-1 font-semibold text-emerald-900 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-emerald-700"
      >
        Use {formatLocal(next)}
      </button>
    </div>
  );
}
