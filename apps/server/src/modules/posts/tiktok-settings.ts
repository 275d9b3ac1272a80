import {
  tiktokSettingsProblems,
  type MediaFacts,
  type TikTokCreatorInfo,
  type TikTokPostSettings,
} from '@herald/contract';
import { AppError } from '../../lib/app-error.js';

/** Reads creator_info for a connected TikTok account (tiktok.service `readCreatorInfo`). */
export type TikTokCreatorReader = (
  organizationId: string,
  integrationId: string,
) => Promise<TikTokCreatorInfo>;

/**
 * Reads creator_info ahead for the accounts `chosen` names, so that a transaction never waits on
 * TikTok: with the embedded database (one connection) the TikTok sandbox answering that read
 * needs the connection the transaction holds, and with real TikTok a slow answer would hold the
 * post's row locks. The reader it returns answers from what was read.
 */
export async function readCreatorsAhead(
  read: TikTokCreatorReader | undefined,
  organizationId: string,
  chosen: Record<string, unknown> | undefined,
): Promise<TikTokCreatorReader | undefined> {
  if (!read || !chosen) return read;
  const known = new Map(
    await Promise.all(
      Object.keys(chosen).map(
        async (id) => [id, await read(organizationId, id).catch(() => null)] as const,
      ),
    ),
  );
  return async (_organizationId, integrationId) => {
    const creator = known.get(integrationId);
    if (!creator) throw new Error('creator_info was not read for this account');
    return creator;
  };
}

export interface TikTokTargetToCheck {
  integrationId: string;
  /** The network's own name ("TikTok"), not the composer's label. */
  networkName: string;
  /** The account's label in sentences ("TikTok", "TikTok (Shop)"). */
  label: string;
  media: (MediaFacts | null)[];
}

const isTikTok = (t: { networkName: string }) => t.networkName === 'TikTok';

/**
 * The TikTok settings each TikTok account of a post is saved with (docs/networks.md#tiktok-conformance),
 * checked against what the creator allows now. A draft may leave them unchosen; a post that is
 * scheduled or published must have a privacy level the user chose (TikTok forbids a default).
 * Refuses settings for an account that is not a TikTok account of the post. When creator_info
 * cannot be read the rules that hold for every creator still apply; publishing checks again.
 */
export async function settleTikTokSettings(
  read: TikTokCreatorReader | undefined,
  organizationId: string,
  targets: TikTokTargetToCheck[],
  chosen: Record<string, TikTokPostSettings> | undefined,
  isDraft: boolean,
): Promise<Map<string, TikTokPostSettings>> {
  const tiktok = targets.filter(isTikTok);
  const stray = Object.keys(chosen ?? {}).find((id) => !tiktok.some((t) => t.integrationId === id));
  if (stray)
    throw new AppError(
      'VALIDATION_FAILED',
      'tiktok names an account that is not one of the TikTok accounts this post goes to.',
    );
  const settled = new Map<string, TikTokPostSettings>();
  const problems: string[] = [];
  for (const target of tiktok) {
    const settings = chosen?.[target.integrationId];
    if (!settings) {
      if (!isDraft)
        problems.push(
          `${target.label}: choose who can see the TikTok post (TikTok does not let Herald choose for you).`,
        );
      continue;
    }
    settled.set(target.integrationId, settings);
    if (isDraft && !settings.privacyLevel && settings.mode === 'direct') continue;
    const creator = read
      ? await read(organizationId, target.integrationId).catch(() => null)
      : null;
    const video = target.media.find((m) => m?.mimeType.startsWith('video/'));
    if (creator?.unaudited && settings.mode === 'direct' && settings.privacyLevel !== 'SELF_ONLY') {
      problems.push(
        `${target.label}: Herald's TikTok app is not audited yet, so TikTok posts can only be private ("Only me").`,
      );
      continue;
    }
    const found = tiktokSettingsProblems(settings, creator, {
      hasVideo: video !== undefined,
      videoSeconds: video?.durationSec ?? null,
    });
    problems.push(...found.map((p) => `${target.label}: ${p}`));
  }
  if (problems.length > 0) throw new AppError('VALIDATION_FAILED', problems.join(' '));
  return settled;
}
