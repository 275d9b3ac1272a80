import { Bookmark, Film, Heart, MessageCircle, Music2, Share } from 'lucide-react';
import { Avatar } from '@/components/ui/avatar';
import { ActionRow, PreviewMedia, accountOf, handleOf, type PreviewProps } from './preview-parts';

/** A TikTok post: the vertical 9:16 frame, the caption over the bottom, the side rail. */
export function TikTokPreview({ platform, text, media }: PreviewProps) {
  const account = accountOf(platform);
  const handle = handleOf(account);
  const cover = media.find((item) => item.kind === 'video') ?? media[0];
  return (
    <div className="flex justify-center bg-slate-100 p-4">
      <div
        data-testid="tiktok-frame"
        className="relative aspect-[9/16] w-full max-w-60 overflow-hidden rounded-2xl bg-black text-white"
      >
        {cover ? (
          <PreviewMedia item={cover} />
        ) : (
          <span className="flex size-full flex-col items-center justify-center gap-2 p-6 text-center text-sm text-slate-300">
            <Film className="size-8" aria-hidden="true" />
            TikTok posts are videos: add one to see it here.
          </span>
        )}
        <ActionRow className="absolute right-2 bottom-20 flex-col gap-4 text-white">
          <Avatar
            name={account.name}
            url={account.pictureUrl}
            className="size-9 ring-2 ring-white"
          />
          <Heart className="size-6" />
          <MessageCircle className="size-6" />
          <Bookmark className="size-6" />
          <Share className="size-6" />
        </ActionRow>
        <div className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/80 to-transparent p-3 pr-14 text-xs">
          <p className="font-semibold">@{handle}</p>
          {text && <p className="mt-1 line-clamp-3 break-words whitespace-pre-wrap">{text}</p>}
          <p className="mt-1 flex items-center gap-1 opacity-90">
            <Music2 className="size-3" aria-hidden="true" /> original sound - {handle}
          </p>
        </div>
      </div>
    </div>
  );
}
