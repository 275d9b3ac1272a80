import { Heart, MessageCircle, Repeat, Send } from 'lucide-react';
import { Avatar } from '@/components/ui/avatar';
import { ActionRow, PreviewMedia, accountOf, handleOf, type PreviewProps } from './preview-parts';
import { OverflowText } from './x-preview';

/** A Threads post: avatar with the thread line, username, text, media in a sideways row. */
export function ThreadsPreview({ platform, text, media }: PreviewProps) {
  const account = accountOf(platform);
  return (
    <div className="flex gap-3 bg-white p-4 text-[15px] text-slate-900">
      <div className="flex flex-col items-center gap-2">
        <Avatar name={account.name} url={account.pictureUrl} className="size-9" />
        <span aria-hidden="true" className="w-0.5 flex-1 rounded bg-slate-200" />
      </div>
      <div className="min-w-0 flex-1">
        <p className="flex items-baseline gap-2">
          <span className="font-semibold">{handleOf(account)}</span>
          <span className="text-sm text-slate-500">now</span>
        </p>
        {text && (
          <div className="mt-0.5">
            <OverflowText text={text} platform={platform} />
          </div>
        )}
        {media.length > 0 && (
          <div className="mt-3 flex gap-2 overflow-x-auto">
            {media.map((item) => (
              <span
                key={item.id}
                className="block h-48 w-36 shrink-0 overflow-hidden rounded-xl border border-slate-200"
              >
                <PreviewMedia item={item} />
              </span>
            ))}
          </div>
        )}
        <ActionRow className="mt-3 gap-4">
          <Heart className="size-5" />
          <MessageCircle className="size-5" />
          <Repeat className="size-5" />
          <Send className="size-5" />
        </ActionRow>
      </div>
    </div>
  );
}
