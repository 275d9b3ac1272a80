import type { Dayjs } from 'dayjs';
import type { EmptySlot } from '@herald/contract';
import { dayKey } from './calendar-dates';
import { useEmptySlots } from '@/lib/queue';
import { wallAt } from '@/lib/zoned-time';

/** Empty queue slots by calendar day (wall times in `zone`), for the visible range. */
export function useEmptySlotsByDay(
  orgId: string | null,
  range: { from: string; to: string },
  zone: string,
  enabled: boolean,
): Map<string, Dayjs[]> {
  const slots = useEmptySlots(enabled ? orgId : null, range.from, range.to);
  return groupSlots(slots.data?.data.slots ?? [], zone);
}

export function groupSlots(slots: readonly EmptySlot[], zone: string): Map<string, Dayjs[]> {
  const by = new Map<string, Dayjs[]>();
  for (const slot of slots) {
    const at = wallAt(slot.at, zone);
    const key = dayKey(at);
    by.set(key, [...(by.get(key) ?? []), at]);
  }
  return by;
}

/** A subtle dashed marker: a queue slot no post takes yet. */
export function EmptySlotMarker({ at }: { at: Dayjs }) {
  return (
    <span className="block truncate rounded border border-dashed border-slate-300 px-1 text-[11px] leading-5 text-slate-500">
      <span className="sr-only">Empty queue slot at </span>
      {at.format('h:mm A')}
      <span aria-hidden="true"> · open slot</span>
    </span>
  );
}

/** The month grid's line: how many empty slots a day has. */
export function EmptySlotCount({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <p className="mt-1 truncate px-1 text-[11px] text-slate-500">
      {count === 1 ? '1 open queue slot' : `${count} open queue slots`}
    </p>
  );
}
