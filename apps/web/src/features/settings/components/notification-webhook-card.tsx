import { Send, Trash2, Save } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/form-field';
import { LoadingIndicator, Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { toast, toastError } from '@/lib/toast';
import {
  useNotificationWebhook,
  useSaveNotificationWebhook,
  useTestNotificationWebhook,
} from '../api/notification-preferences';

export const WEBHOOK_SAVED = 'Webhook saved. Send a test to check it.';
export const WEBHOOK_REMOVED = 'Webhook removed.';

/**
 * docs/product.md#notification-webhook (org:manage): a Slack- or Teams-style incoming webhook
 * that gets the organization's publishing failures and approvals. The saved URL is a secret:
 * only its hint is shown.
 */
export function NotificationWebhookCard({ orgId }: { orgId: string }) {
  const headingId = useId();
  const webhook = useNotificationWebhook(orgId);
  const save = useSaveNotificationWebhook(orgId);
  const test = useTestNotificationWebhook(orgId);
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<{ delivered: boolean; message: string } | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!url.trim()) {
      setError('Paste the webhook URL from Slack or Teams.');
      return;
    }
    setError(null);
    setResult(null);
    save.mutate(url.trim(), {
      onSuccess: () => {
        setUrl('');
        toast.success(WEBHOOK_SAVED);
      },
      onError: (err) =>
        setError(errorMessage(err, 'Failed to save the webhook. Please try again.')),
    });
  };

  const configured = webhook.data?.configured ?? false;
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Team channel (webhook)
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Post publishing failures and approval requests and decisions to a Slack or Microsoft Teams
        channel: create an incoming webhook there and paste its URL.
      </p>
      {webhook.isPending ? (
        <LoadingIndicator label="Loading the webhook" className="py-6" />
      ) : webhook.isError ? (
        <p className="mt-3 text-sm text-red-700">Failed to load the webhook.</p>
      ) : (
        <div className="mt-4 flex flex-col gap-4">
          {configured && (
            <div className="flex flex-col gap-2 rounded-lg bg-slate-50 p-3 text-sm sm:flex-row sm:items-center sm:gap-3">
              <p className="min-w-0 break-all text-slate-800 sm:flex-1">
                Posting to <span className="font-mono">{webhook.data?.urlHint}</span>
              </p>
              <div className="flex flex-wrap gap-2">
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={test.isPending}
                  onClick={() =>
                    test.mutate(undefined, {
                      onSuccess: setResult,
                      onError: (err) =>
                        toastError(err, 'Failed to send the test. Please try again.'),
                    })
                  }
                >
                  {test.isPending ? (
                    <Spinner className="size-4" />
                  ) : (
                    <Send className="size-4" aria-hidden="true" />
                  )}
                  Send test
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={save.isPending}
                  onClick={() =>
                    save.mutate(null, {
                      onSuccess: () => {
                        setResult(null);
                        toast.success(WEBHOOK_REMOVED);
                      },
                      onError: (err) => toastError(err, 'Failed to remove the webhook.'),
                    })
                  }
                >
                  <Trash2 className="size-4" aria-hidden="true" />
                  Remove
                </Button>
              </div>
            </div>
          )}
          {result && (
            <p
              role="status"
              className={
                result.delivered ? 'text-sm text-emerald-800' : 'text-sm font-medium text-red-700'
              }
            >
              {result.message}
            </p>
          )}
          <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3">
            <TextField
              label={configured ? 'Replace with another webhook URL' : 'Webhook URL'}
              type="url"
              value={url}
              placeholder="https://hooks.slack.com/services/…"
              autoComplete="off"
              onChange={(event) => setUrl(event.target.value)}
              error={error}
              hint="Kept encrypted; only its start and last characters are shown again."
            />
            <div className="flex justify-end">
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? (
                  <Spinner className="size-4 text-white" />
                ) : (
                  <Save className="size-4" aria-hidden="true" />
                )}
                Save Webhook
              </Button>
            </div>
          </form>
        </div>
      )}
    </section>
  );
}
