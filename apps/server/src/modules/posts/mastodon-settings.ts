import type { MastodonPostSettings } from '@herald/contract';
import { AppError } from '../../lib/app-error.js';

/**
 * The content warning, visibility and language each Mastodon account of a post is saved with
 * (docs/networks.md#mastodon-post-settings); the schema already checked their shapes. Refuses
 * settings for an account that is not a Mastodon account of the post, and keeps none that say
 * nothing (no warning, the account's default visibility and language).
 */
export function settleMastodonSettings(
  targets: Array<{ integrationId: string; networkName: string }>,
  chosen: Record<string, MastodonPostSettings> | undefined,
): Map<string, MastodonPostSettings> {
  const mastodon = new Set(
    targets.filter((t) => t.networkName === 'Mastodon').map((t) => t.integrationId),
  );
  const stray = Object.keys(chosen ?? {}).find((id) => !mastodon.has(id));
  if (stray)
    throw new AppError(
      'VALIDATION_FAILED',
      'mastodon names an account that is not one of the Mastodon accounts this post goes to.',
    );
  const settled = new Map<string, MastodonPostSettings>();
  for (const [id, settings] of Object.entries(chosen ?? {}))
    if (settings.spoilerText || settings.visibility || settings.language) settled.set(id, settings);
  return settled;
}
