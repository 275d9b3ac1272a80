import {
  QUEUE_WEEKDAYS,
  SUGGESTED_QUEUE_WEEK,
  type QueueAccount,
  type QueueData,
  type QueueSlot,
} from '@herald/contract';
import { Copy, CopyPlus, Plus, Save, Shuffle, Sparkles, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Modal } from '@/components/ui/modal';
import { LoadingIndicator, Spinner } from '@/components/ui/spinner';
import { useAuth } from '@/lib/auth';
import { useCan } from '@/lib/permissions';
import { toast, toastError } from '@/lib/toast';
import { useCopySlots, useQueue, useReshuffle, useSaveSlots } from '@/lib/queue';

export const SLOTS_SAVED = 'Posting queue saved. Scheduled posts stay where they are.';
export const COPIED = (count: number) =>
  `Times copied to ${count} account${count === 1 ? '' : 's'}. Their scheduled posts stay where they are.`;

/** What an empty week may start from (nothing is kept until Save slots). */
const suggestedWeek = (): QueueSlot[] => SUGGESTED_QUEUE_WEEK.map((slot) => ({ ...slot }));
export const RESHUFFLED = (moved: number) =>
  moved === 0
    ? 'Every queued post already sits in a slot: nothing moved.'
    : `${moved} queued post${moved === 1 ? '' : 's'} moved into the new slots.`;

const sortSlots = (slots: QueueSlot[]) =>
  [...slots].sort((a, b) => a.weekday - b.weekday || a.time.localeCompare(b.time));

/**
 * The zone the queue's times are in, and why, in words (docs/queue-and-import.md#the-queues-time-zone):
 * the slots are one week for the whole organization, so without an organization time zone they
 * keep the zone they were first saved in, whoever reads them.
 */
function queueZoneSentence(queue: QueueData, userId: string | undefined): string {
  const { timeZone: zone, timeZoneSetBy: setBy } = queue;
  switch (queue.timeZoneSource) {
    case 'organization':
      return `Times are in ${zone} (the organization's time zone).`;
    case 'queue':
      if (setBy && setBy.id === userId)
        return `Times are in ${zone} (your time zone when you first set queue times; the organization has none set).`;
      if (setBy)
        return `Times are in ${zone} (the time zone of ${setBy.name}, who first set queue times; the organization has none set).`;
      return `Times are in ${zone} (the zone the queue times were saved in; the organization has none set).`;
    case 'member':
      return `Times are in ${zone} (your time zone; the organization has none set). Saving times keeps this zone for the whole organization's queue.`;
    case 'default':
      return `Times are in ${zone} (neither the organization nor you have set a time zone).`;
  }
}

function accountName(a: QueueAccount) {
  const who = a.name ?? (a.username ? `@${a.username}` : 'Account');
  return `${who} (${a.platformName})`;
}

/** Chooses the accounts that get this account's saved week, and copies it to them. */
function CopyToAccountsDialog({
  orgId,
  account,
  others,
  open,
  onOpenChange,
}: {
  orgId: string;
  account: QueueAccount;
  others: QueueAccount[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [chosen, setChosen] = useState<string[]>(() => others.map((a) => a.integrationId));
  const copy = useCopySlots(orgId);
  const toggle = (id: string) =>
    setChosen((current) =>
      current.includes(id) ? current.filter((c) => c !== id) : [...current, id],
    );
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Copy times to other accounts"
      description={`The chosen accounts get the saved times of ${accountName(account)} in place of their own. Their scheduled posts stay where they are.`}
      size="sm"
    >
      <fieldset>
        <legend className="sr-only">Accounts</legend>
        <ul className="flex flex-col gap-2">
          {others.map((other) => (
            <li key={other.integrationId}>
              <label className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  checked={chosen.includes(other.integrationId)}
                  onChange={() => toggle(other.integrationId)}
                  className="size-4 rounded border-slate-300"
                />
                {accountName(other)}
                <span className="text-xs text-slate-500">
                  {other.slots.length === 0
                    ? 'no times yet'
                    : `${other.slots.length} time${other.slots.length === 1 ? '' : 's'} now`}
                </span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <div className="mt-5 flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button
          type="button"
          disabled={chosen.length === 0 || copy.isPending}
          onClick={() =>
            copy.mutate(
              { from: account.integrationId, to: chosen },
              {
                onSuccess: (res) => {
                  toast.success(COPIED(res.data.accounts.length));
                  onOpenChange(false);
                },
                onError: (error) => toastError(error, 'Failed to copy the times.'),
              },
            )
          }
        >
          {copy.isPending && <Spinner className="size-4 text-white" />}
          Copy times
        </Button>
      </div>
    </Modal>
  );
}

/** One account's week: times per weekday, added, removed and copied to the weekdays. */
function WeekEditor({
  orgId,
  account,
  others,
  canEdit,
}: {
  orgId: string;
  account: QueueAccount;
  /** The organization's other accounts, which may get this week. */
  others: QueueAccount[];
  canEdit: boolean;
}) {
  const [copying, setCopying] = useState(false);
  const [slots, setSlots] = useState(() => sortSlots(account.slots));
  const [adding, setAdding] = useState<Record<number, string>>({});
  const [confirming, setConfirming] = useState(false);
  const save = useSaveSlots(orgId);
  const reshuffle = useReshuffle(orgId);
  const id = useId();
  const dirty = JSON.stringify(slots) !== JSON.stringify(sortSlots(account.slots));

  const add = (weekday: number) => {
    const time = adding[weekday];
    if (!time) return;
    if (!slots.some((s) => s.weekday === weekday && s.time === time)) {
      setSlots(sortSlots([...slots, { weekday, time }]));
    }
    setAdding({ ...adding, [weekday]: '' });
  };
  const remove = (slot: QueueSlot) =>
    setSlots(slots.filter((s) => !(s.weekday === slot.weekday && s.time === slot.time)));
  const copyToWeekdays = (weekday: number) => {
    const times = slots.filter((s) => s.weekday === weekday).map((s) => s.time);
    const others = slots.filter((s) => s.weekday > 4 || s.weekday === weekday);
    const copies = [0, 1, 2, 3, 4]
      .filter((d) => d !== weekday)
      .flatMap((d) => times.map((time) => ({ weekday: d, time })));
    setSlots(sortSlots([...others, ...copies]));
  };

  return (
    <div className="mt-4">
      {canEdit && slots.length === 0 && (
        <div className="mb-3 flex flex-wrap items-center gap-3 rounded-xl bg-indigo-50 p-3 text-sm text-indigo-900">
          <span className="min-w-0 flex-1">
            This account has no times yet, so Add to queue cannot use it.
          </span>
          <Button
            type="button"
            variant="secondary"
            size="sm"
            onClick={() => setSlots(suggestedWeek())}
          >
            <Sparkles className="size-4" aria-hidden="true" />
            Start with suggested times
          </Button>
        </div>
      )}
      <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200">
        {QUEUE_WEEKDAYS.map((day, weekday) => {
          const times = slots.filter((s) => s.weekday === weekday);
          return (
            <li key={day} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center">
              <span className="w-24 shrink-0 text-sm font-medium text-slate-900">{day}</span>
              <div className="flex min-w-0 flex-1 flex-wrap items-center gap-2">
                {times.length === 0 && <span className="text-sm text-slate-500">No slots</span>}
                {times.map((slot) => (
                  <span
                    key={slot.time}
                    className="inline-flex items-center gap-1 rounded-full bg-indigo-50 px-2.5 py-1 text-sm text-indigo-800"
                  >
                    {slot.time}
                    {canEdit && (
                      <button
                        type="button"
                        aria-label={`Remove ${day} ${slot.time}`}
                        onClick={() => remove(slot)}
                        className="rounded-full p-0.5 hover:bg-indigo-100"
                      >
                        <X className="size-3.5" aria-hidden="true" />
                      </button>
                    )}
                  </span>
                ))}
              </div>
              {canEdit && (
                <div className="flex flex-wrap items-center gap-2">
                  <label className="sr-only" htmlFor={`${id}-${weekday}`}>
                    {`New time on ${day}`}
                  </label>
                  <input
                    id={`${id}-${weekday}`}
                    type="time"
                    value={adding[weekday] ?? ''}
                    onChange={(e) => setAdding({ ...adding, [weekday]: e.target.value })}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter') {
                        e.preventDefault();
                        add(weekday);
                      }
                    }}
                    className="rounded-lg border border-slate-300 px-2 py-1 text-sm"
                  />
                  <Button
                    type="button"
                    variant="secondary"
                    size="sm"
                    onClick={() => add(weekday)}
                    disabled={!adding[weekday]}
                    aria-label={`Add the time on ${day}`}
                  >
                    <Plus className="size-4" aria-hidden="true" />
                    Add
                  </Button>
                  {weekday < 5 && times.length > 0 && (
                    <Button
                      type="button"
                      variant="ghost"
                      size="sm"
                      onClick={() => copyToWeekdays(weekday)}
                      aria-label={`Copy ${day}'s times to every weekday`}
                    >
                      <Copy className="size-4" aria-hidden="true" />
                      Copy to weekdays
                    </Button>
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ul>
      <p className="mt-2 text-sm text-slate-600">
        {account.queuedCount === 0
          ? 'No post waits in this queue.'
          : `${account.queuedCount} queued post${account.queuedCount === 1 ? '' : 's'} wait in this queue.`}{' '}
        Changing the slots does not move scheduled posts; Re-shuffle queue places the queued posts
        into the saved slots, in order.
      </p>
      {canEdit && (
        <div className="mt-3 flex flex-wrap justify-end gap-2">
          {others.length > 0 && (
            <Button
              type="button"
              variant="secondary"
              // The saved week is what is copied: unsaved changes are saved first.
              disabled={dirty || account.slots.length === 0}
              title={dirty ? 'Save the slots first' : undefined}
              onClick={() => setCopying(true)}
            >
              <CopyPlus className="size-4" aria-hidden="true" />
              Copy to other accounts
            </Button>
          )}
          <Button
            type="button"
            variant="secondary"
            disabled={reshuffle.isPending || dirty || account.queuedCount === 0}
            onClick={() => setConfirming(true)}
          >
            <Shuffle className="size-4" aria-hidden="true" />
            Re-shuffle queue
          </Button>
          <Button
            type="button"
            disabled={!dirty || save.isPending}
            onClick={() =>
              save.mutate(
                { integrationId: account.integrationId, slots },
                {
                  onSuccess: () => toast.success(SLOTS_SAVED),
                  onError: (error) => toastError(error, 'Failed to save the posting queue.'),
                },
              )
            }
          >
            {save.isPending ? (
              <Spinner className="size-4 text-white" />
            ) : (
              <Save className="size-4" aria-hidden="true" />
            )}
            Save slots
          </Button>
        </div>
      )}
      {copying && (
        <CopyToAccountsDialog
          orgId={orgId}
          account={account}
          others={others}
          open={copying}
          onOpenChange={setCopying}
        />
      )}
      <ConfirmDialog
        open={confirming}
        title="Re-shuffle this queue?"
        message={`The ${account.queuedCount} queued post${account.queuedCount === 1 ? '' : 's'} of ${accountName(account)} move into the saved slots, in their order. Posts you moved by hand stay.`}
        confirmLabel="Re-shuffle"
        confirmVariant="primary"
        onOpenChange={setConfirming}
        onConfirm={() => {
          setConfirming(false);
          reshuffle.mutate(account.integrationId, {
            onSuccess: (res) => toast.success(RESHUFFLED(res.data.moved)),
            onError: (error) => toastError(error, 'Failed to re-shuffle the queue.'),
          });
        }}
      />
    </div>
  );
}

/** Settings › Posting queue: each connected account's weekly time slots. */
export function PostingQueueCard({ orgId }: { orgId: string }) {
  const queue = useQueue(orgId);
  const { user } = useAuth();
  const canEdit = useCan('PUT /organizations/:orgId/queue/:integrationId');
  const [chosen, setChosen] = useState<string | null>(null);
  const selectId = useId();
  const accounts = queue.data?.data.accounts ?? [];
  const account = accounts.find((a) => a.integrationId === chosen) ?? accounts[0];

  return (
    <section
      aria-labelledby="posting-queue-heading"
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="posting-queue-heading" className="text-lg font-semibold text-slate-900">
        Posting queue
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Weekly time slots per account. Add to queue in the composer schedules a post at the next
        free slot.
      </p>
      {queue.data && (
        <p className="mt-1 text-sm font-medium text-slate-800">
          {queueZoneSentence(queue.data.data, user?.id)}
          {queue.data.data.timeZoneSource !== 'organization' &&
            ' To use another zone, set the organization’s time zone.'}
        </p>
      )}
      {queue.isError ? (
        <p role="alert" className="mt-4 text-sm text-red-700">
          Could not load the posting queue.
        </p>
      ) : !queue.data ? (
        <LoadingIndicator label="Loading the posting queue" className="py-6" />
      ) : accounts.length === 0 ? (
        <p className="mt-4 text-sm text-slate-600">Connect an account to give it a queue.</p>
      ) : (
        <>
          <div className="mt-4 flex flex-col gap-1 sm:max-w-sm">
            <label htmlFor={selectId} className="text-sm font-medium text-slate-900">
              Account
            </label>
            <select
              id={selectId}
              value={account?.integrationId}
              onChange={(e) => setChosen(e.target.value)}
              className="rounded-lg border border-slate-300 px-3 py-2 text-sm"
            >
              {accounts.map((a) => (
                <option key={a.integrationId} value={a.integrationId}>
                  {accountName(a)}
                </option>
              ))}
            </select>
          </div>
          {account && (
            <WeekEditor
              key={`${account.integrationId}:${JSON.stringify(account.slots)}`}
              orgId={orgId}
              account={account}
              others={accounts.filter((a) => a.integrationId !== account.integrationId)}
              canEdit={canEdit}
            />
          )}
        </>
      )}
    </section>
  );
}
