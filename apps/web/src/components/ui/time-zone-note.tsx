import { Globe } from 'lucide-react';
import { cn } from '@/lib/cn';

/** Names the zone the times on screen are in ("Times in Europe/Paris"), so none is implied. */
export function TimeZoneNote({ zone, className }: { zone: string; className?: string }) {
  return (
    <p className={cn('inline-flex items-center gap-1.5 text-xs text-slate-500', className)}>
      <Globe className="size-3.5" aria-hidden="true" />
      Times in {zone}
    </p>
  );
}
