import { cn } from '@/lib/cn';

/** Brand-coloured marks; a network without one gets a neutral tile with its initial. */
const MARKS: Record<string, { glyph: string; className: string }> = {
  x: { glyph: '𝕏', className: 'bg-slate-900 text-white' },
  twitter: { glyph: '𝕏', className: 'bg-slate-900 text-white' },
  instagram: { glyph: 'IG', className: 'bg-pink-600 text-white' },
  facebook: { glyph: 'f', className: 'bg-blue-700 text-white' },
  threads: { glyph: '@', className: 'bg-black text-white' },
  tiktok: { glyph: '♪', className: 'bg-slate-800 text-white' },
  linkedin: { glyph: 'in', className: 'bg-sky-800 text-white' },
};

/** A small tile naming one network; it is an image with the network's name for screen readers. */
export function PlatformIcon({ name, className }: { name: string; className?: string }) {
  const mark = MARKS[name.trim().toLowerCase()] ?? {
    glyph: name.trim().charAt(0).toUpperCase() || '?',
    className: 'bg-slate-200 text-slate-800',
  };
  return (
    <span
      role="img"
      aria-label={name}
      title={name}
      className={cn(
        'inline-grid size-6 shrink-0 place-items-center rounded-md text-[0.65rem] leading-none font-bold',
        mark.className,
        className,
      )}
    >
      <span aria-hidden="true">{mark.glyph}</span>
    </span>
  );
}

/** The networks of a post, in the order the post lists them. */
export function PlatformIcons({
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
          <PlatformIcon name={platform.name} />
        </li>
      ))}
    </ul>
  );
}
