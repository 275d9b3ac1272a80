import { blueskyVideoAllowanceSentence } from '@herald/contract';
import { useBlueskyVideoLimits } from '../api/use-bluesky-video-limits';
import type { ComposePlatform } from '../utils/compose-platforms';

function AllowanceLine({
  orgId,
  platform,
  named,
}: {
  orgId: string;
  platform: ComposePlatform;
  named: boolean;
}) {
  const limits = useBlueskyVideoLimits(orgId, platform.id);
  const sentence = limits.data
    ? blueskyVideoAllowanceSentence(limits.data)
    : limits.error
      ? limits.error.message
      : 'Asking Bluesky how many videos this account may upload today…';
  const out = limits.data
    ? !limits.data.canUpload || limits.data.remainingDailyVideos === 0
    : false;
  return (
    <p
      data-testid={`bluesky-video-allowance-${platform.id}`}
      className={out ? 'text-red-700' : undefined}
    >
      {named ? <span className="font-medium text-slate-900">{`${platform.label}: `}</span> : null}
      {sentence}
    </p>
  );
}

/**
 * docs/networks.md#bluesky-limits: Bluesky's video service allows each account a number of videos
 * and bytes a day, so when a Bluesky account is chosen with a video the composer says what the
 * account has left today.
 */
export function BlueskyVideoNote({
  orgId,
  selected,
  hasVideo,
}: {
  orgId: string;
  selected: readonly ComposePlatform[];
  hasVideo: (integrationId: string) => boolean;
}) {
  const accounts = selected.filter((p) => p.name === 'Bluesky' && hasVideo(p.id));
  if (accounts.length === 0) return null;
  return (
    <section
      aria-label="Bluesky video allowance"
      className="rounded-xl border border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-700"
    >
      {accounts.map((p) => (
        <AllowanceLine key={p.id} orgId={orgId} platform={p} named={accounts.length > 1} />
      ))}
    </section>
  );
}
