import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

/** docs/product.md#messages: a date the browser cannot read shows 'Invalid date'. */
export function formatDate(iso: string): string {
  const date = dayjs(iso);
  return date.isValid() ? date.format('MMM D, YYYY') : 'Invalid date';
}

/** Title, one line on what the page is for, and the page's main action. */
export function AdminPageHeader({
  title,
  description,
  action,
}: {
  title: string;
  description: string;
  action?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <title>{`${title} · Herald back-office`}</title>
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
        <p className="mt-1 text-slate-600">{description}</p>
      </div>
      {action}
    </div>
  );
}

export function StatusBadge({ active }: { active: boolean }) {
  return (
    <span
      className={cn(
        'inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold',
        active ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-200 text-slate-700',
      )}
    >
      {active ? 'Active' : 'Inactive'}
    </span>
  );
}
