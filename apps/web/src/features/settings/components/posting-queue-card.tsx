import { QUEUE_WEEKDAYS, type QueueAccount, type QueueSlot } from '@herald/contract';
import { Copy, Plus, Save, Shuffle, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LoadingIndicator, Spinner } from '@/components/ui/spinner';
import { useCan } from '@/lib/permissions';
import { toast, toastError } from '@/lib/toast';
import { useQueue, useReshuffle, useSaveSlots } from '@/lib/queue';

export const SLOTS_SAVED = 'Posting queue saved. Scheduled posts stay where they are.';
export const RESHUFFLED = (moved: number) =>
  moved === 0
    ? 'Every queued post already sits in a slot: nothing moved.'
    : `${moved} queued post${moved === 1 ? '' : 's'} moved into the new slots.`;

const sortSlots = (slots: QueueSlot[]) =>
  [...slots].sort((a, b) => a.weekday - b.weekday || a.time.localeCompare(b.time));

function accountName(a: QueueAccount) {
  const who = a.name ?? (a.username ? `@${a.username}` : 'Account');
  return `${who} (${a.platformName})`;
}

/** One account's week: times per weekday, added, removed and copied to the weekdays. */
function WeekEditor({
  orgId,
  account,
  canEdit,
}: {
  orgId: string;
  account: QueueAccount;
  canEdit: boolean;
}) {
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
        {queue.data && ` Times are in the organization's time zone (${queue.data.data.timeZone}).`}
      </p>
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
              canEdit={canEdit}
            />
          )}
        </>
      )}
    </section>
  );
}
