import type { Post, TikTokPostSettings } from '@herald/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { tiktokCreatorKey } from '../api/use-tiktok-creator';
import type { ComposePlatform } from '../utils/compose-platforms';
import { mediaFor, type ComposeState } from '../utils/compose-state';
import { emptyTikTokSettings, tiktokIssues } from './tiktok-section';
import type { TikTokCreatorInfo } from '@herald/contract';

/**
 * The composer's TikTok settings per TikTok account: started from the post when editing, kept
 * while the form is open, and checked against creator_info before Create or Schedule.
 */
export function useTikTokSettings(
  orgId: string,
  state: ComposeState,
  editable: readonly ComposePlatform[],
  post: Post | undefined,
) {
  const queryClient = useQueryClient();
  const [settings, setSettings] = useState<Record<string, TikTokPostSettings>>(() =>
    Object.fromEntries(
      (post?.platformPosts ?? []).flatMap((p) =>
        p.tiktok && p.integrationId ? [[p.integrationId, p.tiktok]] : [],
      ),
    ),
  );
  const tiktokIds = editable.filter((p) => p.name === 'TikTok').map((p) => p.id);

  const videoOf = (integrationId: string) => {
    const video = mediaFor(state, integrationId).find((m) => m.kind === 'video');
    return { hasVideo: video !== undefined, seconds: video?.facts.durationSec ?? null };
  };

  return {
    settings,
    videoOf,
    change: (integrationId: string, next: TikTokPostSettings) =>
      setSettings((all) => ({ ...all, [integrationId]: next })),
    /** Whether every selected TikTok account's settings may be sent to TikTok. */
    isReady: () =>
      tiktokIds.every((id) => {
        const creator = queryClient.getQueryData<TikTokCreatorInfo>(tiktokCreatorKey(orgId, id));
        const video = videoOf(id);
        return tiktokIssues(settings[id], creator, video.hasVideo, video.seconds).length === 0;
      }),
    /** What is sent: the selected TikTok accounts' settings only. */
    forDraft: () =>
      Object.fromEntries(tiktokIds.map((id) => [id, settings[id] ?? emptyTikTokSettings()])),
  };
}
