import type { ReactNode } from 'react';
import { CREATE_POST_ACTIONS, type CreatePostAction, type TimeZoneSource } from '@herald/contract';
import { TextField } from '@/components/ui/form-field';
import { TimeZoneNote } from '@/components/ui/time-zone-note';
import { cn } from '@/lib/cn';
import { nowAsLocal } from '../utils/schedule';

export const ACTION_LABELS: Record<CreatePostAction, { label: string; hint: string }> = {
  draft: { label: 'Save as draft', hint: 'Keep it in the content library to finish later.' },
  schedule: { label: 'Schedule', hint: 'Publish automatically at the time below.' },
  publish: { label: 'Publish now', hint: 'Send it to the networks right away.' },
};

interface ScheduleSectionProps {
  action: CreatePostAction;
  onActionChange: (action: CreatePostAction) => void;
  scheduleAt: string;
  onScheduleAtChange: (value: string) => void;
  error: string | null;
  /** The zone that applies (`useTimeZoneRule`): the picker's value is a time there. */
  zone: string;
  /** Why that zone applies, named under the picker. */
  zoneSource?: TimeZoneSource;
  disabled?: boolean;
  /** Shown under the picker: the best-time hint. */
  children?: ReactNode;
}

/** What happens on Create Post, and when (docs/product.md#create-post: the picker labelled Publish Date & Time). */
export function ScheduleSection({
  action,
  onActionChange,
  scheduleAt,
  onScheduleAtChange,
  error,
  zone,
  zoneSource,
  disabled,
  children,
}: ScheduleSectionProps) {
  return (
    <section
      aria-labelledby="schedule-heading"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="schedule-heading" className="text-base font-semibold text-slate-900">
        Schedule
      </h2>
      <fieldset className="mt-4">
        <legend className="text-sm font-medium text-slate-800">When it goes out</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-3">
          {CREATE_POST_ACTIONS.map((value) => {
            const isChecked = action === value;
            return (
              <label
                key={value}
                className={cn(
                  'flex cursor-pointer flex-col rounded-lg border p-3 text-sm',
                  'has-[input:focus-visible]:outline-2 has-[input:focus-visible]:outline-indigo-600',
                  isChecked
                    ? 'border-indigo-600 bg-indigo-50'
                    : 'border-slate-200 hover:border-slate-400',
                )}
              >
                <span className="flex items-center gap-2 font-medium text-slate-900">
                  <input
                    type="radio"
                    name="post-action"
                    value={value}
                    checked={isChecked}
                    disabled={disabled}
                    onChange={() => onActionChange(value)}
                    aria-labelledby={`post-action-${value}`}
                    aria-describedby={`post-action-${value}-hint`}
                    className="accent-indigo-600"
                  />
                  <span id={`post-action-${value}`}>{ACTION_LABELS[value].label}</span>
                </span>
                <span id={`post-action-${value}-hint`} className="mt-1 text-xs text-slate-600">
                  {ACTION_LABELS[value].hint}
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>
      <TextField
        className="mt-4 max-w-xs"
        type="datetime-local"
        label="Publish Date & Time"
        value={scheduleAt}
        min={nowAsLocal(zone)}
        disabled={disabled}
        onChange={(event) => onScheduleAtChange(event.target.value)}
        error={error}
        hint={action === 'schedule' ? undefined : 'Pick a time to schedule the post instead.'}
      />
      {/* Said apart from the hint, which an error replaces: the zone is always named. */}
      {action === 'schedule' && <TimeZoneNote zone={zone} source={zoneSource} className="mt-2" />}
      {children}
    </section>
  );
}
