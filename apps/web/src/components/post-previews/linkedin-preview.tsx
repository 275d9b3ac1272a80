import { MessageSquare, Repeat2, Send, ThumbsUp, Earth } from 'lucide-react';
import { Avatar } from '@/components/ui/avatar';
import { ActionRow, ClampedText, MediaGrid, accountOf, type PreviewProps } from './preview-parts';

/** LinkedIn shows about this much of a post before "see more". */
export const LINKEDIN_TEXT_PREVIEW = 210;

/** A LinkedIn post: name and audience, text folded after ~210 characters, media, actions. */
export function LinkedInPreview({ platform, text, media }: PreviewProps) {
  const account = accountOf(platform);
  return (
    <div className="bg-white text-sm text-slate-900">
      <div className="flex items-center gap-2 p-3">
        <Avatar name={account.name} url={account.pictureUrl} className="size-12" />
        <div>
          <p className="font-semibold">{account.name}</p>
          <p className="flex items-center gap-1 text-xs text-slate-500">
            now · <Earth className="size-3" aria-hidden="true" />
          </p>
        </div>
      </div>
      {text && (
        <div className="px-3 pb-3">
          <ClampedText
            text={text}
            limit={LINKEDIN_TEXT_PREVIEW}
            moreLabel="see more"
            linkClass="font-semibold text-[#0a66c2]"
          />
        </div>
      )}
      <MediaGrid media={media} className="rounded-none border-x-0" />
      <ActionRow className="justify-around border-t border-slate-200 py-2 text-xs font-semibold">
        <span className="flex items-center gap-1">
          <ThumbsUp className="size-4" /> Like
        </span>
        <span className="flex items-center gap-1">
          <MessageSquare className="size-4" /> Comment
        </span>
        <span className="flex items-center gap-1">
          <Repeat2 className="size-4" /> Repost
        </span>
        <span className="flex items-center gap-1">
          <Send className="size-4" /> Send
        </span>
      </ActionRow>
    </div>
  );
}
