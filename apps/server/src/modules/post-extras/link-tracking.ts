import {
  DEFAULT_LINK_TRACKING,
  LinkTrackingSchema,
  type LinkTrackingSettings,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import * as repo from './post-extras.repository.js';

/**
 * docs/product.md#link-tracking: the organization's default UTM parameters. Stored on the
 * organization as `{enabledByDefault, shortLinks, ...tracking}`; nothing saved reads as
 * tracking off and no short links.
 */
interface Stored {
  enabledByDefault?: boolean;
  /** docs/analytics.md#short-links: posts that do not choose use short links. */
  shortLinks?: boolean;
}

export async function readLinkTracking(db: Db, organizationId: string) {
  const row = await repo.findLinkTracking(db, organizationId);
  if (!row) throw new AppError('NOT_FOUND', 'This organization does not exist.');
  const stored = row.linkTracking as (Stored & Record<string, unknown>) | null;
  const parsed = LinkTrackingSchema.safeParse(stored ?? {});
  return {
    enabledByDefault: stored?.enabledByDefault === true,
    tracking: parsed.success ? parsed.data : DEFAULT_LINK_TRACKING,
    shortLinks: stored?.shortLinks === true,
  } satisfies LinkTrackingSettings;
}

export async function saveLinkTracking(
  db: Db,
  organizationId: string,
  settings: LinkTrackingSettings,
) {
  if (settings.enabledByDefault && !settings.tracking.campaign.trim()) {
    throw new AppError(
      'VALIDATION_FAILED',
      'Name a campaign to track links by default (utm_campaign).',
    );
  }
  await repo.saveLinkTracking(db, organizationId, {
    ...settings.tracking,
    enabledByDefault: settings.enabledByDefault,
    shortLinks: settings.shortLinks,
  } as repo.StoredLinkTracking);
  return readLinkTracking(db, organizationId);
}
