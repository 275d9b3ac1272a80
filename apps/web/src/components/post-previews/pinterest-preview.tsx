import { ChevronLeft, ChevronRight, ImageIcon, Link2, MoreHorizontal, Share } from 'lucide-react';
import { useState } from 'react';
import { Avatar } from '@/components/ui/avatar';
import { PreviewMedia, accountOf, type PreviewProps } from './preview-parts';

/** The host a pin's link shows under its picture, as Pinterest shows it. */
function hostOf(link: string): string | null {
  try {
    return new URL(link).hostname.replace(/^www\./, '');
  } catch {
    return null;
  }
}

/**
 * A pin as Pinterest's close-up shows it: the picture (one image, a carousel with its dots, or
 * the video with its cover), then the link's host, the title, the description and the account,
 * and the board it is saved on. A video's image is its cover, shown in the frame.
 */
export function PinterestPreview({ platform, text, media, pin }: PreviewProps) {
  const account = accountOf(platform);
  const video = media.find((item) => item.kind === 'video');
  const images = media.filter((item) => item.kind === 'image');
  const frames = video ? [images[0] ?? video] : images;
  const [shown, setShown] = useState(0);
  const at = Math.min(shown, Math.max(0, frames.length - 1));
  const frame = frames[at];
  const host = pin?.link ? hostOf(pin.link) : null;
  return (
    <div className="space-y-3 bg-white p-4 text-sm text-slate-900" data-testid="pinterest-preview">
      <div className="relative mx-auto w-full max-w-72 overflow-hidden rounded-3xl bg-slate-100">
        {frame ? (
          <div className="relative aspect-[2/3] w-full">
            <PreviewMedia item={frame} />
            {video && (
              <span className="absolute top-3 left-3 rounded-full bg-black/60 px-2 py-0.5 text-xs text-white">
                Video
              </span>
            )}
          </div>
        ) : (
          <span className="flex aspect-[2/3] w-full flex-col items-center justify-center gap-2 p-6 text-center text-sm text-slate-500">
            <ImageIcon className="size-8" aria-hidden="true" />A pin is an image, a carousel or a
            video: add one to see it here.
          </span>
        )}
        {frames.length > 1 && (
          <>
            <button
              type="button"
              aria-label="Previous image"
              className="absolute top-1/2 left-2 -translate-y-1/2 rounded-full bg-white/90 p-1 shadow"
              onClick={() => setShown(Math.max(0, at - 1))}
            >
              <ChevronLeft className="size-4" />
            </button>
            <button
              type="button"
              aria-label="Next image"
              className="absolute top-1/2 right-2 -translate-y-1/2 rounded-full bg-white/90 p-1 shadow"
              onClick={() => setShown(Math.min(frames.length - 1, at + 1))}
            >
              <ChevronRight className="size-4" />
            </button>
            <span
              className="absolute bottom-3 left-1/2 flex -translate-x-1/2 gap-1"
              aria-hidden="true"
            >
              {frames.map((item, index) => (
                <span
                  key={item.id}
                  className={`size-1.5 rounded-full ${index === at ? 'bg-white' : 'bg-white/50'}`}
                />
              ))}
            </span>
          </>
        )}
      </div>
      <div className="flex items-center justify-between text-slate-700">
        <span className="flex gap-4">
          <Share className="size-5" aria-hidden="true" />
          <MoreHorizontal className="size-5" aria-hidden="true" />
        </span>
        <span className="rounded-full bg-[#E60023] px-4 py-2 text-sm font-semibold text-white">
          Save
        </span>
      </div>
      {host && (
        <p className="flex items-center gap-1 text-xs text-slate-600">
          <Link2 className="size-3.5" aria-hidden="true" />
          {host}
        </p>
      )}
      {pin?.title && <p className="text-xl leading-tight font-semibold break-words">{pin.title}</p>}
      {text && (
        <p className="line-clamp-4 break-words whitespace-pre-wrap text-slate-700">{text}</p>
      )}
      <div className="flex items-center gap-2">
        <Avatar name={account.name} url={account.pictureUrl} className="size-8" />
        <p className="truncate font-semibold">{account.name}</p>
      </div>
      <p className="text-xs text-slate-500">
        {pin?.boardName ? `Saved to ${pin.boardName}` : 'Choose a board for this pin.'}
      </p>
    </div>
  );
}
