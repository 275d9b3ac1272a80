import { Star } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

/** Simple marks in each network's colours, drawn on a 24×24 grid. */
const marks: Record<string, { background: string; glyph: ReactNode }> = {
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

/**
 * The icon of spec §2's platform table: Facebook, Instagram, LinkedIn, Threads, TikTok and X
 * have their own; any other name shows a star.
 */
export function PlatformIcon({ name, className }: { name: string; className?: string }) {
  const mark = marks[name.trim().toLowerCase()];
  const box = cn('grid size-9 shrink-0 place-items-center rounded-lg text-white', className);
  if (!mark) {
    return (
      <span
        role="img"
        aria-label={`${name} (no icon of its own)`}
        className={cn(box, 'bg-amber-100 text-amber-700')}
      >
        <Star className="size-5" aria-hidden="true" />
      </span>
    );
  }
  return (
    <span role="img" aria-label={`${name} logo`} className={cn(box, mark.background)}>
      <svg viewBox="0 0 24 24" className="size-5" aria-hidden="true">
        {mark.glyph}
      </svg>
    </span>
  );
}
