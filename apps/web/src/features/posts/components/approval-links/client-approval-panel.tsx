import type { ApprovalLink, ApprovalLinkState, Post } from '@herald/contract';
import { Send } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LoadError } from '@/components/ui/load-error';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { useCan } from '@/lib/permissions';
import { toast, toastError } from '@/lib/toast';
import { useTimeZone } from '@/lib/use-time-zone';
import { usePostApprovalLinks, useRevokeApprovalLink } from '../../api/approval-links';
import { formatPostDate } from '../post-dates';
import { postHeading } from './post-heading';
import { SendToClientDialog } from './send-to-client-dialog';

export const LINK_REVOKED = 'Approval link revoked. It no longer opens.';
export const LINKS_LOAD_FAILED = 'Could not load the client approval links.';

const STATE_LABELS: Record<ApprovalLinkState, string> = {
  open: 'Open',
  decided: 'Decided',
  revoked: 'Revoked',
  expired: 'Expired',
};
const STATE_STYLES: Record<ApprovalLinkState, string> = {
  open: 'bg-indigo-100 text-indigo-800',
  decided: 'bg-emerald-100 text-emerald-800',
  revoked: 'bg-slate-200 text-slate-700',
  expired: 'bg-amber-100 text-amber-900',
};

const clientOf = (link: ApprovalLink) =>
  link.approverName ?? link.approverEmail ?? 'an unnamed client';

/** What the client decided about this post through the link, in a phrase. */
function decisionOf(link: ApprovalLink, postId: string): string {
  const entry = link.posts.find((p) => p.postId === postId);
  if (!entry?.decision) return link.state === 'open' ? 'Waiting for the client' : 'No decision';
  const said = entry.comment ? `: “${entry.comment}”` : '';
  return entry.decision === 'approve' ? `Approved${said}` : `Asked for changes${said}`;
}

function LinkRow({
  link,
  postId,
  zone,
  onRevoke,
  mayRevoke,
}: {
  link: ApprovalLink;
  postId: string;
  zone: string;
  onRevoke: () => void;
  mayRevoke: boolean;
}) {
  const others = link.posts.length - 1;
  return (
    <li className="flex flex-col gap-1 py-3 text-sm">
      <div className="flex items-center justify-between gap-2">
        <p className="min-w-0 truncate font-medium text-slate-900">For {clientOf(link)}</p>
        <span
          className={cn(
            'shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold',
            STATE_STYLES[link.state],
          )}
        >
          {STATE_LABELS[link.state]}
        </span>
      </div>
      <p className="break-words text-slate-700">{decisionOf(link, postId)}</p>
      <p className="text-xs text-slate-600">
        Sent by {link.createdBy?.displayName?.trim() || 'a former member'} ·{' '}
        {formatPostDate(link.createdAt, zone)}
        {others > 0 && ` · with ${others} other post${others === 1 ? '' : 's'}`}
      </p>
      <p className="text-xs text-slate-600">
        {link.revokedAt
          ? `Revoked ${formatPostDate(link.revokedAt, zone)}`
          : `${link.state === 'expired' ? 'Expired' : 'Expires'} ${formatPostDate(link.expiresAt, zone)}`}
      </p>
      {mayRevoke && link.state === 'open' && (
        <div>
          <Button
            variant="ghost"
            size="sm"
            onClick={onRevoke}
            aria-label={`Revoke the link for ${clientOf(link)}`}
            className="-ml-3"
          >
            Revoke
          </Button>
        </div>
      )}
    </li>
  );
}

/**
 * docs/product.md#client-approval-links on a post's details: "Send to client for approval" while
 * it waits, and the links that carry it, their state, what the client decided, and Revoke.
 */
export function ClientApprovalPanel({ orgId, post }: { orgId: string; post: Post }) {
  const headingId = useId();
  const zone = useTimeZone();
  const mayList = useCan('GET /organizations/:orgId/approval-links');
  const maySend = useCan('POST /organizations/:orgId/approval-links');
  const mayRevoke = useCan('DELETE /organizations/:orgId/approval-links/:linkId');
  const links = usePostApprovalLinks(orgId, post.id, { enabled: mayList });
  const revoke = useRevokeApprovalLink(orgId);
  const [isSending, setSending] = useState(false);
  const [revoking, setRevoking] = useState<ApprovalLink | null>(null);
  const pending = post.status === 'pending_approval';
  const list = links.data ?? [];
  if (!mayList || (!pending && list.length === 0)) return null;

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        toast.success(LINK_REVOKED);
        setRevoking(null);
      },
      onError: (error) => {
        setRevoking(null);
        toastError(error, 'Could not revoke the link.');
      },
    });
  };

  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Client approval
      </h2>
      {pending && maySend && (
        <>
          <p className="mt-1 text-sm text-slate-600">
            Let a client without an account approve it or ask for changes.
          </p>
          <Button variant="secondary" className="mt-3 w-full" onClick={() => setSending(true)}>
            <Send className="size-4" aria-hidden="true" />
            Send to client for approval
          </Button>
        </>
      )}
      {links.isError && (
        <LoadError
          className="mt-3"
          message={errorMessage(links.error, LINKS_LOAD_FAILED)}
          onRetry={() => void links.refetch()}
          isRetrying={links.isFetching}
        />
      )}
      {list.length > 0 && (
        <ul aria-label="Client approval links" className="mt-2 divide-y divide-slate-100">
          {list.map((link) => (
            <LinkRow
              key={link.id}
              link={link}
              postId={post.id}
              zone={zone}
              mayRevoke={mayRevoke}
              onRevoke={() => setRevoking(link)}
            />
          ))}
        </ul>
      )}
      <SendToClientDialog
        orgId={orgId}
        posts={[{ id: post.id, label: postHeading(post) }]}
        open={isSending}
        onOpenChange={setSending}
      />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title="Revoke this approval link?"
        message="It stops working at once for your client. Decisions already made stay as they are."
        confirmLabel="Revoke link"
        onConfirm={confirmRevoke}
        isPending={revoke.isPending}
      />
    </section>
  );
}
