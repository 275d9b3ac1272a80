import { NOTIFICATION_TYPE_LABELS } from '@herald/contract';
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

/** One email per member and organization with everything of the day; answers how many. */
export async function sendDigests(deps: DeliveryDeps) {
  const now = deps.now?.() ?? new Date();
  const groups = new Map<string, repo.DeliveryRow[]>();
  for (;;) {
    const rows = await repo.takeDeliveries(deps.db, 'DIGEST', now, BATCH);
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
