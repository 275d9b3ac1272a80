import type { PlatformName } from '@herald/contract';
import type { ComponentType } from 'react';
import type { ComposePlatform } from '../../utils/compose-platforms';
import type { MediaItem } from '../../utils/media-files';
import { FacebookPreview } from './facebook-preview';
import { InstagramPreview } from './instagram-preview';
import { LinkedInPreview } from './linkedin-preview';
import { MediaGrid, RichText, accountOf, type PreviewProps } from './preview-parts';
import { ThreadsPreview } from './threads-preview';
import { TikTokPreview } from './tiktok-preview';
import { XPreview } from './x-preview';
import { NetworkMark } from '@/components/ui/network-mark';
import { platformNameOf } from '@/networks';

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
 * the typecheck); a name the app does not know gets the generic preview.
 */
const PREVIEWS: Record<PlatformName, ComponentType<PreviewProps>> = {
  X: XPreview,
  Instagram: InstagramPreview,
  Facebook: FacebookPreview,
  Threads: ThreadsPreview,
  TikTok: TikTokPreview,
  LinkedIn: LinkedInPreview,
};

function previewOf(platformName: string): ComponentType<PreviewProps> {
  const network = platformNameOf(platformName);
  return network ? PREVIEWS[network] : GenericPreview;
}

interface PostPreviewsProps {
  platforms: readonly ComposePlatform[];
  textFor: (platformId: string) => string;
  mediaFor: (platformId: string) => MediaItem[];
}

/** Live preview per selected network, each looking like a post on that network (docs/product.md#create-post). */
export function PostPreviews({ platforms, textFor, mediaFor }: PostPreviewsProps) {
  return (
    <section aria-labelledby="preview-heading" className="flex flex-col gap-4">
      <h2 id="preview-heading" className="text-base font-semibold text-slate-900">
        Preview
      </h2>
      {platforms.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
          Select a platform to see how the post will look there.
        </p>
      ) : (
        platforms.map((platform) => {
          const Preview = previewOf(platform.name);
          return (
            <article
              key={platform.id}
              aria-label={`${platform.label} preview`}
              className="overflow-hidden rounded-2xl border border-slate-200 shadow-sm"
            >
              <header className="flex items-center gap-2 border-b border-slate-200 bg-slate-50 px-3 py-2 text-xs font-semibold text-slate-700">
                <NetworkMark name={platform.name} size="xs" />
                {platform.label}
              </header>
              <Preview
                platform={platform}
                text={textFor(platform.id)}
                media={mediaFor(platform.id)}
              />
            </article>
          );
        })
      )}
    </section>
  );
}
