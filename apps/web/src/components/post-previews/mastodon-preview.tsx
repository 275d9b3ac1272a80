import { Bookmark, MessageCircle, Repeat2, Star } from 'lucide-react';
import { useState } from 'react';
import { Avatar } from '@/components/ui/avatar';
import { ActionRow, MediaGrid, accountOf, handleOf, type PreviewProps } from './preview-parts';
import { OverflowText } from './x-preview';

/**
 * A Mastodon status: display name and full handle (with its server), text counted against the
 * account's own server's limit, media in a grid, and the reply / boost / favourite row. Behind a
 * content warning, the text and files stay hidden until "Show more", as Mastodon shows them.
 */
export function MastodonPreview({ platform, text, media, contentWarning }: PreviewProps) {
  const account = accountOf(platform);
  const [open, setOpen] = useState(false);
  const shown = !contentWarning || open;
  return (
    <div className="space-y-2 bg-white p-4 text-[15px] text-slate-900">
      <div className="flex items-center gap-3">
        <Avatar name={account.name} url={account.pictureUrl} className="size-11 rounded-lg" />
        <p className="min-w-0">
          <span className="block truncate font-semibold">{account.name}</span>
          <span className="block truncate text-sm text-slate-500">{handleOf(account)}</span>
        </p>
      </div>
      {contentWarning ? (
        <div className="flex flex-wrap items-center gap-2">
          <p className="break-words">{contentWarning}</p>
          <button
            type="button"
            aria-expanded={open}
            onClick={() => setOpen((v) => !v)}
            className="rounded bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-700 uppercase hover:bg-slate-300"
          >
            {open ? 'Show less' : 'Show more'}
          </button>
        </div>
      ) : null}
      {shown && text && <OverflowText text={text} platform={platform} />}
      {shown && <MediaGrid media={media} />}
      <ActionRow className="gap-8 pt-1">
        <MessageCircle className="size-5" />
        <Repeat2 className="size-5" />
        <Star className="size-5" />
        <Bookmark className="size-5" />
      </ActionRow>
    </div>
  );
}
