import { cn } from '@/lib/cn';
import { statusLabel, statusStyle } from './post-status';

/** The post's status as a coloured pill (docs/product.md#post-statuses). */
export function StatusBadge({ status, className }: { status: string; className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex shrink-0 items-center rounded-full px-2 py-0.5 text-xs font-semibold',
        statusStyle(status).badge,
        className,
      )}
    >
      {statusLabel(status)}
    </span>
  );
}
