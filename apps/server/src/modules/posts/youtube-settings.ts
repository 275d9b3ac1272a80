import { youtubeSettingsIssues, type MediaFacts, type YouTubePostSettings } from '@herald/contract';
import { AppError } from '../../lib/app-error.js';

export interface YouTubeTargetToCheck {
  integrationId: string;
  /** The network's own name ("YouTube"), not the composer's label. */
  networkName: string;
  /** The account's label in sentences. */
  label: string;
  media: (MediaFacts | null)[];
}

/**
 * What the YouTube API project can still do on the Pacific day a post goes out
 * (modules/youtube/quota.ts): null when the day is not today's, so nothing is known yet.
 */
export type YouTubeDayReader = (
  goesOutAt: Date,
) => Promise<{ uploadsLeft: number; unitsLeft: number; unitsPerUpload: number } | null>;

const isYouTube = (t: { networkName: string }) => t.networkName === 'YouTube';

/**
 * The YouTube settings each YouTube account of a post is saved with
 * (docs/networks.md#youtube-publishing). A draft may leave them incomplete; a post that is
 * scheduled or published needs a title and the made-for-kids answer, and must fit in what the
 * API project's day has left when it goes out today.
 */
export async function settleYouTubeSettings(
  targets: YouTubeTargetToCheck[],
  chosen: Record<string, YouTubePostSettings> | undefined,
  isDraft: boolean,
  day?: { read: YouTubeDayReader | undefined; goesOutAt: Date },
): Promise<Map<string, YouTubePostSettings>> {
  const youtube = targets.filter(isYouTube);
  const stray = Object.keys(chosen ?? {}).find(
    (id) => !youtube.some((t) => t.integrationId === id),
  );
  if (stray)
    throw new AppError(
      'VALIDATION_FAILED',
      'youtube names an account that is not one of the YouTube accounts this post goes to.',
    );
  const settled = new Map<string, YouTubePostSettings>();
  const problems: string[] = [];
  for (const target of youtube) {
    const settings = chosen?.[target.integrationId];
    if (settings) settled.set(target.integrationId, settings);
    if (isDraft) continue;
    if (!settings) {
      problems.push(
        `${target.label}: give the YouTube video a title and say whether it is made for kids.`,
      );
      continue;
    }
    const media = target.media.filter((m): m is MediaFacts => m !== null);
    problems.push(
      ...youtubeSettingsIssues(settings, media).map((i) => `${target.label}: ${i.message}`),
    );
  }
  if (!isDraft && youtube.length > 0 && day?.read) {
    const left = await day.read(day.goesOutAt);
    if (left && left.uploadsLeft < youtube.length)
      problems.push(
        `YouTube: Herald's API project can upload ${left.uploadsLeft} more video${left.uploadsLeft === 1 ? '' : 's'} today (Pacific time) and this post needs ${youtube.length}. Schedule it for tomorrow or later.`,
      );
    else if (left && left.unitsLeft < left.unitsPerUpload * youtube.length)
      problems.push(
        `YouTube: Herald's API project has ${left.unitsLeft} quota units left today (Pacific time), fewer than this post needs (${left.unitsPerUpload * youtube.length}). Schedule it for tomorrow or later.`,
      );
  }
  if (problems.length > 0) throw new AppError('VALIDATION_FAILED', problems.join(' '));
  return settled;
}
