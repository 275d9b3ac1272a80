import type { GbpPostSettings, MediaConstraints, MediaKind } from '@herald/contract';
import { Film, ImageIcon, Play } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { clampCaption } from './split-text';

/** The account a post goes out from, as a preview draws it. */
export interface PreviewAccount {
  name: string;
  username: string | null;
  pictureUrl: string | null;
}

/**
 * The network and account of a preview: an account chosen in the composer, or one a stored post
 * goes to (a client's approval page). `name` is the network's name ("X").
 */
export interface PreviewTarget {
  name: string;
  /** The network's rules with the account's text limit; null: no limit is drawn. */
  constraints: MediaConstraints | null;
  account: PreviewAccount;
}

/** A file as a preview draws it: a picture or a video from `previewUrl`, else a placeholder. */
export interface PreviewMediaItem {
  id: string;
  kind: MediaKind | null;
  previewUrl: string | null;
  /** Its measures when known (a YouTube video's shape tells a Short from a long video). */
  facts: {
    fileName: string;
    width?: number | null;
    height?: number | null;
    durationSec?: number | null;
  };
  altText?: string;
}

/** What every network preview gets. */
export interface PreviewProps {
  platform: PreviewTarget;
  text: string;
  media: readonly PreviewMediaItem[];
  /** A content warning the text and files are hidden behind (Mastodon's spoiler text). */
  contentWarning?: string;
  /** A Google Business Profile post's type, event, offer and button. */
  googleBusiness?: GbpPostSettings;
  /** A pin's own fields (Pinterest): its title, the link it leads to and its board. */
  pin?: { title: string; link: string; boardName: string };
}

export function accountOf(platform: PreviewTarget): PreviewAccount {
  return platform.account;
}

export function handleOf(account: PreviewAccount): string {
  return account.username ?? account.name.toLowerCase().replace(/\s+/g, '');
}

const TOKEN = /(https?:\/\/[^\s]+|#[\p{L}\p{N}_]+|@[\p{L}\p{N}_.]+)/gu;

/** Text with links, hashtags and mentions in the network's link color, as feeds show them. */
export function RichText({
  text,
  linkClass = 'text-sky-600',
}: {
  text: string;
  linkClass?: string;
}) {
  const parts = text.split(TOKEN);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <span key={index} className={linkClass}>
            {part}
          </span>
        ) : (
          part
        ),
      )}
    </>
  );
}

/** A caption cut where the feed cuts it, with the feed's "more" link to read the rest. */
export function ClampedText({
  text,
  limit,
  moreLabel,
  prefix,
  linkClass,
}: {
  text: string;
  limit: number;
  moreLabel: string;
  prefix?: ReactNode;
  linkClass?: string;
}) {
  const [isExpanded, setIsExpanded] = useState(false);
  const { shown, isClamped } = clampCaption(text, limit);
  return (
    <p className="break-words whitespace-pre-wrap">
      {prefix}
      <RichText text={isExpanded || !isClamped ? text : shown} linkClass={linkClass} />
      {isClamped && !isExpanded && (
        <>
          {'… '}
          <button
            type="button"
            onClick={() => setIsExpanded(true)}
            className="font-medium text-slate-500 hover:underline"
          >
            {moreLabel}
          </button>
        </>
      )}
    </p>
  );
}

/** One image or video of a preview; a placeholder where the browser gives no picture. */
export function PreviewMedia({ item, className }: { item: PreviewMediaItem; className?: string }) {
  if (item.previewUrl && item.kind === 'image') {
    // The description the networks will get, when the author wrote one.
    return (
      <img
        src={item.previewUrl}
        alt={item.altText ?? ''}
        className={cn('size-full object-cover', className)}
      />
    );
  }
  if (item.previewUrl && item.kind === 'video') {
    return (
      <span className={cn('relative block size-full', className)}>
        <video
          src={item.previewUrl}
          muted
          preload="metadata"
          aria-hidden="true"
          className="size-full object-cover"
        />
        <span className="absolute inset-0 grid place-items-center">
          <span className="grid size-10 place-items-center rounded-full bg-black/60 text-white">
            <Play className="size-5" aria-hidden="true" />
          </span>
        </span>
      </span>
    );
  }
  const Icon = item.kind === 'video' ? Film : ImageIcon;
  return (
    <span
      className={cn(
        'flex size-full flex-col items-center justify-center gap-1 bg-slate-200 p-2 text-xs text-slate-600',
        className,
      )}
    >
      <Icon className="size-5" aria-hidden="true" />
      <span className="max-w-full truncate">{item.facts.fileName}</span>
    </span>
  );
}

/**
 * The 1–4 picture layout of X and Facebook: one wide, two side by side, one tall beside two,
 * or a 2×2 grid. Later files are counted on the last tile.
 */
export function MediaGrid({
  media,
  max = 4,
  className,
}: {
  media: readonly PreviewMediaItem[];
  max?: number;
  className?: string;
}) {
  if (media.length === 0) return null;
  const shown = media.slice(0, max);
  const hidden = media.length - shown.length;
  const layout =
    shown.length === 1
      ? 'grid-cols-1 aspect-video'
      : shown.length === 2
        ? 'grid-cols-2 aspect-[2/1]'
        : 'grid-cols-2 grid-rows-2 aspect-video';
  return (
    <div
      data-testid="media-grid"
      data-count={shown.length}
      className={cn(
        'grid gap-0.5 overflow-hidden rounded-2xl border border-slate-200',
        layout,
        className,
      )}
    >
      {shown.map((item, index) => (
        <span
          key={item.id}
          className={cn(
            'relative overflow-hidden',
            shown.length === 3 && index === 0 && 'row-span-2',
          )}
        >
          <PreviewMedia item={item} />
          {hidden > 0 && index === shown.length - 1 && (
            <span className="absolute inset-0 grid place-items-center bg-black/50 text-xl font-semibold text-white">
              +{hidden}
            </span>
          )}
        </span>
      ))}
    </div>
  );
}

/** Decorative action icons under a post (like, comment, share…). */
export function ActionRow({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div aria-hidden="true" className={cn('flex items-center text-slate-500', className)}>
      {children}
    </div>
  );
}
