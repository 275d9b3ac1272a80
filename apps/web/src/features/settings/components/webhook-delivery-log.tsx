import type { WebhookDelivery } from '@herald/contract';
import { RotateCw, Send } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { RelativeTime } from '@/components/ui/relative-time';
import { LoadingIndicator, Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { toastError } from '@/lib/toast';
import {
  useRedeliverWebhook,
  useSendWebhookTest,
  useWebhookDeliveries,
} from '../api/outgoing-webhooks';

const STATUS_LABEL: Record<WebhookDelivery['status'], string> = {
  PENDING: 'Retrying',
  SUCCEEDED: 'Delivered',
  FAILED: 'Failed',
};
const STATUS_CLASS: Record<WebhookDelivery['status'], string> = {
  PENDING: 'bg-amber-50 text-amber-800',
  SUCCEEDED: 'bg-emerald-50 text-emerald-800',
  FAILED: 'bg-red-50 text-red-700',
};

function DeliveryItem({
  delivery,
  onRedeliver,
  redelivering,
}: {
  delivery: WebhookDelivery;
  onRedeliver: () => void;
  redelivering: boolean;
}) {
  const last = delivery.attempts.at(-1);
  return (
    <li className="flex flex-col gap-1 py-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono text-slate-900">{delivery.type}</span>
        <span
          className={cn(
            'rounded-full px-2 py-0.5 text-xs font-medium',
            STATUS_CLASS[delivery.status],
          )}
        >
          {STATUS_LABEL[delivery.status]}
        </span>
        <RelativeTime iso={delivery.createdAt} />
        <Button
          variant="ghost"
          size="sm"
          className="ml-auto"
          disabled={redelivering}
          onClick={onRedeliver}
          aria-label={`Redeliver ${delivery.type} (${delivery.messageId})`}
        >
          {redelivering ? (
            <Spinner className="size-4" />
          ) : (
            <RotateCw className="size-4" aria-hidden="true" />
          )}
          Redeliver
        </Button>
      </div>
      <p className="text-xs text-slate-600">
        {delivery.attemptCount === 1 ? '1 attempt' : `${delivery.attemptCount} attempts`}
        {last &&
          ` · last: ${last.statusCode === null ? 'no answer' : `HTTP ${last.statusCode}`} in ${last.durationMs} ms`}
        {delivery.nextAttemptAt && ' · next try scheduled'}
      </p>
      {last?.error && <p className="text-xs text-red-700">{last.error}</p>}
      {last?.responseExcerpt && (
        <pre className="max-h-24 overflow-auto rounded bg-slate-50 p-2 text-xs break-all whitespace-pre-wrap text-slate-700">
          {last.responseExcerpt}
        </pre>
      )}
      <p className="font-mono text-[11px] break-all text-slate-400">{delivery.messageId}</p>
    </li>
  );
}

/** One endpoint's latest deliveries, each with its last attempt; test and redeliver buttons. */
export function WebhookDeliveryLog({ orgId, endpointId }: { orgId: string; endpointId: string }) {
  const deliveries = useWebhookDeliveries(orgId, endpointId);
  const test = useSendWebhookTest(orgId, endpointId);
  const redeliver = useRedeliverWebhook(orgId, endpointId);
  return (
    <div className="mt-3 border-t border-slate-200 pt-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 className="text-sm font-semibold text-slate-900">Delivery log</h4>
        <Button
          variant="secondary"
          size="sm"
          disabled={test.isPending}
          onClick={() =>
            test.mutate(undefined, {
              onError: (err) => toastError(err, 'Failed to send the test event.'),
            })
          }
        >
          {test.isPending ? (
            <Spinner className="size-4" />
          ) : (
            <Send className="size-4" aria-hidden="true" />
          )}
          Send test event
        </Button>
      </div>
      {deliveries.isPending ? (
        <LoadingIndicator label="Loading the deliveries" className="py-4" />
      ) : deliveries.isError ? (
        <p className="mt-2 text-sm text-red-700">Failed to load the deliveries.</p>
      ) : deliveries.data.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">
          Nothing sent yet. Send a test event to check the endpoint.
        </p>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label="Deliveries">
          {deliveries.data.map((delivery) => (
            <DeliveryItem
              key={delivery.id}
              delivery={delivery}
              redelivering={redeliver.isPending && redeliver.variables === delivery.id}
              onRedeliver={() =>
                redeliver.mutate(delivery.id, {
                  onError: (err) => toastError(err, 'Failed to redeliver.'),
                })
              }
            />
          ))}
        </ul>
      )}
    </div>
  );
}
