import { Check, X } from 'lucide-react';
import { cn } from '@/lib/cn';

/**
 * One line of a plan's feature list: a tick for what the plan includes, a grey cross (and the
 * words "not included" for screen readers) for what it does not.
 */
export function FeatureItem({
  label,
  value,
  included,
}: {
  label: string;
  value: string;
  included: boolean;
}) {
  return (
    <li className={cn('flex items-start gap-2', !included && 'text-slate-500')}>
      {included ? (
        <Check className="mt-0.5 size-4 shrink-0 text-indigo-600" aria-hidden="true" />
      ) : (
        <X className="mt-0.5 size-4 shrink-0 text-slate-400" aria-hidden="true" />
      )}
      <span>
        {label}:{' '}
        <span className={cn('font-semibold', included ? 'text-slate-900' : 'text-slate-500')}>
          {value}
        </span>
        {!included && <span className="sr-only"> (not included)</span>}
      </span>
    </li>
  );
}
