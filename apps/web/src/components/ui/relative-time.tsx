import dayjs from 'dayjs';
import { cn } from '@/lib/cn';
import { useRelativeTime } from '@/lib/relative-time';

/** "5m ago", kept current; the full date is in the tooltip and the machine-readable value. */
export function RelativeTime({ iso, className }: { iso: string; className?: string }) {
  const label = useRelativeTime(iso);
  const date = dayjs(iso);
  return (
    <time
      dateTime={iso}
      title={date.isValid() ? date.format('MMM D, YYYY h:mm A') : undefined}
      className={cn('text-xs text-slate-500', className)}
    >
      {label}
    </time>
  );
}
