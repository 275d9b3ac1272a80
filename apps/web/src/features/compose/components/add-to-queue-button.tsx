import { ListPlus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useCan } from '@/lib/permissions';
import { formatInZone } from '@/lib/zoned-time';
import { useNextSlot } from '@/lib/queue';

const FORMAT = 'ddd, MMM D, YYYY h:mm A';

/** The toast after "Add to queue": where the post landed. */
export function queuedMessage(scheduledAt: string | null, zone: string): string {
  const when = scheduledAt ? formatInZone(scheduledAt, zone, FORMAT) : null;
  return when ? `Added to the queue for ${when} (${zone}).` : 'Added to the queue.';
}

/**
 * "Add to queue" in the composer (docs/queue-and-import.md): schedules the post at the next
 * slot free for every chosen account, and says beforehand which one that is.
 */
export function AddToQueueButton({
  orgId,
  integrationIds,
  zone,
  disabled,
  onAdd,
}: {
  orgId: string;
  integrationIds: string[];
  zone: string;
  disabled: boolean;
  onAdd: () => void;
}) {
  const canPeek = useCan('GET /organizations/:orgId/queue/next');
  const next = useNextSlot(canPeek ? orgId : null, integrationIds);
  if (!canPeek) return null;
  const at = next.data?.data.at ?? null;
  const hint =
    integrationIds.length === 0
      ? 'Choose accounts to see their next free queue slot.'
      : next.isPending
        ? 'Looking for the next free slot…'
        : next.isError
          ? 'Could not find the next queue slot.'
          : at
            ? `Next free slot: ${formatInZone(at, zone, FORMAT)} (${zone}).`
            : integrationIds.length > 1
              ? 'These accounts have no common free slot. Set one in Settings, Posting queue.'
              : 'This account has no free queue slot. Set slots in Settings, Posting queue.';
  return (
    <div className="flex flex-col gap-2 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:flex-row sm:items-center">
      <p className="text-sm text-slate-600 sm:mr-auto" aria-live="polite">
        {hint}
      </p>
      <Button type="button" variant="secondary" disabled={disabled || !at} onClick={onAdd}>
        <ListPlus className="size-4" aria-hidden="true" />
        Add to queue
      </Button>
    </div>
  );
}
