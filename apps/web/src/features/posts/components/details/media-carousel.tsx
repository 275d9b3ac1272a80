import type { PostMedia } from '@herald/contract';
import { ChevronLeft, ChevronRight, FileWarning } from 'lucide-react';
import { useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { cn } from '@/lib/cn';

/** How far a drag must travel, in pixels, to turn the page. */
const SWIPE_THRESHOLD = 40;

function Slide({ media }: { media: PostMedia }) {
  if (media.kind === 'image' && media.mimeType.startsWith('image/')) {
    return (
      <img
        src={media.mediaUrl}
        alt={media.fileName}
        draggable={false}
        className="size-full object-contain select-none"
      />
    );
  }
  if (media.kind === 'video' && media.mimeType.startsWith('video/')) {
    return (
      <video
        src={media.mediaUrl}
        poster={media.thumbnailUrl ?? undefined}
        controls
        preload="metadata"
        aria-label={media.fileName}
        className="size-full object-contain"
      />
    );
  }
  return (
    <div className="flex size-full flex-col items-center justify-center gap-2 text-slate-600">
      <FileWarning className="size-8" aria-hidden="true" />
      <p className="text-sm">Unsupported file type</p>
      <p className="text-xs">{media.fileName}</p>
    </div>
  );
}

/**
 * The post's files one at a time (docs/product.md#post-details): previous, next, a dot per file, dragging or
 * swiping sideways, and the arrow keys. Hidden slides are inert, so their video controls stay
 * out of the tab order.
 */
export function MediaCarousel({ media }: { media: PostMedia[] }) {
  const headingId = useId();
  const [index, setIndex] = useState(0);
  const [offset, setOffset] = useState(0);
  const start = useRef<{ x: number; pointerId: number } | null>(null);
  const count = media.length;
  const current = Math.min(index, Math.max(count - 1, 0));
  const go = (next: number) => setIndex(((next % count) + count) % count);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (count < 2 || event.button !== 0) return;
    start.current = { x: event.clientX, pointerId: event.pointerId };
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const from = start.current;
    if (from && from.pointerId === event.pointerId) setOffset(event.clientX - from.x);
  };
  const onPointerEnd = (event: PointerEvent<HTMLDivElement>) => {
    const from = start.current;
    if (!from || from.pointerId !== event.pointerId) return;
    const moved = event.clientX - from.x;
    start.current = null;
    setOffset(0);
    if (moved <= -SWIPE_THRESHOLD) go(current + 1);
    else if (moved >= SWIPE_THRESHOLD) go(current - 1);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (count < 2) return;
    if (event.key === 'ArrowRight') go(current + 1);
    else if (event.key === 'ArrowLeft') go(current - 1);
    else return;
    event.preventDefault();
  };

  return (
    <section
      aria-labelledby={headingId}
      aria-roledescription="carousel"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex items-center justify-between gap-3">
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          Media
        </h2>
        {count > 0 && (
          <p className="text-sm text-slate-600" aria-live="polite">
            {current + 1} / {count}
          </p>
        )}
      </div>
      {count === 0 ? (
        <p className="mt-3 rounded-xl border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
          No media attached to this post.
        </p>
      ) : (
        <div className="mt-3 flex flex-col gap-3" onKeyDown={onKeyDown}>
          <div
            className="relative aspect-video touch-pan-y overflow-hidden rounded-xl bg-slate-900/5"
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerEnd}
            onPointerCancel={onPointerEnd}
            data-testid="carousel-viewport"
          >
            <div
              className={cn('flex size-full', offset === 0 && 'transition-transform duration-300')}
              style={{ transform: `translateX(calc(${-current * 100}% + ${offset}px))` }}
            >
              {media.map((item, i) => (
                <div
                  key={item.id}
                  role="group"
                  aria-roledescription="slide"
                  aria-label={`${i + 1} of ${count}: ${item.fileName}`}
                  aria-hidden={i !== current}
                  inert={i !== current}
                  className="size-full shrink-0"
                >
                  <Slide media={item} />
                </div>
              ))}
            </div>
            {count > 1 && (
              <>
                <button
                  type="button"
                  aria-label="Previous media"
                  onClick={() => go(current - 1)}
                  className="absolute top-1/2 left-2 grid size-9 -translate-y-1/2 place-items-center rounded-full bg-white/90 text-slate-900 shadow hover:bg-white focus-visible:outline-2 focus-visible:outline-indigo-600"
                >
                  <ChevronLeft className="size-5" aria-hidden="true" />
                </button>
                <button
                  type="button"
                  aria-label="Next media"
                  onClick={() => go(current + 1)}
                  className="absolute top-1/2 right-2 grid size-9 -translate-y-1/2 place-items-center rounded-full bg-white/90 text-slate-900 shadow hover:bg-white focus-visible:outline-2 focus-visible:outline-indigo-600"
                >
                  <ChevronRight className="size-5" aria-hidden="true" />
                </button>
              </>
            )}
          </div>
          {count > 1 && (
            <div className="flex justify-center gap-1">
              {media.map((item, i) => (
                <button
                  key={item.id}
                  type="button"
                  aria-label={`Show media ${i + 1} of ${count}`}
                  aria-current={i === current ? 'true' : undefined}
                  onClick={() => go(i)}
                  className="group rounded-full p-1.5 focus-visible:outline-2 focus-visible:outline-indigo-600"
                >
                  <span
                    className={cn(
                      'block size-2.5 rounded-full',
                      i === current ? 'bg-indigo-600' : 'bg-slate-300 group-hover:bg-slate-400',
                    )}
                  />
                </button>
              ))}
            </div>
          )}
        </div>
      )}
    </section>
  );
}
