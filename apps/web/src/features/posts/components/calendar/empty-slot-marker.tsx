import type { Dayjs } from 'dayjs';
import type { EmptySlot, EvergreenFill, Integration } from '@herald/contract';
import { dayKey } from './calendar-dates';
import { useEvergreenProjection } from '@/lib/evergreen';
import { useIntegrations } from '@/lib/integrations';
import { useCan } from '@/lib/permissions';
import { useEmptySlots } from '@/lib/queue';
import { wallAt } from '@/lib/zoned-time';

/** An empty queue slot at a wall time, with the accounts whose queue it belongs to. */
export interface CalendarSlot {
  at: Dayjs;
  /** "Ada Posts (X)", one per account; empty while the accounts are unknown. */
  accounts: string[];
  /** docs/evergreen.md: the collection that will fill it, and the post it will copy. */
  evergreen?: { collection: string; post: string };
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
  const canSeeProjection = useCan('GET /organizations/:orgId/evergreen-collections/projection');
  const fills = useEvergreenProjection(
    enabled && canSeeProjection ? orgId : null,
    range.from,
    range.to,
  );
  return groupSlots(slots.data?.data.slots ?? [], zone, integrations.data ?? [], fills.data ?? []);
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
  fills: readonly EvergreenFill[] = [],
): Map<string, CalendarSlot[]> {
  const names = new Map(accounts.map((account) => [account.id, slotAccountName(account)]));
  const by = new Map<string, CalendarSlot[]>();
  const fillsAt = new Map<number, EvergreenFill[]>();
  for (const fill of fills) {
    const time = Date.parse(fill.at);
    fillsAt.set(time, [...(fillsAt.get(time) ?? []), fill]);
  }
  for (const slot of slots) {
    const at = wallAt(slot.at, zone);
    const key = dayKey(at);
    const nameAll = (ids: readonly string[]) => ids.flatMap((id) => names.get(id) ?? []);
    // The accounts a collection will fill show its marker; the rest of the slot stays open.
    let open = slot.integrationIds;
    const marked: CalendarSlot[] = [];
    for (const fill of fillsAt.get(Date.parse(slot.at)) ?? []) {
      const ids = fill.integrationIds.filter((id) => open.includes(id));
      if (ids.length === 0) continue;
      open = open.filter((id) => !ids.includes(id));
      marked.push({
        at,
        accounts: nameAll(ids),
        evergreen: { collection: fill.collectionName, post: fill.label },
      });
    }
    const opened = open.length > 0 ? [{ at, accounts: nameAll(open) }] : [];
    by.set(key, [...(by.get(key) ?? []), ...marked, ...opened]);
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

/**
 * docs/evergreen.md: a slot an evergreen collection will fill, dashed in green: "Evergreen:
 * <collection>", the post it will copy in the title and to screen readers.
 */
function EvergreenMarker({
  slot,
  evergreen: { collection, post },
}: {
  slot: CalendarSlot;
  evergreen: NonNullable<CalendarSlot['evergreen']>;
}) {
  const whose = slot.accounts.join(', ');
  // Two lines, so the collection's name is not cut off in a narrow week column.
  return (
    <span
      data-evergreen="true"
      title={`Evergreen: ${collection} will post “${post}” at ${slot.at.format('h:mm A')}${whose ? ` for ${whose}` : ''}`}
      className="block rounded border border-dashed border-emerald-500 bg-emerald-50 px-1 text-[11px] leading-4 text-emerald-800"
    >
      <span className="block">{slot.at.format('h:mm A')}</span>{' '}
      <span className="line-clamp-2 font-medium break-words">Evergreen: {collection}</span>
      <span className="sr-only">
        {' '}
        will post “{post}”{whose ? ` for ${whose}` : ''}
      </span>
    </span>
  );
}

/** A subtle dashed marker: a queue slot no post takes yet, and whose queue it is. */
export function EmptySlotMarker({ slot }: { slot: CalendarSlot }) {
  if (slot.evergreen) return <EvergreenMarker slot={slot} evergreen={slot.evergreen} />;
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
export function EmptySlotCount({ slots: all }: { slots: readonly CalendarSlot[] }) {
  const evergreen = all.filter((slot) => slot.evergreen);
  const slots = all.filter((slot) => !slot.evergreen);
  return (
    <>
      {evergreen.length > 0 && (
        <p
          data-evergreen="true"
          title={evergreen
            .map((s) => `${s.at.format('h:mm A')} Evergreen: ${s.evergreen!.collection}`)
            .join(', ')}
          className="mt-1 truncate rounded border border-dashed border-emerald-500 px-1 text-[11px] text-emerald-800"
        >
          {evergreen.length === 1
            ? `Evergreen: ${evergreen[0]!.evergreen!.collection}`
            : `${evergreen.length} evergreen fills`}
        </p>
      )}
      <OpenSlotCount slots={slots} />
    </>
  );
}

function OpenSlotCount({ slots }: { slots: readonly CalendarSlot[] }) {
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
