import { REJECTION_REASON_MAX } from '@herald/contract';
import { X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Modal, ModalActions } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';

const posts = (n: number) => `${n} post${n === 1 ? '' : 's'}`;

/**
 * Reject for the chosen posts (docs/product.md#bulk-actions): one comment, optional, that every
 * author reads with the notification.
 */
export function BulkRejectDialog({
  count,
  isPending,
  error,
  onSubmit,
  onClose,
}: {
  count: number;
  isPending: boolean;
  /** The server's sentence when it refused. */
  error: string | null;
  onSubmit: (reason: string) => void;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const fieldId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(reason.trim());
  };

  return (
    <Modal
      open
      onOpenChange={(open) => !open && !isPending && onClose()}
      title={`Reject ${posts(count)}?`}
      description={`${count === 1 ? 'It goes' : 'They go'} back to drafts and ${count === 1 ? 'its author is' : 'their authors are'} told, with your comment when you write one.`}
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-2">
        <label htmlFor={fieldId} className="text-sm font-medium text-slate-800">
          Comment (optional)
        </label>
        <textarea
          id={fieldId}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          maxLength={REJECTION_REASON_MAX}
          rows={4}
          className="rounded-lg border border-slate-300 p-2 text-sm focus-visible:outline-2 focus-visible:outline-indigo-600"
        />
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
        <ModalActions>
          <Button variant="secondary" onClick={onClose} disabled={isPending}>
            Cancel
          </Button>
          <Button variant="danger" type="submit" disabled={isPending}>
            {isPending ? (
              <Spinner className="size-4 text-white" />
            ) : (
              <X className="size-4" aria-hidden="true" />
            )}
            Reject
          </Button>
        </ModalActions>
      </form>
    </Modal>
  );
}
