import { applicableTimeZone, slotMinute, SUGGESTED_QUEUE_WEEK } from '@herald/contract';
import type { Db } from '../../db/client.js';
import * as repo from './queue.repository.js';

/** Who saves queue times, and their own time zone (the queue may keep it). */
export interface QueueCaller {
  userId: string;
  timeZone: string | null;
}

/**
 * Inside a save of queue times: the zone they were entered in stays the queue's. The
 * organization's time zone, when it has one, is kept (so clearing it later moves no slot);
 * without one, the first save keeps the saver's own zone, and later saves keep that one.
 */
export async function keepZoneOfSave(tx: Db, organizationId: string, caller: QueueCaller) {
  const { organizationZone } = await repo.queueZoneOf(tx, organizationId);
  const rule = applicableTimeZone(organizationZone, caller.timeZone);
  if (rule.source === 'organization') {
    await repo.keepQueueZone(tx, organizationId, rule.zone, null, true);
  } else {
    await repo.keepQueueZone(tx, organizationId, rule.zone, caller.userId, false);
  }
}

/**
 * Gives an account connected for the first time a week of queue times, so "Add to queue" works
 * with it at once: the times of the organization's most recently connected account that has
 * some (a team's accounts usually post on one rhythm), else the suggested week. Runs in the
 * connect's transaction; a reconnect never comes here, so a week a member emptied stays empty.
 */
export async function giveFirstWeek(
  tx: Db,
  organizationId: string,
  integrationId: string,
  caller: QueueCaller,
) {
  const copied = await repo.newestAccountWeek(tx, organizationId, integrationId);
  const week = copied.length
    ? copied
    : SUGGESTED_QUEUE_WEEK.map((s) => ({ weekday: s.weekday, minute: slotMinute(s.time) }));
  await repo.replaceSlots(tx, organizationId, integrationId, week);
  // The week's wall times are read in the queue's zone: like a save, it is kept from now on.
  await keepZoneOfSave(tx, organizationId, caller);
}
