import { textLimitOf } from '@herald/contract';
import { Bookmark, ChartNoAxesColumn, Heart, MessageCircle, Repeat2, Share } from 'lucide-react';
import { Avatar } from '@/components/ui/avatar';
import { splitAtLimit } from './split-text';
import {
  ActionRow,
  MediaGrid,
  RichText,
  accountOf,
  handleOf,
  type PreviewProps,
} from './preview-parts';

/**
 * Text as X's composer shows it: what fits, then the overflow highlighted, so the member sees
 * exactly which words X would not take.
 */
export function OverflowText({ text, platform }: Pick<PreviewProps, 'text' | 'platform'>) {
  const limit = textLimitOf(platform.constraints);
  const [within, overflow] = limit ? splitAtLimit(text, limit.max, limit.counting) : [text, ''];
  return (
    <p className="break-words whitespace-pre-wrap">
      <RichText text={within} />
      {overflow && (
        <mark data-testid="text-overflow" className="rounded-sm bg-red-100 text-red-800">
          <span className="sr-only"> Over the limit: </span>
          {overflow}
        </mark>
      )}
    </p>
  );
}

/** An X post: avatar, name, @handle, text up to the limit, and the 1–4 picture grid. */
export function XPreview({ platform, text, media }: PreviewProps) {
  const account = accountOf(platform);
  return (
    <div className="flex gap-3 bg-white p-4 text-[15px] leading-5 text-slate-900">
      <Avatar name={account.name} url={account.pictureUrl} />
      <div className="min-w-0 flex-1">
        {/* A long name or handle is cut with …, never wider than the phone (full text on hover). */}
        <p className="flex min-w-0 items-baseline gap-x-1">
          <span className="min-w-0 truncate font-bold" title={account.name}>
            {account.name}
          </span>
          <span className="min-w-0 truncate text-slate-500" title={`@${handleOf(account)}`}>
            @{handleOf(account)}
          </span>
          <span className="shrink-0 text-slate-500">· now</span>
        </p>
        <div className="mt-1">{text ? <OverflowText text={text} platform={platform} /> : null}</div>
        <MediaGrid media={media} className="mt-3" />
        <ActionRow className="mt-3 justify-between">
          <MessageCircle className="size-4" />
          <Repeat2 className="size-4" />
          <Heart className="size-4" />
          <ChartNoAxesColumn className="size-4" />
          <span className="flex gap-3">
            <Bookmark className="size-4" />
            <Share className="size-4" />
          </span>
        </ActionRow>
      </div>
    </div>
  );
}
