import { Heart, MessageCircle, MoreHorizontal, Repeat2 } from 'lucide-react';
import { Avatar } from '@/components/ui/avatar';
import { ActionRow, MediaGrid, accountOf, handleOf, type PreviewProps } from './preview-parts';
import { OverflowText } from './x-preview';

/**
 * A Bluesky post: display name and handle, the text with what passes 300 graphemes marked, media
 * in a grid, and the reply / repost / like row.
 */
export function BlueskyPreview({ platform, text, media }: PreviewProps) {
  const account = accountOf(platform);
  return (
    <div className="flex gap-3 bg-white p-4 text-[15px] text-slate-900">
      <Avatar name={account.name} url={account.pictureUrl} className="size-11 shrink-0" />
      <div className="min-w-0 flex-1">
        <p className="flex min-w-0 gap-1">
          <span className="truncate font-semibold">{account.name}</span>
          <span className="truncate text-slate-500">{handleOf(account)}</span>
        </p>
        <div className="mt-1">{text ? <OverflowText text={text} platform={platform} /> : null}</div>
        <MediaGrid media={media} className="mt-3" />
        <ActionRow className="mt-3 justify-between pr-8">
          <MessageCircle className="size-4" />
          <Repeat2 className="size-4" />
          <Heart className="size-4" />
          <MoreHorizontal className="size-4" />
        </ActionRow>
      </div>
    </div>
  );
}
