import { Star } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

/**
 * The one look of a social network across the app (composer, library, calendar, post details,
 * back-office): a tile in the network's colours with its mark drawn on a 24×24 grid.
 */
const MARKS: Record<string, { background: string; glyph: ReactNode }> = {
  facebook: {
    background: 'bg-[#1877F2]',
    glyph: (
      <path
        d="M13.5 21v-7.5h2.6l.4-3h-3V8.6c0-.9.3-1.5 1.6-1.5h1.6V4.4a21 21 0 0 0-2.4-.1c-2.4 0-4 1.4-4 4.1v2.1H7.7v3h2.6V21z"
        fill="currentColor"
      />
    ),
  },
  instagram: {
    background: 'bg-gradient-to-br from-[#F58529] via-[#DD2A7B] to-[#8134AF]',
    glyph: (
      <g fill="none" stroke="currentColor" strokeWidth="2">
        <rect x="4" y="4" width="16" height="16" rx="5" />
        <circle cx="12" cy="12" r="3.6" />
        <circle cx="17" cy="7" r="0.6" fill="currentColor" />
      </g>
    ),
  },
  linkedin: {
    background: 'bg-[#0A66C2]',
    glyph: (
      <g fill="currentColor">
        <rect x="5" y="9.5" width="3" height="9" />
        <circle cx="6.5" cy="6.3" r="1.8" />
        <path d="M10.5 9.5h2.9v1.3c.5-.9 1.6-1.5 3-1.5 2.4 0 3.1 1.5 3.1 3.8v5.4h-3v-4.8c0-1.1-.3-1.8-1.3-1.8s-1.7.7-1.7 1.8v4.8h-3z" />
      </g>
    ),
  },
  threads: {
    background: 'bg-black',
    glyph: (
      <path
        d="M16.2 11.3c-.3-2.3-1.9-3.5-4.1-3.5-1.6 0-2.9.7-3.6 1.9m7.7 1.6c-3.7-.6-6.2.2-6.2 2.3 0 1.2 1 2 2.4 2 2.5 0 3.8-1.9 3.8-4.3m0 0c2.6 1 3.1 3.6 2 5.5C17 19.2 15 20 12.3 20 7.6 20 5 17 5 12s2.6-8 7.3-8c3.7 0 6 1.7 6.9 4.6"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
      />
    ),
  },
  tiktok: {
    background: 'bg-black',
    glyph: (
      <path
        d="M14 3.5v11.2a3.2 3.2 0 1 1-3.2-3.2M14 3.5c.4 2.4 2 4 4.5 4.2"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    ),
  },
  x: {
    background: 'bg-black',
    glyph: (
      <path
        d="M5 4.5 19 19.5M19 4.5 5 19.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.2"
        strokeLinecap="round"
      />
    ),
  },
};

/** Names the app may receive for one network (X was Twitter). */
const ALIASES: Record<string, string> = { twitter: 'x' };

function markOf(name: string) {
  const key = name.trim().toLowerCase();
  return MARKS[ALIASES[key] ?? key];
}

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
 * docs/product.md#screens's platform icons: Facebook, Instagram, LinkedIn, Threads, TikTok and X have their own
 * mark; any other network shows a star. The mark scales with the tile.
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
  const mark = markOf(name);
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
