import { WEBHOOK_EVENT_TYPES, type WebhookEndpoint, type WebhookEventType } from '@herald/contract';
import { KeyRound, Plus, Power, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TextField } from '@/components/ui/form-field';
import { LoadingIndicator, Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { toast, toastError } from '@/lib/toast';
import {
  useCreateWebhookEndpoint,
  useDeleteWebhookEndpoint,
  useRotateWebhookSecret,
  useUpdateWebhookEndpoint,
  useWebhookEndpoints,
} from '../api/outgoing-webhooks';
import { WebhookDeliveryLog } from './webhook-delivery-log';

/** The events grouped as the form shows them. */
const GROUPS: Array<{ label: string; prefix: string }> = [
  { label: 'Posts', prefix: 'post.' },
  { label: 'Approvals', prefix: 'approval.' },
  { label: 'Inbox', prefix: 'inbox.' },
  { label: 'Accounts', prefix: 'account.' },
];

/** The signing secret, shown once after creating or rotating. */
function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <div role="status" className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm">
      <p className="font-medium text-amber-900">
        Copy the signing secret now: Herald will not show it again.
      </p>
      <p className="mt-2 rounded bg-white p-2 font-mono break-all text-slate-900">{secret}</p>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button
          variant="secondary"
          size="sm"
          onClick={() =>
            void navigator.clipboard
              ?.writeText(secret)
              .then(() => toast.success('Secret copied.'))
              .catch(() => toast.error('Copy failed; select the secret and copy it.'))
          }
        >
          Copy
        </Button>
        <Button variant="ghost" size="sm" onClick={onDone}>
          I have saved it
        </Button>
      </div>
    </div>
  );
}

function AddEndpointForm({ orgId, onCreated }: { orgId: string; onCreated: (s: string) => void }) {
  const create = useCreateWebhookEndpoint(orgId);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<Set<WebhookEventType>>(
    new Set(['post.published', 'post.failed']),
  );
  const [error, setError] = useState<string | null>(null);
  const groupId = useId();

  const toggle = (event: WebhookEventType) =>
    setEvents((current) => {
      const next = new Set(current);
      if (next.has(event)) next.delete(event);
      else next.add(event);
      return next;
    });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!url.trim()) return setError('Give the URL Herald should post the events to.');
    if (events.size === 0) return setError('Choose at least one event to send.');
    setError(null);
    create.mutate(
      {
        url: url.trim(),
        events: WEBHOOK_EVENT_TYPES.filter((x) => events.has(x)),
        ...(description.trim() ? { description: description.trim() } : {}),
      },
      {
        onSuccess: (data) => {
          setUrl('');
          setDescription('');
          onCreated(data.secret);
        },
        onError: (err) => setError(errorMessage(err, 'Failed to add the endpoint.')),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3">
      <TextField
        label="Endpoint URL"
        type="url"
        value={url}
        placeholder="https://example.com/herald-events"
        autoComplete="off"
        onChange={(e) => setUrl(e.target.value)}
        error={error}
      />
      <TextField
        label="Description (optional)"
        value={description}
        maxLength={200}
        onChange={(e) => setDescription(e.target.value)}
      />
      <fieldset aria-describedby={groupId}>
        <legend className="text-sm font-medium text-slate-900">Events</legend>
        <p id={groupId} className="text-xs text-slate-500">
          Only the chosen events are sent to this endpoint.
        </p>
        <div className="mt-2 grid gap-3 sm:grid-cols-2">
          {GROUPS.map((group) => (
            <div key={group.prefix}>
              <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
                {group.label}
              </p>
              {WEBHOOK_EVENT_TYPES.filter((e) => e.startsWith(group.prefix)).map((event) => (
                <label key={event} className="mt-1 flex items-center gap-2 text-sm text-slate-800">
                  <input
                    type="checkbox"
                    className="size-4 rounded border-slate-300"
                    checked={events.has(event)}
                    onChange={() => toggle(event)}
                  />
                  <span className="font-mono text-xs">{event}</span>
                </label>
              ))}
            </div>
          ))}
        </div>
      </fieldset>
      <div className="flex justify-end">
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? (
            <Spinner className="size-4 text-white" />
          ) : (
            <Plus className="size-4" aria-hidden="true" />
          )}
          Add Endpoint
        </Button>
      </div>
    </form>
  );
}

function EndpointItem({
  orgId,
  endpoint,
  onSecret,
}: {
  orgId: string;
  endpoint: WebhookEndpoint;
  onSecret: (secret: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const update = useUpdateWebhookEndpoint(orgId);
  const remove = useDeleteWebhookEndpoint(orgId);
  const rotate = useRotateWebhookSecret(orgId);
  return (
    <li className="rounded-lg border border-slate-200 p-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="font-mono text-sm break-all text-slate-900">{endpoint.url}</p>
          {endpoint.description && <p className="text-sm text-slate-600">{endpoint.description}</p>}
          <p className="mt-1 text-xs text-slate-500">
            {endpoint.events.length === 1 ? '1 event' : `${endpoint.events.length} events`}:{' '}
            {endpoint.events.join(', ')}
          </p>
          {!endpoint.enabled && (
            <p className="mt-1 text-xs font-medium text-red-700">
              Off{endpoint.disabledReason ? `: ${endpoint.disabledReason}` : '.'}
            </p>
          )}
          {endpoint.enabled && endpoint.failingSince && (
            <p className="mt-1 text-xs text-amber-800">
              Failing since {new Date(endpoint.failingSince).toLocaleString()}.
            </p>
          )}
        </div>
        <div className="flex shrink-0 flex-wrap gap-1">
          <Button variant="secondary" size="sm" onClick={() => setOpen((v) => !v)}>
            {open ? 'Hide log' : 'Deliveries'}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            disabled={update.isPending}
            onClick={() =>
              update.mutate(
                { id: endpoint.id, enabled: !endpoint.enabled },
                { onError: (err) => toastError(err, 'Failed to change the endpoint.') },
              )
            }
          >
            <Power className="size-4" aria-hidden="true" />
            {endpoint.enabled ? 'Turn off' : 'Turn on'}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            disabled={rotate.isPending}
            onClick={() =>
              rotate.mutate(endpoint.id, {
                onSuccess: (data) => onSecret(data.secret),
                onError: (err) => toastError(err, 'Failed to rotate the secret.'),
              })
            }
          >
            <KeyRound className="size-4" aria-hidden="true" />
            Rotate secret
          </Button>
          <Button
            variant="ghost"
            size="sm"
            aria-label={`Remove ${endpoint.url}`}
            onClick={() => setConfirmDelete(true)}
          >
            <Trash2 className="size-4" aria-hidden="true" />
          </Button>
        </div>
      </div>
      {open && <WebhookDeliveryLog orgId={orgId} endpointId={endpoint.id} />}
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title="Remove this endpoint?"
        message="Herald stops sending events to it, and its delivery log is deleted."
        confirmLabel="Remove Endpoint"
        isPending={remove.isPending}
        onConfirm={() =>
          remove.mutate(endpoint.id, {
            onSuccess: () => {
              setConfirmDelete(false);
              toast.success('Endpoint removed.');
            },
            onError: (err) => toastError(err, 'Failed to remove the endpoint.'),
          })
        }
      />
    </li>
  );
}

/**
 * docs/webhooks.md (org:manage): endpoints that receive the organization's events, signed as
 * Standard Webhooks says; each with its delivery log, a test event, redelivery and rotation.
 */
export function OutgoingWebhooksCard({ orgId }: { orgId: string }) {
  const headingId = useId();
  const endpoints = useWebhookEndpoints(orgId);
  const [secret, setSecret] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Outgoing webhooks
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Send signed events (posts, approvals, inbox, accounts) to your own systems, Zapier, Make or
        n8n. Failed deliveries are retried for about three days.
      </p>
      <div className="mt-4 flex flex-col gap-4">
        {secret && <SecretOnce secret={secret} onDone={() => setSecret(null)} />}
        {endpoints.isPending ? (
          <LoadingIndicator label="Loading the endpoints" className="py-6" />
        ) : endpoints.isError ? (
          <p className="text-sm text-red-700">Failed to load the endpoints.</p>
        ) : endpoints.data.length > 0 ? (
          <ul className="flex flex-col gap-3" aria-label="Webhook endpoints">
            {endpoints.data.map((endpoint) => (
              <EndpointItem
                key={endpoint.id}
                orgId={orgId}
                endpoint={endpoint}
                onSecret={setSecret}
              />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-600">No endpoints yet.</p>
        )}
        {adding ? (
          <AddEndpointForm
            orgId={orgId}
            onCreated={(s) => {
              setSecret(s);
              setAdding(false);
            }}
          />
        ) : (
          <div>
            <Button variant="secondary" onClick={() => setAdding(true)}>
              <Plus className="size-4" aria-hidden="true" />
              Add Endpoint
            </Button>
          </div>
        )}
      </div>
    </section>
  );
}
