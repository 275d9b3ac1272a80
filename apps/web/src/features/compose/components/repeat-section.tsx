import type { PostRepeat, RepeatUnit } from '@herald/contract';
import { useEffect, useState } from 'react';
import { SelectField, TextField } from '@/components/ui/form-field';
import { usePostRepeat, useSaveRepeat, useStopRepeat } from '@/lib/evergreen';
import { toastError } from '@/lib/toast';
import { localToIso } from '../utils/schedule';

export interface RepeatChoice {
  on: boolean;
  /** As typed (a cleared field stays empty while retyping). */
  every: string;
  unit: RepeatUnit;
  /** "YYYY-MM-DD": the last day an occurrence may go out (its end, in the zone that applies). */
  untilDay: string;
}

const OFF: RepeatChoice = { on: false, every: '1', unit: 'week', untilDay: '' };

const choiceOf = (repeat: PostRepeat, zone: string): RepeatChoice => ({
  on: true,
  every: String(repeat.every),
  unit: repeat.unit,
  untilDay: new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date(repeat.until)),
});

/**
 * docs/evergreen.md#repeat: "Repeat every N days or weeks until a date" for the composer. The
 * post is saved first; `saveFor` then sets (or, when switched off on an edit, stops) its repeat.
 */
export function useRepeatOption(orgId: string, editPostId: string | null, zone: string) {
  const existing = usePostRepeat(orgId, editPostId);
  const save = useSaveRepeat(orgId);
  const stop = useStopRepeat(orgId);
  const [choice, setChoice] = useState<RepeatChoice>(OFF);
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  useEffect(() => {
    if (existing.data && loadedFor !== existing.data.id) {
      setChoice(choiceOf(existing.data, zone));
      setLoadedFor(existing.data.id);
    }
  }, [existing.data, loadedFor, zone]);

  const every = Number(choice.every);
  const problem = !choice.on
    ? null
    : !Number.isInteger(every) || every < 1 || every > 365
      ? 'Repeat every 1 to 365 days or weeks.'
      : !choice.untilDay
        ? 'Choose the date the repeats end.'
        : null;

  return {
    choice,
    setChoice,
    problem,
    /** After the post is saved: its repeat as chosen. Failures are toasts (the post is saved). */
    saveFor(postId: string) {
      const onError = (error: unknown) =>
        toastError(error, 'The post was saved, but its repeat could not be set.');
      if (choice.on && !problem) {
        const until = localToIso(`${choice.untilDay}T23:59`, zone);
        if (until) save.mutate({ postId, every, unit: choice.unit, until }, { onError });
      } else if (existing.data) {
        stop.mutate(postId, { onError });
      }
    },
  };
}

/** The composer's Repeat option: off, or every N days/weeks until a date. */
export function RepeatSection({
  choice,
  onChange,
  problem,
  disabled,
}: {
  choice: RepeatChoice;
  onChange: (choice: RepeatChoice) => void;
  problem: string | null;
  disabled?: boolean;
}) {
  return (
    <section
      aria-labelledby="repeat-heading"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="repeat-heading" className="text-base font-semibold text-slate-900">
        Repeat
      </h2>
      <label className="mt-3 flex items-center gap-2 text-sm text-slate-800">
        <input
          type="checkbox"
          className="size-4 rounded border-slate-300"
          checked={choice.on}
          disabled={disabled}
          onChange={(e) => onChange({ ...choice, on: e.target.checked })}
        />
        Post this again at a regular interval
      </label>
      {choice.on && (
        <div className="mt-3 grid gap-3 sm:grid-cols-3">
          <TextField
            label="Every"
            type="number"
            min={1}
            max={365}
            value={choice.every}
            disabled={disabled}
            onChange={(e) => onChange({ ...choice, every: e.target.value })}
          />
          <SelectField
            label="Unit"
            value={choice.unit}
            disabled={disabled}
            onChange={(e) => onChange({ ...choice, unit: e.target.value as RepeatUnit })}
          >
            <option value="day">{choice.every === '1' ? 'day' : 'days'}</option>
            <option value="week">{choice.every === '1' ? 'week' : 'weeks'}</option>
          </SelectField>
          <TextField
            label="Until"
            type="date"
            value={choice.untilDay}
            disabled={disabled}
            onChange={(e) => onChange({ ...choice, untilDay: e.target.value })}
          />
          {problem && (
            <p role="alert" className="text-sm text-red-700 sm:col-span-3">
              {problem}
            </p>
          )}
          <p className="text-xs text-slate-500 sm:col-span-3">
            Each time it goes out, the next one is scheduled as a copy of it (edit the next one to
            change what follows). Turn this off to stop.
          </p>
        </div>
      )}
    </section>
  );
}
