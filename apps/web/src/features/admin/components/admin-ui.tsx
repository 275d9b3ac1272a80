import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { Button } from '@/components/ui/button';

/** Spec §8: a date the browser cannot read shows 'Invalid date'. */
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

/** A table in a card; the caption names it for screen readers. */
export function AdminTable({
  caption,
  columns,
  children,
  busy = false,
}: {
  caption: string;
  columns: Array<string | { label: string; hidden: true }>;
  children: ReactNode;
  /** A new page or search is loading: the rows shown are the previous ones. */
  busy?: boolean;
}) {
  return (
    <div className="overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm">
      <table
        className={cn('w-full text-left text-sm transition-opacity', busy && 'opacity-60')}
        aria-busy={busy || undefined}
      >
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
          <tr>
            {columns.map((column) =>
              typeof column === 'string' ? (
                <th key={column} scope="col" className="px-4 py-3 whitespace-nowrap">
                  {column}
                </th>
              ) : (
                <th key={column.label} scope="col" className="px-4 py-3">
                  <span className="sr-only">{column.label}</span>
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}

/** The one row of an empty table: "No users found" and the like. */
export function EmptyRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="px-4 py-12 text-center text-slate-600">
        {children}
      </td>
    </tr>
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

/** A load failure with the way to try again (spec §8: the server's sentence when it has one). */
export function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800"
    >
      <span>{message}</span>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

/**
 * Previous and Next with "Page X of Y" for a list paged on the server. Hidden while there is
 * nothing to page through.
 */
export function Pagination({
  label,
  page,
  pageSize,
  totalCount,
  onPageChange,
}: {
  label: string;
  page: number;
  pageSize: number;
  totalCount: number;
  onPageChange: (page: number) => void;
}) {
  const pageCount = Math.max(1, Math.ceil(totalCount / pageSize));
  if (totalCount === 0) return null;
  const from = (page - 1) * pageSize + 1;
  const to = Math.min(totalCount, page * pageSize);
  return (
    <nav
      aria-label={label}
      className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600"
    >
      <p>
        Showing {from}–{to} of {totalCount}
      </p>
      <div className="flex items-center gap-3">
        <Button
          variant="secondary"
          size="sm"
          disabled={page <= 1}
          onClick={() => onPageChange(page - 1)}
        >
          Previous
        </Button>
        <span aria-live="polite">
          Page {page} of {pageCount}
        </span>
        <Button
          variant="secondary"
          size="sm"
          disabled={page >= pageCount}
          onClick={() => onPageChange(page + 1)}
        >
          Next
        </Button>
      </div>
    </nav>
  );
}
