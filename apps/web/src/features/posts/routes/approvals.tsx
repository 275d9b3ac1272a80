import {
  applyLinkTracking,
  contentForAccount,
  defaultContent,
  REJECTION_REASON_MAX,
  type Post,
} from '@herald/contract';
import { Check, ClipboardCheck, Pencil, Send, X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { generatePath, Link } from 'react-router';
import { Button, ButtonLink } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { Modal, ModalActions } from '@/components/ui/modal';
import { NetworkMark } from '@/components/ui/network-mark';
import { LoadingIndicator, Spinner } from '@/components/ui/spinner';
import { TimeZoneNote } from '@/components/ui/time-zone-note';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-error';
import { isTimePassed, useApprovalQueue, useApprovePost, useRejectPost } from '@/lib/approvals';
import { useAuth } from '@/lib/auth';
import { useCan, usePermissions } from '@/lib/permissions';
import { toast, toastError } from '@/lib/toast';
import { useTimeZoneRule } from '@/lib/use-time-zone';
import { SendSelectedBar } from '../components/approval-links/send-selected-bar';
import {
  SendToClientDialog,
  type PostToSend,
} from '../components/approval-links/send-to-client-dialog';
import { MediaThumbnail } from '../components/media-thumbnail';
import { accountName } from '../components/post-accounts';
import { formatPostDate } from '../components/post-dates';

export const APPROVED = 'Post approved and scheduled.';
export const APPROVED_NOW = 'Post approved. Publishing has started.';
export const REJECTED = 'Post rejected. Its author has been told why.';
export const NOTHING_PENDING = 'Nothing is waiting for approval.';
export const NOT_AN_APPROVER = 'Only members who may approve posts see this page.';

/** The post's title, else the start of its text, else a neutral name. */
function headingOf(post: Post): string {
  const words = (post.title?.trim() || defaultContent(post.content)).replace(/\s+/g, ' ').trim();
  if (!words) return 'Untitled post';
  return words.length > 60 ? `${words.slice(0, 59)}…` : words;
}

/** The post's text as each account will show it (docs/product.md#approvals: a preview per account). */
function AccountTexts({ post }: { post: Post }) {
  const accounts = post.accounts.length > 0 ? post.accounts : [];
  // As it will go out: links carry the post's tracking parameters, as the network will get them.
  const sent = (text: string, network: string) =>
    applyLinkTracking(text, post.linkTracking, network);
  // The account's thread parts and first comment, in publishing order.
  const followUpsOf = (account: Post['accounts'][number]) =>
    post.platformPosts.find(
      (target) => target.integrationId === account.id && target.platformId === account.platformId,
    )?.followUps ?? [];
  return (
    <ul className="flex flex-col gap-3" aria-label="Text per account">
      {accounts.map((account, index) => {
        const followUps = followUpsOf(account);
        return (
          <li
            key={`${account.id ?? account.platformId}-${index}`}
            className="rounded-lg border border-slate-200 p-3"
          >
            <p className="flex min-w-0 items-center gap-2 text-sm font-semibold text-slate-900">
              <NetworkMark name={account.platformName} />
              <span className="truncate">
                {accountName(account)}{' '}
                <span className="font-normal text-slate-600">({account.platformName})</span>
              </span>
            </p>
            <p className="mt-2 text-sm break-words whitespace-pre-wrap text-slate-800">
              {sent(
                contentForAccount(post.content, {
                  integrationId: account.id,
                  platformId: account.platformId,
                }),
                account.platformName,
              ) || <span className="text-slate-500 italic">No text</span>}
            </p>
            {followUps.length > 0 && (
              <ol
                className="mt-2 flex flex-col gap-2 border-l-2 border-slate-200 pl-3"
                aria-label={`Thread and first comment on ${account.platformName}`}
              >
                {followUps.map((item) => (
                  <li key={item.id} className="text-sm text-slate-800">
                    <span className="block text-xs font-semibold text-slate-500">
                      {item.kind === 'part' ? `Part ${item.position}` : 'First comment'}
                    </span>
                    <span className="break-words whitespace-pre-wrap">
                      {sent(item.text, account.platformName)}
                    </span>
                  </li>
                ))}
              </ol>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function RejectDialog({
  post,
  onClose,
  orgId,
}: {
  post: Post | null;
  onClose: () => void;
  orgId: string;
}) {
  const reject = useRejectPost(orgId);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const fieldId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!post) return;
    if (!reason.trim()) {
      setError('Say why the post is rejected.');
      return;
    }
    reject.mutate(
      { postId: post.id, reason: reason.trim() },
      {
        onSuccess: () => {
          toast.success(REJECTED);
          setReason('');
          setError(null);
          onClose();
        },
        onError: (failure) => setError(errorMessage(failure, 'Could not reject the post.')),
      },
    );
  };

  return (
    <Modal
      open={post !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Reject this post?"
      description="It goes back to drafts and its author is notified with your reason."
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2">
        <label htmlFor={fieldId} className="text-sm font-medium text-slate-800">
          Reason
        </label>
        <textarea
          id={fieldId}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          maxLength={REJECTION_REASON_MAX}
          rows={4}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${fieldId}-error` : undefined}
          className="rounded-lg border border-slate-300 p-2 text-sm focus-visible:outline-2 focus-visible:outline-indigo-600"
        />
        {error && (
          <p id={`${fieldId}-error`} role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
        <ModalActions>
          <Button variant="secondary" type="button" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" type="submit" disabled={reject.isPending}>
            {reject.isPending ? (
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

function PendingPost({
  post,
  zone,
  onApprove,
  onReject,
  busy,
  client,
}: {
  post: Post;
  zone: string;
  onApprove: () => void;
  onReject: () => void;
  busy: boolean;
  /** For members who may send posts to a client: the post's checkbox and its own Send button. */
  client: { selected: boolean; onSelect: (selected: boolean) => void; onSend: () => void } | null;
}) {
  const headingId = useId();
  const selectId = useId();
  const isLate = post.scheduledAt !== null && Date.parse(post.scheduledAt) <= Date.now();
  return (
    <li
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 items-start gap-3">
          {client && (
            <input
              id={selectId}
              type="checkbox"
              checked={client.selected}
              onChange={(event) => client.onSelect(event.target.checked)}
              aria-label={`Select ${headingOf(post)}`}
              className="mt-1 size-4 shrink-0 rounded border-slate-300 accent-indigo-600"
            />
          )}
          <div className="min-w-0">
            <h2 id={headingId} className="truncate text-base font-semibold text-slate-900">
              <Link
                to={generatePath(paths.postDetails, { postId: post.id })}
                className="hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                {headingOf(post)}
              </Link>
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              By {post.creator?.displayName ?? 'a former member'} · for{' '}
              <span className={isLate ? 'font-semibold text-red-700' : 'text-slate-800'}>
                {formatPostDate(post.scheduledAt, zone, { empty: 'now' })}
              </span>
              {isLate && ' (time has passed)'}
            </p>
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          {client && (
            <Button
              variant="ghost"
              onClick={client.onSend}
              aria-label={`Send ${headingOf(post)} to client for approval`}
            >
              <Send className="size-4" aria-hidden="true" />
              Send to client
            </Button>
          )}
          <ButtonLink
            variant="ghost"
            to={generatePath(paths.editPost, { postId: post.id })}
            aria-label={`Edit ${headingOf(post)}`}
          >
            <Pencil className="size-4" aria-hidden="true" />
            Edit
          </ButtonLink>
          <Button variant="secondary" onClick={onReject} disabled={busy}>
            <X className="size-4" aria-hidden="true" />
            Reject
          </Button>
          <Button onClick={onApprove} disabled={busy}>
            {busy ? (
              <Spinner className="size-4 text-white" />
            ) : (
              <Check className="size-4" aria-hidden="true" />
            )}
            Approve
          </Button>
        </div>
      </div>
      <AccountTexts post={post} />
      {post.media.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label="Media">
          {post.media.map((media) => (
            <li key={media.id}>
              <MediaThumbnail media={media} className="size-20" />
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

/** docs/product.md#approvals: the posts waiting for an approver, each with approve and reject. */
export function ApprovalsPage() {
  const { currentOrgId } = useAuth();
  const orgId = currentOrgId ?? '';
  const canApprove = usePermissions().has('post:approve');
  const { zone, source: zoneSource } = useTimeZoneRule();
  const queue = useApprovalQueue(currentOrgId, { enabled: canApprove });
  const approve = useApprovePost(orgId);
  const [rejecting, setRejecting] = useState<Post | null>(null);
  const [late, setLate] = useState<Post | null>(null);
  // docs/product.md#client-approval-links: the posts chosen for one link, and the dialog's.
  const maySendToClient = useCan('POST /organizations/:orgId/approval-links');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [sending, setSending] = useState<PostToSend[] | null>(null);
  const toSend = (posts: Post[]) => posts.map((p) => ({ id: p.id, label: headingOf(p) }));

  const runApprove = (post: Post, publishNow = false) => {
    approve.mutate(
      { postId: post.id, publishNow },
      {
        onSuccess: () => {
          setLate(null);
          toast.success(publishNow ? APPROVED_NOW : APPROVED);
        },
        onError: (error) => {
          if (isTimePassed(error)) setLate(post);
          else toastError(error, 'Could not approve the post.');
        },
      },
    );
  };

  const body = () => {
    if (!canApprove) return <p className="text-slate-700">{NOT_AN_APPROVER}</p>;
    if (queue.isError) {
      return (
        <LoadError
          title="Could not load the approvals"
          message={errorMessage(queue.error, 'Could not load the posts waiting for approval.')}
          onRetry={() => void queue.refetch()}
          isRetrying={queue.isFetching}
        />
      );
    }
    if (!queue.data) return <LoadingIndicator label="Loading the approvals" className="py-10" />;
    if (queue.data.posts.length === 0) {
      return (
        <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-14 text-center">
          <ClipboardCheck className="size-8 text-slate-400" aria-hidden="true" />
          <p className="text-slate-700">{NOTHING_PENDING}</p>
        </div>
      );
    }
    const waiting = queue.data.posts;
    // A post that left the queue (decided meanwhile) is no longer chosen.
    const picked = waiting.filter((post) => chosen.has(post.id));
    return (
      <>
        {maySendToClient && (
          <SendSelectedBar
            selected={picked.length}
            total={waiting.length}
            onSelectAll={(all) => setChosen(new Set(all ? waiting.map((p) => p.id) : []))}
            onSend={() => setSending(toSend(picked))}
          />
        )}
        <ul className="flex flex-col gap-4" aria-label="Posts waiting for approval">
          {waiting.map((post) => (
            <PendingPost
              key={post.id}
              post={post}
              zone={zone}
              busy={approve.isPending && approve.variables?.postId === post.id}
              onApprove={() => runApprove(post)}
              onReject={() => setRejecting(post)}
              client={
                maySendToClient
                  ? {
                      selected: chosen.has(post.id),
                      onSelect: (on) =>
                        setChosen((before) => {
                          const next = new Set(before);
                          if (on) next.add(post.id);
                          else next.delete(post.id);
                          return next;
                        }),
                      onSend: () => setSending(toSend([post])),
                    }
                  : null
              }
            />
          ))}
        </ul>
      </>
    );
  };

  const count = queue.data?.count ?? 0;
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6 pb-20 sm:pb-0">
      <title>Approvals · Herald</title>
      <header>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Approvals</h1>
        <p className="mt-1 text-slate-600" aria-live="polite">
          {queue.data
            ? `${count} post${count === 1 ? '' : 's'} waiting for approval`
            : 'Posts your team submitted for approval.'}
        </p>
        <TimeZoneNote zone={zone} source={zoneSource} className="mt-1" />
      </header>
      {body()}
      <RejectDialog post={rejecting} onClose={() => setRejecting(null)} orgId={orgId} />
      <SendToClientDialog
        orgId={orgId}
        posts={sending ?? []}
        open={sending !== null}
        onOpenChange={(open) => {
          if (open) return;
          setSending(null);
          setChosen(new Set());
        }}
      />
      <Modal
        open={late !== null}
        onOpenChange={(open) => !open && setLate(null)}
        title="Publish it now?"
        description="This post’s time has passed. Approving it now publishes it right away."
      >
        <ModalActions>
          <Button variant="secondary" onClick={() => setLate(null)}>
            Cancel
          </Button>
          <Button onClick={() => late && runApprove(late, true)} disabled={approve.isPending}>
            <Check className="size-4" aria-hidden="true" />
            Approve and publish now
          </Button>
        </ModalActions>
      </Modal>
    </div>
  );
}
