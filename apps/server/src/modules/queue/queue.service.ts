import {
  applicableTimeZone,
  QUEUE_HORIZON_WEEKS,
  QUEUE_SLOTS_MAX_DAYS,
  slotMinute,
  slotTime,
  type EmptySlot,
  type QueueAccount,
  type QueueSlot,
  type QueueTimeZoneSource,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { lockOrganization } from '../organizations/organization-lock.js';
import type { PostsDeps } from '../posts/posts.service.js';
import type { QueueCaller } from './first-week.js';
import { slotInstants, type WeeklySlot } from './queue-times.js';
import { keepZoneOfSave } from './first-week.js';
import * as repo from './queue.repository.js';

const WEEK_MS = 7 * 86_400_000;
/** A queued post is never placed less than a minute from now (the publisher needs the time). */
const LEAD_MS = 60_000;

type Deps = Pick<PostsDeps, 'db' | 'now' | 'lifecycle'>;

function groupSlots(rows: Array<{ integrationId: string } & WeeklySlot>) {
  const by = new Map<string, WeeklySlot[]>();
  for (const row of rows) {
    by.set(row.integrationId, [
      ...(by.get(row.integrationId) ?? []),
      { weekday: row.weekday, minute: row.minute },
    ]);
  }
  return by;
}

const asSlot = (s: WeeklySlot): QueueSlot => ({ weekday: s.weekday, time: slotTime(s.minute) });

/**
 * Who is saving or reading queue times: their user id and their own time zone (their profile's;
 * null when they have none).
 */
export type { QueueCaller } from './first-week.js';

/**
 * The zone the queue's wall times are read in (docs/queue-and-import.md#the-queues-time-zone):
 * the organization's time zone when it has one, else the zone kept with the queue (the rule with
 * the queue's kept zone in the member's place), else UTC (no queue times were saved yet, so none
 * is read).
 */
export async function queueZone(db: Db, organizationId: string): Promise<string> {
  const { organizationZone, storedZone } = await repo.queueZoneOf(db, organizationId);
  return applicableTimeZone(organizationZone, storedZone).zone;
}

interface QueueZone {
  timeZone: string;
  timeZoneSource: QueueTimeZoneSource;
  timeZoneSetBy: { id: string; name: string } | null;
}

/**
 * The queue's zone as the settings screen names it. Before any time is saved without an
 * organization zone, it is the caller's own: their first save keeps it for everyone.
 */
async function describeQueueZone(
  db: Db,
  organizationId: string,
  caller: QueueCaller,
): Promise<QueueZone> {
  const { organizationZone, storedZone, setBy } = await repo.queueZoneOf(db, organizationId);
  const kept = applicableTimeZone(organizationZone, storedZone);
  if (kept.source === 'organization') {
    return { timeZone: kept.zone, timeZoneSource: 'organization', timeZoneSetBy: null };
  }
  if (kept.source === 'member') {
    return { timeZone: kept.zone, timeZoneSource: 'queue', timeZoneSetBy: setBy };
  }
  const own = applicableTimeZone(null, caller.timeZone);
  return {
    timeZone: own.zone,
    timeZoneSource: own.source === 'member' ? 'member' : 'default',
    timeZoneSetBy: null,
  };
}

export async function getQueue(
  deps: Pick<Deps, 'db' | 'now'>,
  organizationId: string,
  caller: QueueCaller,
) {
  const [zone, accounts, slots, queued] = await Promise.all([
    describeQueueZone(deps.db, organizationId, caller),
    repo.queueAccounts(deps.db, organizationId),
    repo.slotsOf(deps.db, organizationId),
    repo.queuedPostsOf(deps.db, organizationId, deps.now()),
  ]);
  const by = groupSlots(slots);
  return {
    ...zone,
    accounts: accounts.map((a): QueueAccount => ({
      ...a,
      slots: (by.get(a.integrationId) ?? []).map(asSlot),
      queuedCount: queued.filter((q) => q.integrationIds.includes(a.integrationId)).length,
    })),
  };
}

async function requireAccount(db: Db, organizationId: string, integrationId: string) {
  const account = (await repo.queueAccounts(db, organizationId)).find(
    (a) => a.integrationId === integrationId,
  );
  if (!account) {
    throw new AppError('NOT_FOUND', 'This account is not connected to this organization.');
  }
  return account;
}

/** Replaces an account's weekly slots. Scheduled posts stay where they are (re-shuffle moves them). */
export async function putSlots(
  deps: Pick<Deps, 'db' | 'now'>,
  organizationId: string,
  integrationId: string,
  slots: QueueSlot[],
  caller: QueueCaller,
) {
  await requireAccount(deps.db, organizationId, integrationId);
  const unique = new Map<string, WeeklySlot>();
  for (const slot of slots) {
    const minute = slotMinute(slot.time);
    unique.set(`${slot.weekday}:${minute}`, { weekday: slot.weekday, minute });
  }
  await deps.db.transaction(async (tx) => {
    await keepZoneOfSave(tx, organizationId, caller);
    await repo.replaceSlots(tx, organizationId, integrationId, [...unique.values()]);
  });
  const queue = await getQueue(deps, organizationId, caller);
  return queue.accounts.find((a) => a.integrationId === integrationId)!;
}

/**
 * Gives other accounts the saved week of `integrationId`, replacing theirs, all in one
 * transaction. Scheduled posts stay where they are (re-shuffle moves them).
 */
export async function copySlots(
  deps: Pick<Deps, 'db' | 'now'>,
  organizationId: string,
  integrationId: string,
  targetIds: string[],
  caller: QueueCaller,
) {
  const accounts = await repo.queueAccounts(deps.db, organizationId);
  const known = new Set(accounts.map((a) => a.integrationId));
  if (!known.has(integrationId)) {
    throw new AppError('NOT_FOUND', 'This account is not connected to this organization.');
  }
  const targets = [...new Set(targetIds)].filter((id) => id !== integrationId);
  const unknown = targets.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new AppError(
      'VALIDATION_FAILED',
      'Some of the chosen accounts are not connected to this organization any more. Reload and choose again.',
    );
  }
  if (targets.length === 0) {
    throw new AppError('VALIDATION_FAILED', 'Choose another account to copy the times to.');
  }
  const week = (await repo.slotsOf(deps.db, organizationId, [integrationId])).map((s) => ({
    weekday: s.weekday,
    minute: s.minute,
  }));
  await deps.db.transaction(async (tx) => {
    await keepZoneOfSave(tx, organizationId, caller);
    for (const target of targets) await repo.replaceSlots(tx, organizationId, target, week);
  });
  const queue = await getQueue(deps, organizationId, caller);
  return queue.accounts.filter((a) => targets.includes(a.integrationId));
}

/**
 * The earliest slot time, after `after`, that every account of `integrationIds` has in its week
 * and that no waiting post of any of them occupies; null when there is none within the horizon.
 * `exceptPostIds`' own times do not count as occupied (re-shuffle places them anew).
 */
export async function nextFreeSlot(
  db: Db,
  organizationId: string,
  integrationIds: string[],
  after: Date,
  extra: { exceptPostIds?: string[]; taken?: Map<string, Set<number>> } = {},
): Promise<Date | null> {
  const ids = [...new Set(integrationIds)];
  const [zone, slotRows] = await Promise.all([
    queueZone(db, organizationId),
    repo.slotsOf(db, organizationId, ids),
  ]);
  const by = groupSlots(slotRows);
  const from = after.getTime();
  const to = from + QUEUE_HORIZON_WEEKS * WEEK_MS;
  const occupied = await repo.occupiedTimes(
    db,
    organizationId,
    ids,
    after,
    new Date(to),
    extra.exceptPostIds,
  );
  const times = ids.map((id) => new Set(slotInstants(by.get(id) ?? [], zone, from, to)));
  const [firstTimes, ...others] = times;
  for (const at of [...(firstTimes ?? [])].sort((a, b) => a - b)) {
    if (!others.every((set) => set.has(at))) continue;
    const free = ids.every((id) => !occupied.get(id)?.has(at) && !extra.taken?.get(id)?.has(at));
    if (free) return new Date(at);
  }
  return null;
}

/** Why "Add to queue" found no slot, as a sentence the user can act on. */
export async function noSlotError(db: Db, organizationId: string, integrationIds: string[]) {
  const accounts = (await repo.queueAccounts(db, organizationId)).filter((a) =>
    integrationIds.includes(a.integrationId),
  );
  const slots = groupSlots(await repo.slotsOf(db, organizationId, integrationIds));
  const empty = accounts.filter((a) => !slots.has(a.integrationId));
  const label = (a: (typeof accounts)[number]) =>
    `${a.name ?? a.username ?? 'the account'} (${a.platformName})`;
  if (empty.length > 0) {
    return new AppError(
      'CONFLICT',
      `${empty.map(label).join(', ')} ${empty.length === 1 ? 'has' : 'have'} no queue slots yet. Add time slots in Settings, Posting queue, or pick a time instead.`,
    );
  }
  return new AppError(
    'CONFLICT',
    accounts.length > 1
      ? `These accounts have no free slot at the same time in the next ${QUEUE_HORIZON_WEEKS} weeks. Give them a common time slot, queue the post for one account at a time, or pick a time instead.`
      : `This account's queue has no free slot in the next ${QUEUE_HORIZON_WEEKS} weeks. Add time slots or pick a time instead.`,
  );
}

/** The time "Add to queue" would use now (the composer shows it on the button). */
export async function peekNextSlot(
  deps: Pick<Deps, 'db' | 'now'>,
  organizationId: string,
  integrationIds: string[],
) {
  const connected = new Set(
    (await repo.queueAccounts(deps.db, organizationId)).map((a) => a.integrationId),
  );
  if (!integrationIds.every((id) => connected.has(id))) {
    throw new AppError(
      'NOT_FOUND',
      'One of the chosen accounts is not connected to this organization.',
    );
  }
  const at = await nextFreeSlot(
    deps.db,
    organizationId,
    integrationIds,
    new Date(deps.now().getTime() + LEAD_MS),
  );
  return at?.toISOString() ?? null;
}

/** Records that a post holds the queue slot `slotAt` (inside the post's transaction). */
export function markQueued(tx: Db, organizationId: string, postId: string, slotAt: Date) {
  return repo.markQueued(tx, organizationId, postId, slotAt);
}

/**
 * Inside the post's transaction (the organization is locked): the slot for a queued post, or a
 * 409 explaining why there is none. `extra` as for `nextFreeSlot`: posts being placed again do
 * not hold their old times, and times given earlier in the same request are taken; the slot
 * found is added to `extra.taken`.
 */
export async function takeQueueSlot(
  tx: Db,
  organizationId: string,
  integrationIds: string[],
  now: Date,
  extra: { exceptPostIds?: string[]; taken?: Map<string, Set<number>> } = {},
): Promise<Date> {
  const at = await nextFreeSlot(
    tx,
    organizationId,
    integrationIds,
    new Date(now.getTime() + LEAD_MS),
    extra,
  );
  if (!at) throw await noSlotError(tx, organizationId, integrationIds);
  for (const id of integrationIds) {
    extra.taken?.set(id, (extra.taken.get(id) ?? new Set<number>()).add(at.getTime()));
  }
  return at;
}

/** The empty slots of [from, to) per time (the calendar's markers). */
export async function emptySlots(
  deps: Pick<Deps, 'db' | 'now'>,
  organizationId: string,
  query: { from: string; to: string; integrationIds?: string[] },
): Promise<EmptySlot[]> {
  const from = new Date(query.from);
  const to = new Date(query.to);
  if (to.getTime() <= from.getTime()) {
    throw new AppError('VALIDATION_FAILED', 'to must be after from.');
  }
  if (to.getTime() - from.getTime() > QUEUE_SLOTS_MAX_DAYS * 86_400_000) {
    throw new AppError(
      'VALIDATION_FAILED',
      `Ask for at most ${QUEUE_SLOTS_MAX_DAYS} days of queue slots at a time.`,
    );
  }
  // Slots in the past are not offered.
  const start = new Date(Math.max(from.getTime(), deps.now().getTime()));
  const [zone, slotRows] = await Promise.all([
    queueZone(deps.db, organizationId),
    repo.slotsOf(deps.db, organizationId, query.integrationIds),
  ]);
  const by = groupSlots(slotRows);
  const occupied = await repo.occupiedTimes(deps.db, organizationId, [...by.keys()], start, to);
  const at = new Map<number, string[]>();
  for (const [integrationId, slots] of by) {
    for (const time of slotInstants(slots, zone, start.getTime(), to.getTime())) {
      if (occupied.get(integrationId)?.has(time)) continue;
      at.set(time, [...(at.get(time) ?? []), integrationId]);
    }
  }
  return [...at.entries()]
    .sort(([a], [b]) => a - b)
    .map(([time, integrationIds]) => ({ at: new Date(time).toISOString(), integrationIds }));
}

/**
 * "Re-shuffle queue": the account's queued posts (still in the slot they were given), in their
 * order, placed again at the earliest free slots of the current week pattern — all in one
 * transaction, or none when one of them would find no slot.
 */
export async function reshuffle(deps: Deps, organizationId: string, integrationId: string) {
  await requireAccount(deps.db, organizationId, integrationId);
  return deps.db.transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    const after = new Date(deps.now().getTime() + LEAD_MS);
    const queued = await repo.queuedPostsOf(tx, organizationId, after, integrationId);
    const exceptPostIds = queued.map((q) => q.id);
    // Times given to posts placed earlier in this re-shuffle, per account.
    const taken = new Map<string, Set<number>>();
    let moved = 0;
    for (const entry of queued) {
      const at = await nextFreeSlot(tx, organizationId, entry.integrationIds, after, {
        exceptPostIds,
        taken,
      });
      if (!at) {
        throw new AppError(
          'CONFLICT',
          `The new slots leave no room for all ${queued.length} queued posts in the next ${QUEUE_HORIZON_WEEKS} weeks. Add slots and re-shuffle again; nothing was moved.`,
        );
      }
      for (const id of entry.integrationIds) {
        taken.set(id, (taken.get(id) ?? new Set<number>()).add(at.getTime()));
      }
      if (at.getTime() === entry.slotAt.getTime()) continue;
      moved += 1;
      const row = await repo.moveQueuedPost(tx, organizationId, entry.id, at);
      await repo.markQueued(tx, organizationId, entry.id, at);
      if (row && row.status === 'scheduled') await deps.lifecycle.scheduled(tx, row);
    }
    return { moved, queued: queued.length };
  });
}

/**
 * For other modules that place posts in slots (docs/evergreen.md): each account's slot instants
 * in [from, to), in the queue's zone, and the instants its waiting posts occupy.
 */
export async function slotsAndOccupancy(
  db: Db,
  organizationId: string,
  integrationIds: string[],
  from: Date,
  to: Date,
) {
  const ids = [...new Set(integrationIds)];
  const [zone, slotRows] = await Promise.all([
    queueZone(db, organizationId),
    repo.slotsOf(db, organizationId, ids),
  ]);
  const by = groupSlots(slotRows);
  const slotTimes = new Map(
    ids.map((id) => [id, slotInstants(by.get(id) ?? [], zone, from.getTime(), to.getTime())]),
  );
  const occupied = await repo.occupiedTimes(db, organizationId, ids, from, to);
  return { slotTimes, occupied };
}
