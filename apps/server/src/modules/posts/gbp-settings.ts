import { gbpSettingsIssues, type GbpPostSettings } from '@herald/contract';
import { AppError } from '../../lib/app-error.js';

const NETWORK = 'Google Business Profile';

/**
 * The post type, event, offer and button each Google Business Profile location of a post is saved
 * with (docs/networks.md#google-business-profile-publishing); the schema already checked their
 * shapes. Refuses settings for an account that is not such a location of the post, and, unless
 * the post is a draft, what Google would refuse (an event without its dates…), in a sentence per
 * location. A location without settings posts a plain update.
 */
export function settleGbpSettings(
  targets: Array<{ integrationId: string; networkName: string; label: string }>,
  chosen: Record<string, GbpPostSettings> | undefined,
  isDraft: boolean,
): Map<string, GbpPostSettings> {
  const locations = targets.filter((t) => t.networkName === NETWORK);
  const stray = Object.keys(chosen ?? {}).find(
    (id) => !locations.some((t) => t.integrationId === id),
  );
  if (stray)
    throw new AppError(
      'VALIDATION_FAILED',
      'googleBusiness names an account that is not one of the Google Business Profile locations this post goes to.',
    );
  const settled = new Map<string, GbpPostSettings>();
  const problems: string[] = [];
  for (const target of locations) {
    const settings = chosen?.[target.integrationId];
    if (!settings) continue;
    settled.set(target.integrationId, settings);
    if (!isDraft)
      problems.push(...gbpSettingsIssues(settings).map((i) => `${target.label}: ${i.message}`));
  }
  if (problems.length) throw new AppError('VALIDATION_FAILED', problems.join(' '));
  return settled;
}
