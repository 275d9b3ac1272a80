import { Bookmark, Ellipsis, Heart, ImageIcon, MessageCircle, Send } from 'lucide-react';
import { useState } from 'react';
import { Avatar } from '@/components/ui/avatar';
import { cn } from '@/lib/cn';
import {
  ActionRow,
  ClampedText,
  PreviewMedia,
  accountOf,
  handleOf,
  type PreviewProps,
} from './preview-parts';

/** Instagram cuts captions in the feed after 125 characters, behind "more". */
export const INSTAGRAM_CAPTION_PREVIEW = 125;

/** An Instagram post: square media first (a carousel when several), the caption under it. */
export function InstagramPreview({ platform, text, media }: PreviewProps) {
  const account = accountOf(platform);
  const handle = handleOf(account);
  const [index, setIndex] = useState(0);
  const current = media[Math.min(index, media.length - 1)];
  return (
    <div className="bg-white text-sm text-slate-900">
      <div className="flex items-center gap-2 p-3">
        <Avatar
          name={account.name}
          url={account.pictureUrl}
          className="size-8 ring-2 ring-pink-500 ring-offset-2"
        />
        <span className="flex-1 font-semibold">{handle}</span>
        <Ellipsis className="size-5 text-slate-600" aria-hidden="true" />
      </div>
      <div className="relative aspect-square bg-slate-100">
        {current ? (
          <PreviewMedia item={current} />
        ) : (
          <span className="flex size-full flex-col items-center justify-center gap-2 text-slate-500">
            <ImageIcon className="size-8" aria-hidden="true" />
            Instagram posts need an image or video.
          </span>
        )}
        {media.length > 1 && (
          <span className="absolute top-3 right-3 rounded-full bg-black/70 px-2 py-0.5 text-xs text-white">
            {Math.min(index, media.length - 1) + 1}/{media.length}
          </span>
        )}
      </div>
      {media.length > 1 && (
        <div className="flex justify-center gap-1 pt-2">
          {media.map((item, dot) => (
            <button
              key={item.id}
              type="button"
              aria-label={`Show file ${dot + 1} of ${media.length}`}
              aria-pressed={dot === index}
              onClick={() => setIndex(dot)}
              className={cn('size-1.5 rounded-full', dot === index ? 'bg-sky-500' : 'bg-slate-300')}
            />
          ))}
        </div>
      )}
      <ActionRow className="gap-4 px-3 pt-2">
        <Heart className="size-6" />
        <MessageCircle className="size-6" />
        <Send className="size-6" />
        <Bookmark className="ml-auto size-6" />
      </ActionRow>
      <div className="px-3 pt-2 pb-3">
        {text && (
          <ClampedText
            text={text}
            limit={INSTAGRAM_CAPTION_PREVIEW}
            moreLabel="more"
            linkClass="text-sky-800"
            prefix={<span className="mr-1 font-semibold">{handle}</span>}
          />
        )}
      </div>
    </div>
  );
}
