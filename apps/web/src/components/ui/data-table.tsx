import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

/** A table in a card (the back-office lists); the caption names it for screen readers. */
export function DataTable({
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
    <div className="relative overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm">
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
