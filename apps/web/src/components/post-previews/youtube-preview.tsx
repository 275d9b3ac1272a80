import { isYouTubeShort } from '@herald/contract';
import { Film, MessageCircle, Share, ThumbsUp } from 'lucide-react';
import { Avatar } from '@/components/ui/avatar';
import { ActionRow, PreviewMedia, accountOf, type PreviewProps } from './preview-parts';

/**
 * A YouTube upload: a Short (vertical or square, at most 3 minutes) in its 9:16 frame, any other
 * video in the 16:9 player with the channel and the description under it. The image beside the
 * video is its custom thumbnail, shown as the player's cover.
 */
export function YouTubePreview({ platform, text, media }: PreviewProps) {
  const account = accountOf(platform);
  const video = media.find((item) => item.kind === 'video');
  const thumbnail = media.find((item) => item.kind === 'image');
  const short = video ? isYouTubeShort(video.facts) : false;
  const cover = (thumbnail && !short ? thumbnail : video) ?? null;
  return (
    <div className="space-y-3 bg-white p-4 text-sm text-slate-900" data-testid="youtube-preview">
      <p className="text-xs font-semibold tracking-wide text-red-600 uppercase">
        {video ? (short ? 'YouTube Short' : 'YouTube video') : 'YouTube'}
      </p>
      <div
        className={
          short
            ? 'relative mx-auto aspect-[9/16] w-full max-w-56 overflow-hidden rounded-2xl bg-black'
            : 'relative aspect-video w-full overflow-hidden rounded-xl bg-black'
        }
      >
        {cover ? (
          <PreviewMedia item={cover} />
        ) : (
          <span className="flex size-full flex-col items-center justify-center gap-2 p-6 text-center text-sm text-slate-300">
            <Film className="size-8" aria-hidden="true" />
            YouTube posts are videos: add one to see it here.
          </span>
        )}
      </div>
      <div className="flex gap-3">
        <Avatar name={account.name} url={account.pictureUrl} className="size-9" />
        <div className="min-w-0">
          <p className="truncate font-semibold">{account.name}</p>
          {text && (
            <p className="mt-1 line-clamp-3 break-words whitespace-pre-wrap text-slate-600">
              {text}
            </p>
          )}
        </div>
      </div>
      <ActionRow className="gap-6">
        <ThumbsUp className="size-5" />
        <MessageCircle className="size-5" />
        <Share className="size-5" />
      </ActionRow>
    </div>
  );
}
