import type { GbpPostSettings } from '@herald/contract';
import { NetworkMark } from '@/components/ui/network-mark';
import { NetworkPreview, type PreviewProps } from '@/components/post-previews';
import type { ComposePlatform } from '../utils/compose-platforms';
import type { MediaItem } from '../utils/media-files';

interface PostPreviewsProps {
  platforms: readonly ComposePlatform[];
  textFor: (platformId: string) => string;
  mediaFor: (platformId: string) => MediaItem[];
  /** The content warning the account's post goes out behind (Mastodon); empty: none. */
  contentWarningFor?: (platformId: string) => string;
  /** A Google Business Profile location's post type, event, offer and button. */
  googleBusinessFor?: (platformId: string) => GbpPostSettings | undefined;
  /** A pin's title, link and board (Pinterest); undefined for other networks. */
  pinFor?: (platformId: string) => PreviewProps['pin'];
}

/** Live preview per selected network, each looking like a post on that network (docs/product.md#create-post). */
export function PostPreviews({
  platforms,
  textFor,
  mediaFor,
  contentWarningFor,
  googleBusinessFor,
  pinFor,
}: PostPreviewsProps) {
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
              <NetworkPreview
                platform={platform}
                text={textFor(platform.id)}
                media={mediaFor(platform.id)}
                contentWarning={contentWarningFor?.(platform.id) || undefined}
                googleBusiness={googleBusinessFor?.(platform.id)}
                pin={pinFor?.(platform.id)}
              />
            </article>
          );
        })
      )}
    </section>
  );
}
