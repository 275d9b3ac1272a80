import {
  REPORT_DEFAULT_SEND_HOUR,
  REPORT_RECIPIENTS_MAX,
  type Integration,
  type ReportCadence,
  type ReportSchedule,
} from '@herald/contract';
import { AlertTriangle, Mail, Pencil, Plus, Send, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { SelectField, TextField } from '@/components/ui/form-field';
import { Modal, ModalActions } from '@/components/ui/modal';
import { LoadingIndicator, Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { useIntegrations } from '@/lib/integrations';
import { toast, toastError } from '@/lib/toast';
import {
  useDeleteReportSchedule,
  useReportSchedules,
  useSaveReportSchedule,
  useSendReportNow,
} from '../api/report-schedules';

export const SCHEDULE_SAVED = 'Report email saved.';
export const SCHEDULE_DELETED = 'Report email deleted.';

const CADENCES: Record<ReportCadence, { label: string; covers: string; when: string }> = {
  weekly: {
    label: 'Weekly',
    covers: 'the previous Monday–Sunday',
    when: 'every Monday',
  },
  monthly: {
    label: 'Monthly',
    covers: 'the previous calendar month',
    when: 'on the 1st of each month',
  },
};

const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The addresses typed, one per line or separated by commas or semicolons. */
export const parseRecipients = (text: string) =>
  [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((part) => part.trim().toLowerCase())
        .filter(Boolean),
    ),
  ] as string[];

/** Why the typed recipients cannot be saved, in the server's words; null when they can. */
export function recipientsProblem(list: string[]): string | null {
  if (list.length === 0) return 'Add at least one address to send the report to.';
  const bad = list.find((address) => !EMAIL.test(address));
  if (bad) return `“${bad}” is not an email address: write it like name@example.com.`;
  if (list.length > REPORT_RECIPIENTS_MAX)
    return `A report goes to at most ${REPORT_RECIPIENTS_MAX} addresses: send another report for more.`;
  return null;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A period of days as people write it: "23–29 Nov 2026", "30 Nov – 6 Dec 2026". */
export function formatPeriod({ from, to }: { from: string; to: string }): string {
  const [fy, fm, fd] = from.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = to.split('-').map(Number) as [number, number, number];
  const end = `${td} ${MONTHS[tm - 1]} ${ty}`;
  if (fy !== ty) return `${fd} ${MONTHS[fm - 1]} ${fy} – ${end}`;
  if (fm !== tm) return `${fd} ${MONTHS[fm - 1]} – ${end}`;
  return `${fd}–${end}`;
}

/** An instant in the organization's zone: "7 Dec at 08:00". */
function formatInstant(iso: string, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: zone,
  }).formatToParts(new Date(iso));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('day')} ${part('month')} at ${part('hour')}:${part('minute')}`;
}

const accountName = (i: Integration) =>
  `${i.metadata.name ?? i.metadata.username ?? 'Account'} (${i.platform.name})`;

interface FormState {
  name: string;
  cadence: ReportCadence;
  sendHour: number;
  recipients: string;
  integrationIds: string[];
}

function ScheduleForm({
  orgId,
  schedule,
  integrations,
  timeZone,
  onDone,
}: {
  orgId: string;
  schedule: ReportSchedule | null;
  integrations: Integration[];
  timeZone: string;
  onDone: () => void;
}) {
  const save = useSaveReportSchedule(orgId);
  const accountsId = useId();
  const recipientsId = useId();
  const [form, setForm] = useState<FormState>({
    name: schedule?.name ?? '',
    cadence: schedule?.cadence ?? 'weekly',
    sendHour: schedule?.sendHour ?? REPORT_DEFAULT_SEND_HOUR,
    recipients: schedule?.recipients.join('\n') ?? '',
    integrationIds: schedule?.integrationIds ?? [],
  });
  const [errors, setErrors] = useState<{ name?: string; recipients?: string; form?: string }>({});
  const set = (changes: Partial<FormState>) => setForm((f) => ({ ...f, ...changes }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const recipients = parseRecipients(form.recipients);
    const next = {
      name: form.name.trim() ? undefined : 'Name the report, for example "Weekly report for Acme".',
      recipients: recipientsProblem(recipients) ?? undefined,
    };
    setErrors(next);
    if (next.name || next.recipients) return;
    const body = {
      name: form.name.trim(),
      cadence: form.cadence,
      sendHour: form.sendHour,
      recipients,
      integrationIds: form.integrationIds,
    };
    save.mutate(schedule ? { id: schedule.id, body } : { id: null, body }, {
      onSuccess: () => {
        toast.success(SCHEDULE_SAVED);
        onDone();
      },
      onError: (err) =>
        setErrors({ form: errorMessage(err, 'The report email could not be saved. Try again.') }),
    });
  };

  const toggle = (id: string) =>
    set({
      integrationIds: form.integrationIds.includes(id)
        ? form.integrationIds.filter((x) => x !== id)
        : [...form.integrationIds, id],
    });

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <TextField
        label="Name"
        value={form.name}
        maxLength={100}
        placeholder="Weekly report for Acme"
        onChange={(event) => set({ name: event.target.value })}
        error={errors.name}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="How often"
          value={form.cadence}
          onChange={(event) => set({ cadence: event.target.value as ReportCadence })}
          hint={`Covers ${CADENCES[form.cadence].covers}.`}
        >
          <option value="weekly">Weekly</option>
          <option value="monthly">Monthly</option>
        </SelectField>
        <SelectField
          label="Sent at"
          value={form.sendHour}
          onChange={(event) => set({ sendHour: Number(event.target.value) })}
          hint={`${CADENCES[form.cadence].when}, ${timeZone} time.`}
        >
          {Array.from({ length: 24 }, (_, hour) => (
            <option key={hour} value={hour}>
              {hourLabel(hour)}
            </option>
          ))}
        </SelectField>
      </div>
      <div>
        <label htmlFor={recipientsId} className="block text-sm font-medium text-slate-800">
          Send to
        </label>
        <textarea
          id={recipientsId}
          rows={3}
          value={form.recipients}
          placeholder={'client@example.com\nmanager@example.com'}
          onChange={(event) => set({ recipients: event.target.value })}
          aria-invalid={errors.recipients ? true : undefined}
          aria-describedby={`${recipientsId}-note`}
          className={`mt-1 block w-full rounded-lg border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-indigo-500 focus:outline-2 focus:outline-indigo-200 ${errors.recipients ? 'border-red-400' : 'border-slate-300'}`}
        />
        <p
          id={`${recipientsId}-note`}
          className={
            errors.recipients ? 'mt-1 text-sm text-red-700' : 'mt-1 text-xs text-slate-600'
          }
        >
          {errors.recipients ??
            `One address per line, or separated by commas; up to ${REPORT_RECIPIENTS_MAX}.`}
        </p>
      </div>
      <fieldset aria-describedby={accountsId}>
        <legend className="text-sm font-medium text-slate-800">Accounts</legend>
        <p id={accountsId} className="mt-1 text-xs text-slate-600">
          {form.integrationIds.length === 0
            ? 'None ticked: every account, those connected later too.'
            : 'Only the ticked accounts.'}
        </p>
        <ul className="mt-2 grid max-h-48 gap-2 overflow-y-auto sm:grid-cols-2">
          {integrations.map((integration) => (
            <li key={integration.id}>
              <label className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg border border-slate-200 px-3 py-2 text-sm text-slate-800 hover:bg-slate-50">
                <input
                  type="checkbox"
                  className="size-4 accent-indigo-600"
                  checked={form.integrationIds.includes(integration.id)}
                  onChange={() => toggle(integration.id)}
                />
                <span className="min-w-0 truncate">{accountName(integration)}</span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      {errors.form && (
        <p role="alert" className="text-sm text-red-700">
          {errors.form}
        </p>
      )}
      <ModalActions>
        <Button type="button" variant="secondary" onClick={onDone} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending && <Spinner className="size-4 text-white" />}
          {schedule ? 'Save changes' : 'Create report email'}
        </Button>
      </ModalActions>
    </form>
  );
}

function ScheduleItem({
  orgId,
  schedule,
  integrations,
  timeZone,
  emailAvailable,
  onEdit,
  onDelete,
}: {
  orgId: string;
  schedule: ReportSchedule;
  integrations: Integration[];
  timeZone: string;
  emailAvailable: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const sendNow = useSendReportNow(orgId);
  const cadence = CADENCES[schedule.cadence];
  const accounts =
    schedule.integrationIds.length === 0
      ? 'All accounts'
      : integrations
          .filter((i) => schedule.integrationIds.includes(i.id))
          .map(accountName)
          .join(', ') || 'Accounts removed since: edit it to choose others';
  const last = schedule.lastDelivery;
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-slate-200 p-4 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0 space-y-1 text-sm">
        <p className="font-semibold text-slate-900">{schedule.name}</p>
        <p className="text-slate-700">
          {`${cadence.label}, ${cadence.when} at ${hourLabel(schedule.sendHour)} (${timeZone}): ${cadence.covers}.`}
        </p>
        <p className="break-words text-slate-700">
          <span className="text-slate-500">To </span>
          {schedule.recipients.join(', ')}
        </p>
        <p className="text-slate-700">
          <span className="text-slate-500">Covers </span>
          {accounts}
        </p>
        <p className="text-slate-600">
          {`Next: the ${formatPeriod(schedule.nextPeriod)} report, on ${formatInstant(schedule.nextSendAt, timeZone)}.`}
        </p>
        {last && (
          <p className={last.status === 'failed' ? 'font-medium text-red-700' : 'text-slate-600'}>
            {last.status === 'sent'
              ? `Last sent on ${formatInstant(last.at, timeZone)}: the ${formatPeriod(last)} report.`
              : last.status === 'sending'
                ? `Sending the ${formatPeriod(last)} report…`
                : `The ${formatPeriod(last)} report could not be sent: ${last.error ?? 'the mail server refused it'}`}
          </p>
        )}
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        <Button
          variant="secondary"
          size="sm"
          disabled={!emailAvailable || sendNow.isPending}
          onClick={() =>
            sendNow.mutate(schedule.id, {
              onSuccess: (result) => toast.success(result.message),
              onError: (err) => toastError(err, 'The report could not be sent. Try again.'),
            })
          }
        >
          {sendNow.isPending ? (
            <Spinner className="size-4" />
          ) : (
            <Send className="size-4" aria-hidden="true" />
          )}
          Send now
        </Button>
        <Button variant="ghost" size="sm" onClick={onEdit} aria-label={`Edit ${schedule.name}`}>
          <Pencil className="size-4" aria-hidden="true" />
          {/* On a phone the three buttons share a line: these two keep their icons. */}
          <span className="sr-only sm:not-sr-only">Edit</span>
        </Button>
        <Button variant="ghost" size="sm" onClick={onDelete} aria-label={`Delete ${schedule.name}`}>
          <Trash2 className="size-4" aria-hidden="true" />
          <span className="sr-only sm:not-sr-only">Delete</span>
        </Button>
      </div>
    </li>
  );
}

/**
 * docs/reports.md#report-emails (org:manage): the branded PDF report, emailed every week or
 * month to the client's addresses; "Send now" to check one.
 */
export function ReportSchedulesCard({ orgId }: { orgId: string }) {
  const headingId = useId();
  const schedules = useReportSchedules(orgId);
  const integrations = useIntegrations(orgId);
  const remove = useDeleteReportSchedule(orgId);
  const [editing, setEditing] = useState<ReportSchedule | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ReportSchedule | null>(null);
  const data = schedules.data;
  const accounts = integrations.data ?? [];

  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={headingId} className="text-lg font-semibold text-slate-900">
            Report emails
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Send clients the analytics as a PDF in your branding, every week or month.
          </p>
        </div>
        {data && (
          <Button size="sm" onClick={() => setEditing('new')}>
            <Plus className="size-4" aria-hidden="true" />
            New report email
          </Button>
        )}
      </div>
      {!data ? (
        schedules.isError ? (
          <p role="alert" className="mt-4 text-sm text-red-700">
            {errorMessage(schedules.error, 'Could not load the report emails.')}
          </p>
        ) : (
          <LoadingIndicator label="Loading the report emails" className="py-6" />
        )
      ) : (
        <div className="mt-4 flex flex-col gap-4">
          {!data.email.available && (
            <div
              role="status"
              className="flex items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
            >
              <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              <p>
                <strong>Report emails cannot be sent. </strong>
                {data.email.reason}
              </p>
            </div>
          )}
          {data.schedules.length === 0 ? (
            <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
              <Mail className="size-6 text-slate-400" aria-hidden="true" />
              <p>No report email yet. Create one to send a client their report automatically.</p>
            </div>
          ) : (
            <ul className="flex flex-col gap-3">
              {data.schedules.map((schedule) => (
                <ScheduleItem
                  key={schedule.id}
                  orgId={orgId}
                  schedule={schedule}
                  integrations={accounts}
                  timeZone={data.timeZone}
                  emailAvailable={data.email.available}
                  onEdit={() => setEditing(schedule)}
                  onDelete={() => setDeleting(schedule)}
                />
              ))}
            </ul>
          )}
        </div>
      )}
      {data && editing !== null && (
        <Modal
          open
          onOpenChange={(open) => !open && setEditing(null)}
          title={editing === 'new' ? 'New report email' : 'Edit report email'}
          description={`Sent at the chosen hour in ${data.timeZone}, with the PDF report attached.`}
          size="lg"
        >
          <ScheduleForm
            orgId={orgId}
            schedule={editing === 'new' ? null : editing}
            integrations={accounts}
            timeZone={data.timeZone}
            onDone={() => setEditing(null)}
          />
        </Modal>
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this report email?"
        message={`“${deleting?.name ?? ''}” stops: its recipients get no more reports.`}
        confirmLabel="Delete"
        isPending={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              setDeleting(null);
              toast.success(SCHEDULE_DELETED);
            },
            onError: (err) => toastError(err, 'The report email could not be deleted. Try again.'),
          })
        }
      />
    </section>
  );
}
