import type { Db } from '../../db/client.js';
import {
  youtubeSettingsIssues,
  youtubeUploadsAhead,
  type MediaFacts,
  type YouTubePostSettings,
} from '@herald/contract';
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
 * (modules/youtube/quota.ts), the uploads already scheduled that day counted;
 * `exceptPostId`: the post being edited.
 */
export type YouTubeDayReader = (
  goesOutAt: Date,
  exceptPostId?: string,
  /** The transaction the post is saved in, when there is one. */
  db?: Db,
) => Promise<{
  day: string;
  isToday: boolean;
  scheduled: number;
  uploadsLeft: number;
  unitsLeft: number;
  unitsPerUpload: number;
} | null>;

/** "today (Thursday, December 3, Pacific time)" or "Friday, December 4 (Pacific time)". */
function dayInWords(day: string, isToday: boolean) {
  const words = new Intl.DateTimeFormat('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T12:00:00Z`));
  return isToday ? `today (${words}, Pacific time)` : `on ${words} (Pacific time)`;
}

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
  day?: {
    read: YouTubeDayReader | undefined;
    goesOutAt: Date;
    /** The post's time (null: at once) and now, for YouTube's own scheduling. */
    scheduledAt?: Date | null;
    now?: Date;
    exceptPostId?: string;
    /** The transaction the post is saved in: the day is read through it. */
    db?: Db;
    /**
     * Now, for the day of a video uploaded ahead (`youtubeUploadsAhead`): it spends its upload on
     * the day it is uploaded, not on the day YouTube publishes it. Absent: every upload is
     * counted on `goesOutAt`'s day.
     */
    uploadsAheadFrom?: Date;
  },
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
    const when =
      day?.now !== undefined ? { scheduledAt: day.scheduledAt ?? null, now: day.now } : undefined;
    problems.push(
      ...youtubeSettingsIssues(settings, media, when).map((i) => `${target.label}: ${i.message}`),
    );
  }
  // Each upload on the day it runs: at the post's time, or now for one uploaded ahead.
  const byDay = new Map<number, number>();
  for (const target of youtube) {
    const from = day?.uploadsAheadFrom;
    const ahead =
      from && day.goesOutAt > from && youtubeUploadsAhead(settled.get(target.integrationId));
    const at = ahead ? from.getTime() : (day?.goesOutAt.getTime() ?? 0);
    byDay.set(at, (byDay.get(at) ?? 0) + 1);
  }
  const read = isDraft ? undefined : day?.read;
  for (const [at, needs] of read && day ? byDay : []) {
    const left = await read!(new Date(at), day!.exceptPostId, day!.db);
    const when = left ? dayInWords(left.day, left.isToday) : '';
    const already = left?.scheduled
      ? `, counting the ${left.scheduled} upload${left.scheduled === 1 ? '' : 's'} already scheduled that day`
      : '';
    const uploadedNow = day!.uploadsAheadFrom?.getTime() === at && day!.goesOutAt.getTime() !== at;
    const elsewhere = uploadedNow
      ? 'Let Herald upload it at the scheduled time instead (turn off “YouTube publishes at the scheduled time”), or try again after midnight Pacific time.'
      : left?.isToday
        ? 'Schedule it for tomorrow or later.'
        : 'Choose another day.';
    if (left && left.uploadsLeft < needs)
      problems.push(
        `YouTube: Herald's API project can upload ${left.uploadsLeft} more video${left.uploadsLeft === 1 ? '' : 's'} ${when}${already}, and this post needs ${needs}. ${elsewhere}`,
      );
    else if (left && left.unitsLeft < left.unitsPerUpload * needs)
      problems.push(
        `YouTube: Herald's API project has ${left.unitsLeft} quota units left ${when}${already}, fewer than this post needs (${left.unitsPerUpload * needs}). ${elsewhere}`,
      );
  }
  if (problems.length > 0) throw new AppError('VALIDATION_FAILED', problems.join(' '));
  return settled;
}
