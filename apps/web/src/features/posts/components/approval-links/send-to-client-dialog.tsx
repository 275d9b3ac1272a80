import {
  APPROVAL_LINK_DEFAULT_DAYS,
  APPROVAL_LINK_MESSAGE_MAX,
  APPROVER_NAME_MAX,
} from '@herald/contract';
import { Copy, Send } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/form-field';
import { Modal, ModalActions } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useCreateApprovalLink } from '../../api/approval-links';

export const SEND_FAILED = 'Could not make the approval link.';
export const LINK_COPIED = 'Approval link copied.';
export const EXPIRY_CHOICES = [1, 3, 7, 14, 30] as const;

export interface PostToSend {
  id: string;
  label: string;
}

interface Sent {
  url: string;
  emailSent: boolean;
  email: string | null;
}

/** The link, shown this once: Herald keeps only its hash. Copy, or select it by hand. */
function SentLink({ sent }: { sent: Sent }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(sent.url);
      toast.success(LINK_COPIED);
    } catch {
      // No clipboard access (permissions, insecure context): leave the link selected instead.
      inputRef.current?.select();
      toast.error('Could not copy the link. It is selected: copy it with your keyboard.');
    }
  };
  return (
    <div className="flex flex-col gap-3">
      <p role="status" className="text-sm text-slate-700">
        {sent.emailSent
          ? `The link was emailed to ${sent.email}. You can also pass it on yourself:`
          : sent.email
            ? `Herald could not email ${sent.email} (no email server is set up). Send them this link yourself:`
            : 'Send this link to your client. They need no account to open it.'}
      </p>
      <div>
        <label htmlFor={id} className="block text-sm font-medium text-slate-800">
          Approval link
        </label>
        <div className="mt-1 flex gap-2">
          <input
            id={id}
            ref={inputRef}
            readOnly
            value={sent.url}
            onFocus={(event) => event.target.select()}
            className="block w-full min-w-0 rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-xs text-slate-800"
          />
          <Button variant="secondary" size="sm" onClick={() => void copy()}>
            <Copy className="size-4" aria-hidden="true" />
            Copy
          </Button>
        </div>
      </div>
      <p className="text-xs text-slate-600">
        This is the only time the link is shown: Herald keeps no copy of it. Anyone who has it can
        decide on these posts until it expires, so send it only to your client. You can revoke it
        from the post’s details.
      </p>
    </div>
  );
}

/**
 * "Send to client for approval" (docs/product.md#client-approval-links): the client's name, an
 * email (optional: without one, or without an email server, the sender passes the link on), how
 * long it works and a note; then the link, shown once with a Copy button.
 */
export function SendToClientDialog({
  orgId,
  posts,
  open,
  onOpenChange,
}: {
  orgId: string;
  posts: readonly PostToSend[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const create = useCreateApprovalLink(orgId);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [days, setDays] = useState<number>(APPROVAL_LINK_DEFAULT_DAYS);
  const [message, setMessage] = useState('');
  const [sent, setSent] = useState<Sent | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const noteId = useId();

  const close = (next: boolean) => {
    if (next) return onOpenChange(true);
    // The link is gone with the dialog: the next opening starts afresh.
    setSent(null);
    setProblem(null);
    setName('');
    setEmail('');
    setMessage('');
    setDays(APPROVAL_LINK_DEFAULT_DAYS);
    create.reset();
    onOpenChange(false);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    create.mutate(
      {
        postIds: posts.map((post) => post.id),
        ...(name.trim() ? { approverName: name.trim() } : {}),
        ...(email.trim() ? { approverEmail: email.trim() } : {}),
        expiresInDays: days,
        ...(message.trim() ? { message: message.trim() } : {}),
      },
      {
        onSuccess: (data) =>
          setSent({ url: data.url, emailSent: data.emailSent, email: data.link.approverEmail }),
        onError: (error) => setProblem(errorMessage(error, SEND_FAILED)),
      },
    );
  };

  const count = posts.length;
  return (
    <Modal
      open={open}
      onOpenChange={close}
      title={sent ? 'Approval link ready' : 'Send to client for approval'}
      description={
        sent
          ? undefined
          : count === 1
            ? `Your client sees “${posts[0]?.label}” as it will go out on each account, and approves it or asks for changes.`
            : `Your client sees these ${count} posts as they will go out on each account, and decides on each.`
      }
    >
      {sent ? (
        <>
          <SentLink sent={sent} />
          <ModalActions>
            <Button onClick={() => close(false)}>Done</Button>
          </ModalActions>
        </>
      ) : (
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
          <TextField
            label="Client’s name"
            value={name}
            maxLength={APPROVER_NAME_MAX}
            onChange={(event) => setName(event.target.value)}
            autoComplete="off"
          />
          <TextField
            label="Client’s email (optional)"
            type="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            hint="When Herald can send email, the link goes to this address."
            autoComplete="off"
          />
          <SelectField
            label="Link works for"
            value={String(days)}
            onChange={(event) => setDays(Number(event.target.value))}
          >
            {EXPIRY_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {choice === 1 ? '1 day' : `${choice} days`}
              </option>
            ))}
          </SelectField>
          <div>
            <label htmlFor={noteId} className="block text-sm font-medium text-slate-800">
              Note to your client (optional)
            </label>
            <textarea
              id={noteId}
              value={message}
              onChange={(event) => setMessage(event.target.value)}
              maxLength={APPROVAL_LINK_MESSAGE_MAX}
              rows={3}
              className="mt-1 block w-full rounded-lg border border-slate-300 bg-white p-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-2 focus:outline-indigo-200"
            />
          </div>
          {problem && <Alert>{problem}</Alert>}
          <ModalActions>
            <Button variant="secondary" onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending || count === 0}>
              {create.isPending ? (
                <Spinner className="size-4 text-white" />
              ) : (
                <Send className="size-4" aria-hidden="true" />
              )}
              Create link
            </Button>
          </ModalActions>
        </form>
      )}
    </Modal>
  );
}
