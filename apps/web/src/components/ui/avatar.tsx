import { cn } from '@/lib/cn';

/** Up to two initials from a name or an email address ("Ada Lovelace" → "AL"). */
export function initialsOf(name: string): string {
  const words = name
    .trim()
    .split(/[\s@._-]+/)
    .filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[1]] : [words[0]];
  return letters.map((w) => w?.charAt(0).toUpperCase() ?? '').join('') || '?';
}

/** docs/product.md#team-entities: without a chosen color, people and roles take one of five by their name. */
export const FALLBACK_PALETTE = [
  'bg-indigo-100 text-indigo-800',
  'bg-emerald-100 text-emerald-800',
  'bg-amber-100 text-amber-900',
  'bg-rose-100 text-rose-800',
  'bg-sky-100 text-sky-800',
] as const;

export function fallbackColor(key: string): string {
  let hash = 0;
  for (const char of key) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return FALLBACK_PALETTE[hash % FALLBACK_PALETTE.length] ?? FALLBACK_PALETTE[0];
}

/** A round picture, or the initials on a color of the fallback palette. Decorative. */
export function Avatar({
  name,
  url,
  className,
}: {
  name: string;
  url?: string | null;
  className?: string;
}) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'grid size-10 shrink-0 place-items-center overflow-hidden rounded-full text-sm font-semibold',
        !url && fallbackColor(name),
        className,
      )}
    >
      {url ? <img src={url} alt="" className="size-full object-cover" /> : initialsOf(name)}
    </span>
  );
}
