import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { stepUnit, type CalendarView } from './calendar-dates';

const VIEWS: Array<{ value: CalendarView; label: string }> = [
  { value: 'agenda', label: 'Agenda' },
  { value: 'week', label: 'Week' },
  { value: 'month', label: 'Month' },
];

/** Today, previous, the range on screen, next, and Agenda, Week or Month. */
export function CalendarToolbar({
  view,
  label,
  onToday,
  onStep,
  onView,
  isLoading,
}: {
  view: CalendarView;
  label: string;
  onToday: () => void;
  onStep: (step: -1 | 1) => void;
  onView: (view: CalendarView) => void;
  isLoading: boolean;
}) {
  const unit = stepUnit(view);
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="secondary" size="sm" onClick={onToday}>
          Today
        </Button>
        <Button
          variant="ghost"
          size="sm"
          aria-label={`Previous ${unit}`}
          title={`Previous ${unit}`}
          onClick={() => onStep(-1)}
        >
          <ChevronLeft className="size-4" aria-hidden="true" />
        </Button>
        <Button
          variant="ghost"
          size="sm"
          aria-label={`Next ${unit}`}
          title={`Next ${unit}`}
          onClick={() => onStep(1)}
        >
          <ChevronRight className="size-4" aria-hidden="true" />
        </Button>
        <h2 aria-live="polite" className="text-lg font-semibold text-slate-900">
          {label}
        </h2>
        {isLoading && <span className="text-sm text-slate-500">Loading…</span>}
      </div>
      <div
        role="group"
        aria-label="Calendar view"
        className="flex gap-1 rounded-lg bg-slate-100 p-1"
      >
        {VIEWS.map((option) => (
          <button
            key={option.value}
            type="button"
            aria-pressed={option.value === view}
            onClick={() => onView(option.value)}
            className={cn(
              'rounded-md px-3 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600',
              option.value === view
                ? 'bg-white text-slate-900 shadow-sm'
                : 'text-slate-600 hover:text-slate-900',
            )}
          >
            {option.label}
          </button>
        ))}
      </div>
    </div>
  );
}
