import { slotMinute, SUGGESTED_QUEUE_WEEK } from '@herald/contract';
import type { Db } from '../../db/client.js';
import * as repo from './queue.repository.js';

/**
 * Gives an account connected for the first time a week of queue times, so "Add to queue" works
 * with it at once: the times of the organization's most recently connected account that has
 * some (a team's accounts usually post on one rhythm), else the suggested week. Runs in the
 * connect's transaction; a reconnect never comes here, so a week a member emptied stays empty.
 */
export async function giveFirstWeek(tx: Db, organizationId: string, integrationId: string) {
  const copied = await repo.newestAccountWeek(tx, organizationId, integrationId);
  const week = copied.length
    ? copied
    : SUGGESTED_QUEUE_WEEK.map((s) => ({ weekday: s.weekday, minute: slotMinute(s.time) }));
  await repo.replaceSlots(tx, organizationId, integrationId, week);
}
