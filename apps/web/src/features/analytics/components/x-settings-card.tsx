import { type AnalyticsSettings, X_PRICES } from '@herald/contract';
import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/form-field';
import { cn } from '@/lib/cn';
import { toast, toastError } from '@/lib/toast';
import { useUpdateAnalyticsSettings } from '../api/analytics';

export const X_SETTINGS_SAVED = 'X metrics settings saved.';

/** Dollars with cents, or with as many digits as a price per read needs ($0.005). */
const usd = (value: number) =>
  new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    maximumFractionDigits: value > 0 && value < 0.01 ? 3 : 2,
  }).format(value);

/**
 * X bills every post read, so reading X (metrics and the inbox) is off until someone who manages
 * the organization turns it on, and stops at a monthly budget whose cost is shown beside it.
 */
export function XSettingsCard({
  orgId,
  settings,
  canManage,
}: {
  orgId: string;
  settings: AnalyticsSettings;
  canManage: boolean;
}) {
  const [enabled, setEnabled] = useState(settings.xEnabled);
  const [budget, setBudget] = useState(String(settings.xMonthlyReadBudget));
  useEffect(() => {
    setEnabled(settings.xEnabled);
    setBudget(String(settings.xMonthlyReadBudget));
  }, [settings]);
  const update = useUpdateAnalyticsSettings(orgId);
  const reads = Number(budget);
  const budgetError =
    budget.trim() === '' || !Number.isInteger(reads) || reads < 0 || reads > 1_000_000
      ? 'Enter a whole number of reads from 0 to 1,000,000.'
      : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (budgetError) return;
    update.mutate(
      { xEnabled: enabled, xMonthlyReadBudget: reads },
      {
        onSuccess: () => toast.success(X_SETTINGS_SAVED),
        onError: (error) => toastError(error, 'The X metrics settings could not be saved.'),
      },
    );
  };

  const used = `${settings.xReadsUsed.toLocaleString('en-US')} of ${settings.xMonthlyReadBudget.toLocaleString('en-US')} reads used in ${settings.month} (${usd(settings.xReadsUsed * settings.xCostPerReadUsd)}).`;
  return (
    <section
      aria-labelledby="analytics-x-settings"
      className="flex flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="analytics-x-settings" className="text-lg font-semibold text-slate-900">
        X metrics
      </h2>
      <p className="text-sm text-slate-600">
        {`X charges ${usd(settings.xCostPerReadUsd)} for every post read (${usd(X_PRICES.dmEventReadUsd)} for a direct message, two reads), so Herald reads X metrics and the X inbox (mentions, replies, messages) only when this is on, and stops at the monthly budget.`}
      </p>
      {canManage ? (
        <form onSubmit={submit} className="flex flex-wrap items-end gap-4">
          <label className="flex items-center gap-3 text-sm font-medium text-slate-800">
            <button
              type="button"
              role="switch"
              aria-checked={enabled}
              onClick={() => setEnabled(!enabled)}
              className={cn(
                'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors',
                'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
                enabled ? 'bg-indigo-600' : 'bg-slate-300',
              )}
            >
              <span
                aria-hidden="true"
                className={cn(
                  'inline-block size-5 rounded-full bg-white shadow transition-transform',
                  enabled ? 'translate-x-5.5' : 'translate-x-0.5',
                )}
              />
            </button>
            Read X metrics
          </label>
          <TextField
            label="Monthly budget (reads)"
            type="number"
            inputMode="numeric"
            min={0}
            max={1_000_000}
            value={budget}
            onChange={(e) => setBudget(e.target.value)}
            error={budgetError}
            hint={
              budgetError
                ? undefined
                : `At most ${usd((reads || 0) * settings.xCostPerReadUsd)} a month.`
            }
          />
          <Button type="submit" disabled={update.isPending || Boolean(budgetError)}>
            Save
          </Button>
        </form>
      ) : (
        <p className="text-sm text-slate-800">
          {settings.xEnabled
            ? `On, with a budget of ${settings.xMonthlyReadBudget.toLocaleString('en-US')} reads a month (at most ${usd(settings.xMonthlyReadBudget * settings.xCostPerReadUsd)}).`
            : 'Off. Someone who manages the organization can turn it on.'}
        </p>
      )}
      <p className="text-xs text-slate-500">{used}</p>
    </section>
  );
}
