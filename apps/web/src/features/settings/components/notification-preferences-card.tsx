import {
  describeTimeZone,
  NOTIFICATION_EVENTS,
  type NotificationChannels,
  type NotificationEvent,
  type NotificationPreferences,
} from '@herald/contract';
import { Save } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { LoadingIndicator, Spinner } from '@/components/ui/spinner';
import { toast, toastError } from '@/lib/toast';
import { useTimeZoneRule } from '@/lib/use-time-zone';
import {
  useNotificationPreferences,
  useSaveNotificationPreferences,
} from '../api/notification-preferences';

export const PREFERENCES_SAVED = 'Notification preferences saved.';
export const PREFERENCES_SAVE_FAILED = 'Failed to save notification preferences. Please try again.';

const EVENT_LABELS: Record<NotificationEvent, { label: string; hint: string }> = {
  PUBLISHING_FAILED: {
    label: 'Publishing failures',
    hint: 'A post that did not go out everywhere',
  },
  PUBLISHING_SUCCEEDED: { label: 'Published posts', hint: 'A post that went out everywhere' },
  APPROVALS: { label: 'Approvals', hint: 'Posts to approve, and your posts approved or rejected' },
  MENTIONS: { label: 'Mentions', hint: 'A teammate @mentioned you in internal comments' },
  INBOX: { label: 'Inbox', hint: 'A conversation was assigned to you' },
  ACCOUNTS: { label: 'Social accounts', hint: 'An account was disconnected or needs reconnecting' },
  BILLING: { label: 'Billing', hint: 'Trial, plan and payment changes (admins)' },
};

const CHANNELS: { key: keyof NotificationChannels; label: string }[] = [
  { key: 'inApp', label: 'In app' },
  { key: 'email', label: 'Email' },
  { key: 'digest', label: 'Daily digest' },
];

function PreferencesForm({
  orgId,
  saved,
  emailAvailable,
}: {
  orgId: string;
  saved: NotificationPreferences;
  emailAvailable: boolean;
}) {
  const save = useSaveNotificationPreferences(orgId);
  const [choices, setChoices] = useState(saved);
  const toggle = (event: NotificationEvent, channel: keyof NotificationChannels) =>
    setChoices((c) => ({ ...c, [event]: { ...c[event], [channel]: !c[event][channel] } }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(choices, {
      onSuccess: () => toast.success(PREFERENCES_SAVED),
      onError: (error) => toastError(error, PREFERENCES_SAVE_FAILED),
    });
  };

  return (
    <form onSubmit={onSubmit} className="mt-4 flex flex-col gap-4">
      {!emailAvailable && (
        <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-700">
          This Herald server does not send email yet (no SMTP server is set up), so only in-app
          notifications reach you for now. Your email and digest choices are kept for when it does.
        </p>
      )}
      <table className="w-full text-sm">
        <thead>
          <tr className="border-b border-slate-200 text-left text-xs text-slate-600">
            <th scope="col" className="py-2 pr-2 font-semibold">
              Notify me about
            </th>
            {CHANNELS.map((channel) => (
              <th
                key={channel.key}
                scope="col"
                className="w-16 px-1 py-2 text-center font-semibold sm:w-24"
              >
                {channel.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {NOTIFICATION_EVENTS.map((event) => (
            <tr key={event} className="border-b border-slate-100 last:border-0">
              <th scope="row" className="py-2 pr-2 text-left font-normal">
                <span className="block font-medium text-slate-900">
                  {EVENT_LABELS[event].label}
                </span>
                <span className="block text-xs text-slate-600">{EVENT_LABELS[event].hint}</span>
              </th>
              {CHANNELS.map((channel) => (
                <td key={channel.key} className="px-1 py-2 text-center">
                  <input
                    type="checkbox"
                    aria-label={`${EVENT_LABELS[event].label}: ${channel.label}`}
                    checked={choices[event][channel.key]}
                    onChange={() => toggle(event, channel.key)}
                    className="size-5 accent-indigo-600"
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="flex justify-end">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? (
            <Spinner className="size-4 text-white" />
          ) : (
            <Save className="size-4" aria-hidden="true" />
          )}
          Save Notification Preferences
        </Button>
      </div>
    </form>
  );
}

/** docs/product.md#notification-preferences: the member's own choices in this organization. */
export function NotificationPreferencesCard({ orgId }: { orgId: string }) {
  const headingId = useId();
  const preferences = useNotificationPreferences(orgId);
  // The digest goes out at 07:00 in the zone that applies to the member.
  const rule = useTimeZoneRule();
  return (
    <section
      id="notifications"
      aria-labelledby={headingId}
      className="scroll-mt-20 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Notifications
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        What you hear about in this organization, and where: in Herald, by email as it happens, or
        once a day in a digest, sent at 7:00 AM {describeTimeZone(rule)}.
      </p>
      {preferences.isPending ? (
        <LoadingIndicator label="Loading notification preferences" className="py-6" />
      ) : preferences.isError ? (
        <p className="mt-3 text-sm text-red-700">Failed to load notification preferences.</p>
      ) : (
        <PreferencesForm
          orgId={orgId}
          saved={preferences.data.preferences}
          emailAvailable={preferences.data.emailAvailable}
        />
      )}
    </section>
  );
}
