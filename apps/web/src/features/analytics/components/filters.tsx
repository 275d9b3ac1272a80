import type { Integration } from '@herald/contract';
import { SelectField, TextField } from '@/components/ui/form-field';
import { cn } from '@/lib/cn';

export const PRESETS = ['7', '30', '90', 'custom'] as const;
export type Preset = (typeof PRESETS)[number];

export interface FilterState {
  preset: Preset;
  from: string;
  to: string;
  platformId: string;
  integrationId: string;
}

const presetLabel = (p: Preset) => (p === 'custom' ? 'Custom' : `${p} days`);

/** Range presets, custom days, and the network and account filters. */
export function Filters({
  state,
  onChange,
  integrations,
  rangeError,
}: {
  state: FilterState;
  onChange: (next: Partial<FilterState>) => void;
  integrations: Integration[];
  rangeError: string | null;
}) {
  const networks = [
    ...new Map(integrations.map((i) => [i.platform.id, i.platform.name])).entries(),
  ].sort((a, b) => a[1].localeCompare(b[1]));
  const accounts = integrations.filter(
    (i) => !state.platformId || i.platform.id === state.platformId,
  );
  return (
    <section
      aria-label="Filters"
      className="flex flex-wrap items-end gap-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <div role="group" aria-label="Range" className="flex gap-1 rounded-lg bg-slate-100 p-1">
        {PRESETS.map((p) => (
          <button
            key={p}
            type="button"
            aria-pressed={state.preset === p}
            onClick={() => onChange({ preset: p })}
            className={cn(
              'rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600',
              state.preset === p
                ? 'bg-white text-slate-900 shadow-sm'
                : 'text-slate-600 hover:text-slate-900',
            )}
          >
            {presetLabel(p)}
          </button>
        ))}
      </div>
      {state.preset === 'custom' && (
        <>
          <TextField
            label="From"
            type="date"
            value={state.from}
            max={state.to}
            onChange={(e) => onChange({ from: e.target.value })}
            error={rangeError}
          />
          <TextField
            label="To"
            type="date"
            value={state.to}
            min={state.from}
            onChange={(e) => onChange({ to: e.target.value })}
          />
        </>
      )}
      <SelectField
        label="Network"
        value={state.platformId}
        onChange={(e) => onChange({ platformId: e.target.value, integrationId: '' })}
      >
        <option value="">All networks</option>
        {networks.map(([id, name]) => (
          <option key={id} value={id}>
            {name}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Account"
        value={state.integrationId}
        onChange={(e) => onChange({ integrationId: e.target.value })}
      >
        <option value="">All accounts</option>
        {accounts.map((i) => (
          <option key={i.id} value={i.id}>
            {`${i.metadata.name ?? i.metadata.username ?? 'Account'} (${i.platform.name})`}
          </option>
        ))}
      </SelectField>
    </section>
  );
}
