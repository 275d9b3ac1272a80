import { ACTIVITY_DAYS, type AdminActivity, type AdminOverview, type User } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { findUser, toUserDto } from '../users/users.service.js';
import * as repo from './admin.repository.js';

/** `GET /users`: a page of users, optionally those matching `search` in name or email. */
export async function listUsers(
  db: Db,
  query: { search?: string; page: number; pageSize: number },
) {
  const { rows, totalCount } = await repo.listUsers(db, query);
  return {
    users: rows.map(toUserDto),
    meta: { page: query.page, pageSize: query.pageSize, totalCount },
  };
}

/** `GET /users/{id}`: one user, for the back-office's detail view. */
export async function getUser(db: Db, id: string): Promise<User> {
  const row = await findUser(db, id);
  if (!row) throw new AppError('NOT_FOUND', 'This user does not exist.');
  return toUserDto(row);
}

/** The back-office dashboard's three totals: every user, platform and plan, active or not. */
export async function getOverview(db: Db): Promise<AdminOverview> {
  return { counts: await repo.countAll(db) };
}

/** Today's date in `timezone` as YYYY-MM-DD. */
function localDay(now: Date, timezone: string): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** The `days` calendar days that end with `lastDay`, oldest first (plain date arithmetic). */
function daysEndingOn(lastDay: string, days: number): string[] {
  const last = Date.parse(`${lastDay}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) =>
    new Date(last - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}

/**
 * Sign-ups and posts created per day over the last ACTIVITY_DAYS days (today included), counted
 * in the operator's time zone so "today" is their today. Days without activity count zero.
 */
export async function getActivity(db: Db, timezone: string, now: Date): Promise<AdminActivity> {
  const days = daysEndingOn(localDay(now, timezone), ACTIVITY_DAYS);
  const from = days[0]!;
  const [signUps, posts] = await Promise.all([
    repo.signUpsPerDay(db, timezone, from),
    repo.postsPerDay(db, timezone, from),
  ]);
  return {
    timezone,
    days: days.map((date) => ({
      date,
      signUps: signUps.get(date) ?? 0,
      posts: posts.get(date) ?? 0,
    })),
  };
}

/** Refuses an organization id that names no organization (NOT_FOUND). */
export async function requireOrganization(db: Db, organizationId: string) {
  if (!(await repo.organizationExists(db, organizationId)))
    throw new AppError('NOT_FOUND', 'This organization does not exist.');
}
