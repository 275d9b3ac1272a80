import { describeTimeZone, type TimeZoneSource } from '@herald/contract';
import { Globe } from 'lucide-react';
import { cn } from '@/lib/cn';

/**
 * Names the zone the times on screen are in, and why it is that one ("Times in Europe/Paris
 * (the organization's time zone)"), so none is implied.
 */
export function TimeZoneNote({
  zone,
  source,
  className,
}: {
  zone: string;
  /** Where the zone comes from (`useTimeZoneRule`); left out, only the zone is named. */
  source?: TimeZoneSource;
  className?: string;
}) {
  return (
    <p className={cn('inline-flex items-start gap-1.5 text-xs text-slate-500', className)}>
      <Globe className="mt-px size-3.5 shrink-0" aria-hidden="true" />
      <span>Times in {source ? describeTimeZone({ zone, source }) : zone}</span>
    </p>
  );
}
