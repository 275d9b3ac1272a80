import {
  INBOX_DEFAULT_LABELS,
  INBOX_LABEL_COLORS,
  INBOX_LABEL_MAX,
  type InboxLabelColor,
  type InboxOwnLabel,
} from '@herald/contract';
import { Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Modal } from '@/components/ui/modal';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { useLabelMutations } from '../api/inbox';
import { labelText } from './format';

/** The dot of each colour an organization's label may have. */
export const LABEL_DOT: Record<InboxLabelColor, string> = {
  slate: 'bg-slate-500',
  red: 'bg-red-600',
  amber: 'bg-amber-500',
  green: 'bg-green-600',
  teal: 'bg-teal-600',
  blue: 'bg-blue-600',
  violet: 'bg-violet-600',
  pink: 'bg-pink-600',
};
const colourText = (c: InboxLabelColor) => c.charAt(0).toUpperCase() + c.slice(1);
const input =
  'min-w-0 rounded-lg border border-slate-300 bg-white px-2.5 py-1.5 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600';

function ColourSelect({
  value,
  onChange,
  label,
  disabled,
}: {
  value: InboxLabelColor | null;
  onChange: (color: InboxLabelColor | null) => void;
  label: string;
  disabled?: boolean;
}) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <span
        aria-hidden="true"
        className={cn(
          'size-3 shrink-0 rounded-full',
          value ? LABEL_DOT[value] : 'border border-slate-400',
        )}
      />
      <select
        aria-label={label}
        value={value ?? ''}
        disabled={disabled}
        onChange={(e) => onChange((e.target.value || null) as InboxLabelColor | null)}
        className={cn(input, 'py-1.5 pr-7')}
      >
        <option value="">No colour</option>
        {INBOX_LABEL_COLORS.map((c) => (
          <option key={c} value={c}>
            {colourText(c)}
          </option>
        ))}
      </select>
    </span>
  );
}

function OwnLabelRow({ orgId, label }: { orgId: string; label: InboxOwnLabel }) {
  const { update, remove } = useLabelMutations(orgId);
  const [name, setName] = useState(labelText(label.name));
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const renamed = name.trim().toLowerCase() !== label.name;
  const busy = update.isPending || remove.isPending;
  const change = (body: { name?: string; color?: InboxLabelColor | null }) => {
    setError(null);
    update.mutate(
      { name: label.name, change: body },
      { onError: (e) => setError(errorMessage(e, 'The label could not be changed.')) },
    );
  };
  const rename = (event: FormEvent) => {
    event.preventDefault();
    if (renamed) change({ name: name.trim() });
  };
  return (
    <li className="flex flex-col gap-1 border-b border-slate-100 py-2 last:border-0">
      <form onSubmit={rename} className="flex flex-wrap items-center gap-2">
        <ColourSelect
          value={label.color}
          onChange={(color) => change({ color })}
          label={`Colour of ${labelText(label.name)}`}
          disabled={busy}
        />
        <input
          aria-label={`Name of ${labelText(label.name)}`}
          value={name}
          maxLength={INBOX_LABEL_MAX}
          onChange={(e) => setName(e.target.value)}
          className={cn(input, 'flex-1 basis-32')}
        />
        {renamed && (
          <Button type="submit" size="sm" disabled={busy || !name.trim()}>
            Rename
          </Button>
        )}
        <button
          type="button"
          onClick={() => setConfirming(true)}
          disabled={busy}
          aria-label={`Delete ${labelText(label.name)}`}
          className="rounded-lg p-1.5 text-slate-500 hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-50"
        >
          <Trash2 className="size-4" aria-hidden="true" />
        </button>
      </form>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Delete the label “${labelText(label.name)}”?`}
        message="It is taken off every conversation that has it."
        confirmLabel="Delete label"
        isPending={remove.isPending}
        onConfirm={() =>
          remove.mutate(label.name, {
            onSuccess: () => setConfirming(false),
            onError: (e) => {
              setConfirming(false);
              setError(errorMessage(e, 'The label could not be deleted.'));
            },
          })
        }
      />
    </li>
  );
}

/**
 * The organization's labels (dm:send): the seven defaults (`INBOX_DEFAULT_LABELS`) stay as they
 * are; its own can be added with a colour, renamed (every conversation keeps them), recoloured and
 * deleted.
 */
export function LabelManager({
  orgId,
  ownLabels,
  open,
  onOpenChange,
}: {
  orgId: string;
  ownLabels: InboxOwnLabel[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { create } = useLabelMutations(orgId);
  const [name, setName] = useState('');
  const [color, setColor] = useState<InboxLabelColor | null>(null);
  const [error, setError] = useState<string | null>(null);
  const add = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!name.trim()) return setError('Name the label.');
    create.mutate(
      { name: name.trim(), color },
      {
        onSuccess: () => {
          setName('');
          setColor(null);
        },
        onError: (e) => setError(errorMessage(e, 'The label could not be added.')),
      },
    );
  };
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Manage labels"
      description="Labels sort conversations for the whole team. The seven below every organization keeps; your own can be renamed, recoloured or deleted."
    >
      <div className="flex flex-col gap-5">
        <section aria-labelledby="labels-default">
          <h3 id="labels-default" className="text-sm font-semibold text-slate-900">
            Every organization has
          </h3>
          <ul className="mt-2 flex flex-wrap gap-1.5">
            {INBOX_DEFAULT_LABELS.map((label) => (
              <li
                key={label}
                className="rounded-full border border-slate-300 bg-slate-50 px-2 py-0.5 text-xs text-slate-700"
              >
                {labelText(label)}
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="labels-own">
          <h3 id="labels-own" className="text-sm font-semibold text-slate-900">
            Your labels
          </h3>
          {ownLabels.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">No labels of your own yet.</p>
          ) : (
            <ul className="mt-1">
              {ownLabels.map((label) => (
                <OwnLabelRow key={label.name} orgId={orgId} label={label} />
              ))}
            </ul>
          )}
        </section>
        <form onSubmit={add} className="flex flex-col gap-2 border-t border-slate-200 pt-4">
          <label htmlFor="new-label" className="text-sm font-semibold text-slate-900">
            New label
          </label>
          <div className="flex flex-wrap items-center gap-2">
            <input
              id="new-label"
              value={name}
              maxLength={INBOX_LABEL_MAX}
              onChange={(e) => setName(e.target.value)}
              placeholder="e.g. Wholesale"
              className={cn(input, 'flex-1 basis-40')}
            />
            <ColourSelect value={color} onChange={setColor} label="Colour of the new label" />
            <Button type="submit" size="sm" disabled={create.isPending}>
              Add label
            </Button>
          </div>
          {error && (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          )}
        </form>
      </div>
    </Modal>
  );
}
