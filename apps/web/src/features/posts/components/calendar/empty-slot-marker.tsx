import type { Dayjs } from 'dayjs';
import type { EmptySlot, Integration } from '@herald/contract';
import { dayKey } from './calendar-dates';
import { useIntegrations } from '@/lib/integrations';
import { useEmptySlots } from '@/lib/queue';
import { wallAt } from '@/lib/zoned-time';

/** An empty queue slot at a wall time, with the accounts whose queue it belongs to. */
export interface CalendarSlot {
  at: Dayjs;
  /** "Ada Posts (X)", one per account; empty while the accounts are unknown. */
  accounts: string[];
}

/** Empty queue slots by calendar day (wall times in `zone`), for the visible range. */
export function useEmptySlotsByDay(
  orgId: string | null,
  range: { from: string; to: string },
  zone: string,
  enabled: boolean,
): Map<string, CalendarSlot[]> {
  const slots = useEmptySlots(enabled ? orgId : null, range.from, range.to);
  const integrations = useIntegrations(enabled ? orgId : null);
  return groupSlots(slots.data?.data.slots ?? [], zone, integrations.data ?? []);
}

/** An account as the calendar names it: its name, else its @handle, with its network. */
export function slotAccountName(account: Integration): string {
  const name =
    account.metadata.name ??
    (account.metadata.username ? `@${account.metadata.username}` : account.platform.name);
  return `${name} (${account.platform.name})`;
}

export function groupSlots(
  slots: readonly EmptySlot[],
  zone: string,
  accounts: readonly Integration[] = [],
): Map<string, CalendarSlot[]> {
  const names = new Map(accounts.map((account) => [account.id, slotAccountName(account)]));
  const by = new Map<string, CalendarSlot[]>();
  for (const slot of slots) {
    const at = wallAt(slot.at, zone);
    const key = dayKey(at);
    const slotAccounts = slot.integrationIds.flatMap((id) => names.get(id) ?? []);
    by.set(key, [...(by.get(key) ?? []), { at, accounts: slotAccounts }]);
  }
  return by;
}

/** The accounts of several slots, each named once, in the order they first come. */
const accountsOf = (slots: readonly CalendarSlot[]) => [
  ...new Set(slots.flatMap((slot) => slot.accounts)),
];

/**
 * Whose slots, short enough for a calendar cell: the one account, else how many (the title and
 * the screen reader get every name).
 */
function whoseShort(accounts: readonly string[]): string | null {
  if (accounts.length === 0) return null;
  return accounts.length === 1 ? accounts[0]! : `${accounts.length} accounts`;
}

/** A subtle dashed marker: a queue slot no post takes yet, and whose queue it is. */
export function EmptySlotMarker({ slot }: { slot: CalendarSlot }) {
  const whose = slot.accounts.join(', ');
  const short = whoseShort(slot.accounts);
  return (
    <span
      title={`Open queue slot at ${slot.at.format('h:mm A')}${whose ? ` for ${whose}` : ''}`}
      className="block truncate rounded border border-dashed border-slate-300 px-1 text-[11px] leading-5 text-slate-500"
    >
      <span className="sr-only">Empty queue slot at </span>
      {slot.at.format('h:mm A')}
      <span aria-hidden="true"> · {short ?? 'open slot'}</span>
      {whose && <span className="sr-only"> for {whose}</span>}
    </span>
  );
}

/** The month grid's line: how many empty slots a day has, and for which accounts. */
export function EmptySlotCount({ slots }: { slots: readonly CalendarSlot[] }) {
  if (slots.length === 0) return null;
  const count = slots.length === 1 ? '1 open queue slot' : `${slots.length} open queue slots`;
  const accounts = accountsOf(slots);
  const short = whoseShort(accounts);
  return (
    <p
      title={accounts.length > 0 ? `${count} for ${accounts.join(', ')}` : count}
      className="mt-1 truncate px-1 text-[11px] text-slate-500"
    >
      {short ? `${count} · ${short}` : count}
      {accounts.length > 1 && <span className="sr-only"> ({accounts.join(', ')})</span>}
    </p>
  );
}
