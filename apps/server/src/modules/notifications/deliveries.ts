import {
  addDaysTo,
  applicableTimeZone,
  dayIn,
  NOTIFICATION_TYPE_LABELS,
  zonedLocalToInstant,
} from '@herald/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { escapeHtml, type Mailer } from '../../lib/mailer.js';
import * as repo from './notifications.repository.js';

const BATCH = 200;

export interface DeliveryDeps {
  db: Db;
  /** Null on a server without SMTP: what waits is dropped (nobody can receive it). */
  mailer: Mailer | null;
  /** The web app's address, for the link back to the notifications. */
  publicUrl: string;
  log: FastifyBaseLogger;
  now?: () => Date;
}

const linkOf = (publicUrl: string) => `${publicUrl}/notifications`;

function emailOf(
  to: string,
  subject: string,
  lines: string[],
  publicUrl: string,
): Parameters<Mailer['send']>[0] {
  const link = linkOf(publicUrl);
  const footer =
    'You get this because of your notification settings in Herald (Settings → Notifications).';
  return {
    to,
    subject,
    text: [...lines, '', `Open Herald: ${link}`, '', footer].join('\n'),
    html: `${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}<p><a href="${escapeHtml(link)}">Open Herald</a></p><p style="color:#64748b;font-size:12px">${escapeHtml(footer)}</p>`,
  };
}

/** Sends each waiting email notification on its own; answers how many went out. */
export async function sendEmails(deps: DeliveryDeps) {
  const now = deps.now?.() ?? new Date();
  let sent = 0;
  for (;;) {
    const rows = await repo.takeDeliveries(deps.db, 'EMAIL', now, BATCH);
    if (rows.length === 0) return sent;
    if (!deps.mailer) continue;
    const names = await repo.organizationNames(deps.db, [
      ...new Set(rows.map((r) => r.organizationId)),
    ]);
    for (const row of rows) {
      const org = names.get(row.organizationId) ?? 'Herald';
      try {
        await deps.mailer.send(
          emailOf(
            row.email,
            `${org}: ${NOTIFICATION_TYPE_LABELS[row.type]}`,
            [row.message],
            deps.publicUrl,
          ),
        );
        sent += 1;
      } catch (err) {
        // Taken out already: a message the SMTP server refused is not tried forever.
        deps.log.warn({ err, userId: row.userId }, 'a notification email could not be sent');
      }
    }
  }
}

/** The hour of the member's day the digest goes out at, in the zone that applies to them. */
export const DIGEST_HOUR = 7;

/**
 * The last DIGEST_HOUR o'clock in `zone` at or before `now`: what was delivered until then is
 * the digest that is due.
 */
export function lastDigestTime(now: Date, zone: string): Date {
  const today = dayIn(now.getTime(), zone);
  const at = (day: string) =>
    zonedLocalToInstant(`${day}T${String(DIGEST_HOUR).padStart(2, '0')}:00`, zone)!;
  const todays = at(today);
  return new Date(todays <= now.getTime() ? todays : at(addDaysTo(today, -1)));
}

/**
 * One email per member and organization with everything delivered to the digest before their
 * last 07:00, in the zone that applies to them (the organization's time zone when it has one,
 * else the member's own, else UTC). The job runs every quarter hour, so each member's digest
 * goes out within a quarter hour of 07:00 on their clock, and one missed while no worker ran
 * goes out at the next run. Answers how many were sent.
 */
export async function sendDigests(deps: DeliveryDeps) {
  const now = deps.now?.() ?? new Date();
  const due = (await repo.waitingDigests(deps.db)).map((w) => ({
    userId: w.userId,
    organizationId: w.organizationId,
    before: lastDigestTime(now, applicableTimeZone(w.organizationZone, w.userZone).zone),
  }));
  const groups = new Map<string, repo.DeliveryRow[]>();
  for (;;) {
    const rows = await repo.takeDueDigests(deps.db, due, BATCH);
    if (rows.length === 0) break;
    for (const row of rows) {
      const key = `${row.userId}|${row.organizationId}`;
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
  }
  if (!deps.mailer || groups.size === 0) return 0;
  const names = await repo.organizationNames(deps.db, [
    ...new Set([...groups.values()].map((rows) => rows[0]!.organizationId)),
  ]);
  let sent = 0;
  for (const rows of groups.values()) {
    const first = rows[0]!;
    const org = names.get(first.organizationId) ?? 'Herald';
    const count = rows.length === 1 ? '1 notification' : `${rows.length} notifications`;
    try {
      await deps.mailer.send(
        emailOf(
          first.email,
          `${org}: your daily digest (${count})`,
          rows.map((r) => `${NOTIFICATION_TYPE_LABELS[r.type]}: ${r.message}`),
          deps.publicUrl,
        ),
      );
      sent += 1;
    } catch (err) {
      deps.log.warn({ err, userId: first.userId }, 'a notification digest could not be sent');
    }
  }
  return sent;
}
