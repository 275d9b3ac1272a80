import { platformSlug } from '@herald/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import * as integrations from '../modules/integrations/integrations.service.js';
import { notifyOrganizationAdmins } from '../modules/notifications/notifications.service.js';
import type { NetworkRuntime } from '../platforms/runtime.js';
import type { JobDefinition } from './runtime.js';

const DAY = 24 * 60 * 60 * 1000;

/** The reminders before an account that cannot be refreshed expires, latest first. */
export const EXPIRY_NOTICES = [
  { key: '1d', before: DAY, priority: 'HIGH' },
  { key: '7d', before: 7 * DAY, priority: 'MEDIUM' },
] as const;

const dateOf = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Tells an organization's admins, 7 days and again 1 day before, that an account whose network
 * gave no refresh token (LinkedIn without partner approval) stops working unless reconnected.
 * Each reminder goes out once per token: a reconnect brings a new expiry and new reminders.
 */
export async function sendExpiryNotices(
  db: Db,
  networks: Map<string, NetworkRuntime>,
  now = new Date(),
) {
  const widest = EXPIRY_NOTICES[EXPIRY_NOTICES.length - 1]!.before;
  const rows = await integrations.expiringWithoutRefresh(
    db,
    now,
    new Date(now.getTime() + widest),
    500,
  );
  let sent = 0;
  for (const { integration, platform } of rows) {
    const network = networks.get(platformSlug(platform.name));
    if (!network?.adapter.refreshNeedsRefreshToken) continue;
    const expiresAt = integration.accessTokenExpiresAt!;
    const left = expiresAt.getTime() - now.getTime();
    // Only the most pressing reminder: an account found with hours left gets the 1-day one.
    const notice = EXPIRY_NOTICES.find((n) => left <= n.before);
    if (
      !notice ||
      !(await integrations.markExpiryNotice(db, integration.id, notice.key, expiresAt))
    )
      continue;
    const who = integration.name ?? integration.username ?? integration.platformAccountId;
    const when = notice.key === '1d' ? 'tomorrow' : `on ${dateOf(expiresAt)}`;
    await notifyOrganizationAdmins(db, integration.organizationId, {
      type: 'PLATFORM_EXPIRING',
      priority: notice.priority,
      message: `${platform.name} account ${who} stops working ${when} (${dateOf(expiresAt)}): ${platform.name} gives Herald's app no refresh tokens. Connect it again in Settings before then to keep publishing.`,
    });
    sent++;
  }
  return { sent };
}

/** Hourly: reminders land on the day they are due whatever the hour the account expires. */
export function tokensExpiryNoticeJob(
  db: Db,
  networks: Map<string, NetworkRuntime>,
  log: FastifyBaseLogger,
): JobDefinition {
  return {
    queue: 'tokens.expiry-notice.v1',
    cron: '17 * * * *',
    retryLimit: 1,
    async handle() {
      const { sent } = await sendExpiryNotices(db, networks);
      if (sent) log.info({ sent }, 'reconnect reminders sent');
    },
  };
}
