import { cn } from '@/lib/cn';
import { networkOf, type Network } from '../utils/compose-platforms';

const marks: Record<Network, { glyph: string; className: string }> = {
  x: { glyph: '𝕏', className: 'bg-black text-white' },
  instagram: {
    glyph: 'IG',
    className: 'bg-gradient-to-br from-amber-400 via-pink-600 to-purple-700 text-white',
  },
  facebook: { glyph: 'f', className: 'bg-[#1877f2] text-white' },
  threads: { glyph: '@', className: 'bg-black text-white' },
  tiktok: { glyph: '♪', className: 'bg-black text-cyan-300' },
  linkedin: { glyph: 'in', className: 'bg-[#0a66c2] text-white' },
  other: { glyph: '', className: 'bg-slate-600 text-white' },
};

/** A small square in the network's colors; decorative, the name is always written beside it. */
export function NetworkMark({ name, className }: { name: string; className?: string }) {
  const mark = marks[networkOf(name)];
  return (
    <span
      aria-hidden="true"
      className={cn(
        'grid size-8 shrink-0 place-items-center rounded-lg text-sm font-bold',
        mark.className,
        className,
      )}
    >
      {mark.glyph || name.charAt(0).toUpperCase()}
    </span>
  );
}
