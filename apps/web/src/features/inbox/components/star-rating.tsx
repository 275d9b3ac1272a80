import { Star } from 'lucide-react';
import { cn } from '@/lib/cn';

/** "4 out of 5 stars": what a screen reader says for a review's rating. */
export const ratingLabel = (rating: number) =>
  `${rating} out of 5 ${rating === 1 ? 'star' : 'stars'}`;

/**
 * A review's stars (Google Business Profile), drawn as five stars with the given ones filled. One
 * image to assistive technology, named by its rating: the five star glyphs are not read out.
 */
export function StarRating({ rating, className }: { rating: number; className?: string }) {
  return (
    <span
      role="img"
      aria-label={ratingLabel(rating)}
      className={cn('inline-flex shrink-0 items-center gap-px', className)}
    >
      {[1, 2, 3, 4, 5].map((n) => (
        <Star
          key={n}
          aria-hidden="true"
          className={cn(
            'size-3.5',
            n <= rating ? 'fill-amber-500 text-amber-500' : 'fill-none text-slate-400',
          )}
        />
      ))}
    </span>
  );
}
