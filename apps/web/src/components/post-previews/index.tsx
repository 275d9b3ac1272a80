import type { PlatformName } from '@herald/contract';
import type { ComponentType } from 'react';
import { platformNameOf } from '@/networks';
import { BlueskyPreview } from './bluesky-preview';
import { FacebookPreview } from './facebook-preview';
import { GoogleBusinessPreview } from './google-business-preview';
import { InstagramPreview } from './instagram-preview';
import { LinkedInPreview } from './linkedin-preview';
import { MastodonPreview } from './mastodon-preview';
import { MediaGrid, RichText, accountOf, type PreviewProps } from './preview-parts';
import { ThreadsPreview } from './threads-preview';
import { PinterestPreview } from './pinterest-preview';
import { TikTokPreview } from './tiktok-preview';
import { YouTubePreview } from './youtube-preview';
import { XPreview } from './x-preview';

export type {
  PreviewAccount,
  PreviewMediaItem,
  PreviewProps,
  PreviewTarget,
} from './preview-parts';

/** A network Herald has no look for yet: the text and the media, plainly. */
function GenericPreview({ platform, text, media }: PreviewProps) {
  return (
    <div className="space-y-3 bg-white p-4 text-sm text-slate-900">
      <p className="font-semibold">{accountOf(platform).name}</p>
      {text && (
        <p className="break-words whitespace-pre-wrap">
          <RichText text={text} />
        </p>
      )}
      <MediaGrid media={media} />
    </div>
  );
}

/**
 * Each network's look, one per name of the contract's PLATFORM_NAMES (a network without one fails
 * the typecheck); a name the app does not know gets the generic preview. The composer draws a
 * post being written with them, a client's approval page a post waiting for their decision.
 */
const PREVIEWS: Record<PlatformName, ComponentType<PreviewProps>> = {
  X: XPreview,
  Instagram: InstagramPreview,
  Facebook: FacebookPreview,
  Threads: ThreadsPreview,
  TikTok: TikTokPreview,
  LinkedIn: LinkedInPreview,
  Mastodon: MastodonPreview,
  Bluesky: BlueskyPreview,
  YouTube: YouTubePreview,
  'Google Business Profile': GoogleBusinessPreview,
  Pinterest: PinterestPreview,
};

/** The post as it will look on `platform.name`'s network. */
export function NetworkPreview(props: PreviewProps) {
  const network = platformNameOf(props.platform.name);
  const Preview = network ? PREVIEWS[network] : GenericPreview;
  return <Preview {...props} />;
}
