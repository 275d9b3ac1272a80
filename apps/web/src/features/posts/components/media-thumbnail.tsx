import type { PostMedia } from '@herald/contract';
import { ImageOff, Play } from 'lucide-react';
import { cn } from '@/lib/cn';

/**
 * One file of a post as a small picture: its thumbnail, else the file itself for images (a
 * video without a thumbnail shows its first frame). Videos carry a play mark.
 */
export function MediaThumbnail({ media, className }: { media: PostMedia; className?: string }) {
  const isVideo = media.kind === 'video';
  const picture = media.thumbnailUrl ?? (isVideo ? null : media.mediaUrl);
  return (
    <span
      className={cn('relative block overflow-hidden rounded-lg bg-slate-100', className)}
      title={media.fileName}
    >
      {picture ? (
        <img src={picture} alt={media.fileName} loading="lazy" className="size-full object-cover" />
      ) : isVideo ? (
        <video
          src={media.mediaUrl}
          muted
          preload="metadata"
          aria-label={media.fileName}
          className="size-full object-cover"
        />
      ) : (
        <span className="grid size-full place-items-center text-slate-500">
          <ImageOff className="size-5" aria-hidden="true" />
        </span>
      )}
      {isVideo && (
        <span className="absolute inset-0 grid place-items-center bg-slate-900/25">
          <span className="grid size-7 place-items-center rounded-full bg-white/90 text-slate-900">
            <Play className="size-3.5 fill-current" aria-hidden="true" />
          </span>
          <span className="sr-only">Video</span>
        </span>
      )}
    </span>
  );
}
