import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from './button';

type PageCount =
  /** Lists that know their total: "Showing 1–20 of 57" beside the buttons; hidden when empty. */
  | { totalCount: number; pageSize: number; pageCount?: never }
  /** Lists that only know the number of pages: the buttons, centred. */
  | { pageCount: number; totalCount?: never; pageSize?: never };

/**
 * Previous / "Page X of Y" / Next for a list paged on the server (the back-office tables, the
 * content library). `disabled` while a new page is on its way.
 */
export function Pagination({
  label,
  page,
  onPageChange,
  disabled = false,
  ...count
}: {
  label: string;
  page: number;
  onPageChange: (page: number) => void;
  disabled?: boolean;
} & PageCount) {
  const hasTotal = count.totalCount !== undefined;
  if (hasTotal && count.totalCount === 0) return null;
  const pageCount = hasTotal
    ? Math.max(1, Math.ceil(count.totalCount / count.pageSize))
    : Math.max(1, count.pageCount);
  return (
    <nav
      aria-label={label}
      className={
        hasTotal
          ? 'flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600'
          : 'flex items-center justify-center gap-4 text-sm text-slate-700'
      }
    >
      {hasTotal && (
        <p>
          Showing {(page - 1) * count.pageSize + 1}–
          {Math.min(count.totalCount, page * count.pageSize)} of {count.totalCount}
        </p>
      )}
      <div className="flex items-center gap-3">
        <Button
          variant="secondary"
          size="sm"
          disabled={disabled || page <= 1}
          onClick={() => onPageChange(page - 1)}
        >
          <ChevronLeft className="size-4" aria-hidden="true" />
          Previous
        </Button>
        <span aria-live="polite">
          Page {page} of {pageCount}
        </span>
        <Button
          variant="secondary"
          size="sm"
          disabled={disabled || page >= pageCount}
          onClick={() => onPageChange(page + 1)}
        >
          Next
          <ChevronRight className="size-4" aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}
