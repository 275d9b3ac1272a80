import { Star } from 'lucide-react';
import { cn } from '@/lib/cn';
import { webNetworkOf } from '@/networks';

/*
 * The one look of a social network across the app (composer, library, calendar, post details,
 * back-office): a tile in the network's colours with its mark, both from its entry in
 * networks/ (WEB_NETWORKS).
 */

/**
 * How the tile is announced: `none` when the network's name is written beside it (decorative),
 * `name` for the name alone (e.g. the library card's list of networks), `logo` for "{name} logo"
 * (the back-office's Icon column, which says when a network has no icon of its own).
 */
export type NetworkMarkLabel = 'none' | 'name' | 'logo';

function labelOf(name: string, label: NetworkMarkLabel, hasMark: boolean) {
  if (label === 'none') return { 'aria-hidden': true as const };
  const text = label === 'name' ? name : hasMark ? `${name} logo` : `${name} (no icon of its own)`;
  return { role: 'img', 'aria-label': text, title: label === 'name' ? name : undefined };
}

/** Tile sizes: beside a preview's name, in lists of networks, on picker tiles, in tables. */
const SIZES = {
  xs: 'size-5 rounded',
  sm: 'size-6 rounded-md',
  md: 'size-8 rounded-lg',
  lg: 'size-9 rounded-lg',
} as const;

/**
 * docs/product.md#screens's platform icons: every network of WEB_NETWORKS has its own mark; any
 * other network shows a star. The mark scales with the tile.
 */
export function NetworkMark({
  name,
  label = 'none',
  size = 'md',
  className,
}: {
  name: string;
  label?: NetworkMarkLabel;
  size?: keyof typeof SIZES;
  className?: string;
}) {
  const mark = webNetworkOf(name)?.mark;
  return (
    <span
      {...labelOf(name, label, Boolean(mark))}
      className={cn(
        'inline-grid shrink-0 place-items-center text-white',
        SIZES[size],
        mark ? mark.background : 'bg-amber-100 text-amber-700',
        className,
      )}
    >
      {mark ? (
        <svg viewBox="0 0 24 24" className="size-[62%]" aria-hidden="true">
          {mark.glyph}
        </svg>
      ) : (
        <Star className="size-[62%]" aria-hidden="true" />
      )}
    </span>
  );
}

/** The networks of a post, in the order the post lists them, each announced by its name. */
export function NetworkMarks({
  platforms,
  className,
}: {
  platforms: ReadonlyArray<{ id: string; name: string }>;
  className?: string;
}) {
  if (platforms.length === 0) return null;
  return (
    <ul aria-label="Platforms" className={cn('flex flex-wrap items-center gap-1', className)}>
      {platforms.map((platform) => (
        <li key={platform.id}>
          <NetworkMark name={platform.name} label="name" size="sm" />
        </li>
      ))}
    </ul>
  );
}
