import type { EvergreenCollection } from '@herald/contract';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/form-field';
import { NetworkMark } from '@/components/ui/network-mark';
import { LoadingIndicator, Spinner } from '@/components/ui/spinner';
import { useIntegrations } from '@/lib/integrations';

export type EndKind = 'never' | 'cycles' | 'date';

export interface CollectionValues {
  name: string;
  integrationIds: string[];
  minDaysBetween: number;
  endAfterCycles: number | null;
  endAt: string | null;
}

/** "YYYY-MM-DD" of an ISO time, for the date input. */
const dayOf = (iso: string | null) => (iso ? iso.slice(0, 10) : '');

/**
 * The fields of a collection: its name, accounts, the minimum days between two copies of one
 * post, and its end (never, after each post went out N times, or on a date).
 */
export function CollectionForm({
  orgId,
  initial,
  submitLabel,
  isPending,
  error,
  onSubmit,
  onCancel,
}: {
  orgId: string;
  initial?: EvergreenCollection;
  submitLabel: string;
  isPending: boolean;
  error: string | null;
  onSubmit: (values: CollectionValues) => void;
  onCancel: () => void;
}) {
  const integrations = useIntegrations(orgId);
  const [name, setName] = useState(initial?.name ?? '');
  const [accounts, setAccounts] = useState<Set<string>>(new Set(initial?.integrationIds ?? []));
  // Kept as typed (a cleared field stays empty while retyping); read as numbers on submit.
  const [minDays, setMinDays] = useState(String(initial?.minDaysBetween ?? 30));
  const [endKind, setEndKind] = useState<EndKind>(
    initial?.endAfterCycles ? 'cycles' : initial?.endAt ? 'date' : 'never',
  );
  const [cycles, setCycles] = useState(String(initial?.endAfterCycles ?? 3));
  const [endDay, setEndDay] = useState(dayOf(initial?.endAt ?? null));
  const [problem, setProblem] = useState<string | null>(null);
  const connected = (integrations.data ?? []).filter((i) => i.status === 'CONNECTED');

  const toggle = (id: string) =>
    setAccounts((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setProblem('Give the collection a name.');
    if (accounts.size === 0) return setProblem('Choose at least one account to post to.');
    const days = Number(minDays);
    if (!Number.isInteger(days) || days < 1 || days > 365)
      return setProblem('Days between repeats is a whole number from 1 to 365.');
    const times = Number(cycles);
    if (endKind === 'cycles' && (!Number.isInteger(times) || times < 1 || times > 1000))
      return setProblem('Times per post is a whole number from 1 to 1,000.');
    if (endKind === 'date' && !endDay) return setProblem('Choose the end date.');
    setProblem(null);
    onSubmit({
      name: name.trim(),
      integrationIds: [...accounts],
      minDaysBetween: days,
      endAfterCycles: endKind === 'cycles' ? times : null,
      // The end of the chosen day, in the reader's zone.
      endAt: endKind === 'date' ? new Date(`${endDay}T23:59:59`).toISOString() : null,
    });
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3" aria-label={submitLabel}>
      <TextField
        label="Name"
        value={name}
        placeholder="Best of the blog"
        onChange={(e) => setName(e.target.value)}
        error={problem ?? error}
      />
      <fieldset>
        <legend className="text-sm font-medium text-slate-900">Post to</legend>
        {integrations.isPending ? (
          <LoadingIndicator label="Loading the accounts" className="py-2" />
        ) : connected.length === 0 ? (
          <p className="text-sm text-slate-600">Connect an account first (Settings).</p>
        ) : (
          <div className="mt-1 grid gap-1 sm:grid-cols-2">
            {connected.map((account) => (
              <label key={account.id} className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  className="size-4 rounded border-slate-300"
                  checked={accounts.has(account.id)}
                  onChange={() => toggle(account.id)}
                />
                <NetworkMark name={account.platform.name} size="sm" />
                <span className="truncate">
                  {account.metadata.name ?? account.metadata.username ?? account.platform.name}
                </span>
              </label>
            ))}
          </div>
        )}
        <p className="mt-1 text-xs text-slate-500">
          Copies go in the empty slots these accounts share in their posting queue.
        </p>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-3">
        <TextField
          label="Days between repeats of a post"
          type="number"
          min={1}
          max={365}
          value={minDays}
          onChange={(e) => setMinDays(e.target.value)}
        />
        <SelectField
          label="Ends"
          value={endKind}
          onChange={(e) => setEndKind(e.target.value as EndKind)}
        >
          <option value="never">Never</option>
          <option value="cycles">After each post went out…</option>
          <option value="date">On a date</option>
        </SelectField>
        {endKind === 'cycles' && (
          <TextField
            label="Times per post"
            type="number"
            min={1}
            max={1000}
            value={cycles}
            onChange={(e) => setCycles(e.target.value)}
          />
        )}
        {endKind === 'date' && (
          <TextField
            label="End date"
            type="date"
            value={endDay}
            onChange={(e) => setEndDay(e.target.value)}
          />
        )}
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onCancel} disabled={isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={isPending}>
          {isPending && <Spinner className="size-4 text-white" />}
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
