import { Earth, MessageCircle, Share2, ThumbsUp } from 'lucide-react';
import { Avatar } from '@/components/ui/avatar';
import { ActionRow, ClampedText, MediaGrid, accountOf, type PreviewProps } from './preview-parts';

/** Facebook folds long posts behind "See more" at about this many characters. */
export const FACEBOOK_TEXT_PREVIEW = 480;

/** A Facebook Page post: name, "Just now" and audience, text, the picture grid, actions. */
export function FacebookPreview({ platform, text, media }: PreviewProps) {
  const account = accountOf(platform);
  return (
    <div className="bg-white text-[15px] text-slate-900">
      <div className="flex items-center gap-2 p-3">
        <Avatar name={account.name} url={account.pictureUrl} />
        <div>
          <p className="font-semibold">{account.name}</p>
          <p className="flex items-center gap-1 text-xs text-slate-500">
            Just now · <Earth className="size-3" aria-hidden="true" />
          </p>
        </div>
      </div>
      {text && (
        <div className="px-3 pb-3">
          <ClampedText
            text={text}
            limit={FACEBOOK_TEXT_PREVIEW}
            moreLabel="See more"
            linkClass="text-[#1877f2]"
          />
        </div>
      )}
      <MediaGrid media={media} className="rounded-none border-x-0" />
      <ActionRow className="justify-around border-t border-slate-200 py-2 text-sm">
        <span className="flex items-center gap-1">
          <ThumbsUp className="size-4" /> Like
        </span>
        <span className="flex items-center gap-1">
          <MessageCircle className="size-4" /> Comment
        </span>
        <span className="flex items-center gap-1">
          <Share2 className="size-4" /> Share
        </span>
      </ActionRow>
    </div>
  );
}
