import {
  BULK_SHIFT_MAX_DAYS,
  dayInZone,
  parseDay,
  sameTimeOnDay,
  shiftByDays,
  type Post,
} from '@herald/contract';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/form-field';
import { Modal, ModalActions } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { TimeZoneNote } from '@/components/ui/time-zone-note';
import { cn } from '@/lib/cn';
import { formatPostDate } from '../post-dates';
import { postName } from './selection';

/** What the dialog asks the server for: every post to one day, or every post by some days. */
export type RescheduleChoice = { date: string } | { shiftDays: number };

const PREVIEW_COUNT = 5;
const posts = (n: number) => `${n} post${n === 1 ? '' : 's'}`;

/** Where a post lands: the same time of day on the chosen day, or that many days away. */
export function landing(post: Post, choice: RescheduleChoice, zone: string): number | null {
  if (!post.scheduledAt) return null;
  const at = new Date(post.scheduledAt).getTime();
  if (Number.isNaN(at)) return null;
  if ('date' in choice) {
    const day = parseDay(choice.date);
    return day ? sameTimeOnDay(at, zone, day) : null;
  }
  return shiftByDays(at, zone, choice.shiftDays);
}

/** The day after today in `zone`, as a date field's value. */
const tomorrow = (zone: string) => dayInZone(shiftByDays(Date.now(), zone, 1), zone);

/**
 * Reschedule (docs/product.md#bulk-actions): move the chosen posts to a day, each keeping its
 * time of day, or shift them by a number of days, in the zone the screen shows. A preview says
 * where the first posts land and which would land in the past (the server refuses those).
 */
export function RescheduleDialog({
  open,
  selected,
  zone,
  isPending,
  error,
  onSubmit,
  onClose,
}: {
  open: boolean;
  selected: readonly Post[];
  zone: string;
  isPending: boolean;
  /** The server's sentence when it refused. */
  error: string | null;
  onSubmit: (choice: RescheduleChoice) => void;
  onClose: () => void;
}) {
  const [mode, setMode] = useState<'date' | 'shift'>('date');
  const [date, setDate] = useState(() => tomorrow(zone));
  const [shift, setShift] = useState('1');

  const days = Number(shift);
  const shiftProblem =
    !/^-?\d+$/.test(shift.trim()) || days === 0
      ? 'Enter a whole number of days other than 0 (negative moves them earlier).'
      : Math.abs(days) > BULK_SHIFT_MAX_DAYS
        ? `Shift by at most ${BULK_SHIFT_MAX_DAYS} days.`
        : null;
  const dateProblem = parseDay(date) ? null : 'Pick a day.';
  const problem = mode === 'date' ? dateProblem : shiftProblem;
  const choice: RescheduleChoice | null = problem
    ? null
    : mode === 'date'
      ? { date }
      : { shiftDays: days };

  const moves = selected.map((post) => ({
    post,
    to: choice ? landing(post, choice, zone) : null,
  }));
  const intoPast = moves.filter(({ to }) => to !== null && to <= Date.now()).length;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (choice && intoPast === 0) onSubmit(choice);
  };

  return (
    <Modal
      open={open}
      onOpenChange={(next) => !next && !isPending && onClose()}
      title={`Reschedule ${posts(selected.length)}`}
      description="Each post keeps its own time of day."
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <fieldset className="flex flex-col gap-3">
          <legend className="sr-only">How to move them</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            {(
              [
                ['date', 'Move to a day', 'All of them on the day you pick.'],
                ['shift', 'Shift by days', 'Each one earlier or later by the same days.'],
              ] as const
            ).map(([value, label, hint]) => (
              <label
                key={value}
                className={cn(
                  'flex cursor-pointer flex-col rounded-lg border p-3 text-sm',
                  'has-[input:focus-visible]:outline-2 has-[input:focus-visible]:outline-indigo-600',
                  mode === value
                    ? 'border-indigo-600 bg-indigo-50'
                    : 'border-slate-200 hover:border-slate-400',
                )}
              >
                <span className="flex items-center gap-2 font-medium text-slate-900">
                  <input
                    type="radio"
                    name="reschedule-mode"
                    value={value}
                    checked={mode === value}
                    onChange={() => setMode(value)}
                    className="accent-indigo-600"
                  />
                  {label}
                </span>
                <span className="mt-1 text-xs text-slate-600">{hint}</span>
              </label>
            ))}
          </div>
        </fieldset>

        {mode === 'date' ? (
          <TextField
            type="date"
            label="Day"
            className="max-w-xs"
            value={date}
            min={dayInZone(Date.now(), zone)}
            onChange={(event) => setDate(event.target.value)}
            error={dateProblem}
          />
        ) : (
          <TextField
            type="number"
            inputMode="numeric"
            label="Days"
            className="max-w-xs"
            value={shift}
            step={1}
            min={-BULK_SHIFT_MAX_DAYS}
            max={BULK_SHIFT_MAX_DAYS}
            onChange={(event) => setShift(event.target.value)}
            error={shiftProblem}
            hint="A negative number moves them earlier."
          />
        )}

        <section
          aria-label="Preview"
          className="rounded-lg border border-slate-200 bg-slate-50 p-3"
        >
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h3 className="text-sm font-semibold text-slate-900">Where they go</h3>
            <TimeZoneNote zone={zone} />
          </div>
          <ul className="mt-2 flex flex-col gap-2 text-sm">
            {moves.slice(0, PREVIEW_COUNT).map(({ post, to }) => {
              const late = to !== null && to <= Date.now();
              return (
                <li key={post.id} className="flex min-w-0 flex-col">
                  <span className="truncate font-medium text-slate-800">{postName(post)}</span>
                  <span className={cn('text-xs', late ? 'text-red-700' : 'text-slate-600')}>
                    {formatPostDate(post.scheduledAt, zone, { empty: 'No time' })} →{' '}
                    {to === null ? '—' : formatPostDate(new Date(to).toISOString(), zone)}
                    {late && ' (in the past)'}
                  </span>
                </li>
              );
            })}
          </ul>
          {moves.length > PREVIEW_COUNT && (
            <p className="mt-1.5 text-xs text-slate-600">
              And {posts(moves.length - PREVIEW_COUNT)} more.
            </p>
          )}
        </section>

        {intoPast > 0 && (
          <p role="alert" className="text-sm text-red-700">
            {intoPast === 1
              ? '1 post would move into the past. Pick a later day.'
              : `${intoPast} posts would move into the past. Pick a later day.`}
          </p>
        )}
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}

        <ModalActions>
          <Button variant="secondary" onClick={onClose} disabled={isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={isPending || !choice || intoPast > 0}>
            {isPending && <Spinner className="size-4 text-white" />}
            Reschedule
          </Button>
        </ModalActions>
      </form>
    </Modal>
  );
}
