import type { Comment } from '@herald/contract';
import { Heart, MessageSquareReply, Pencil, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Avatar } from '@/components/ui/avatar';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { RelativeTime } from '@/components/ui/relative-time';
import { isApiError } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { useCan } from '@/lib/permissions';
import { toast, toastError } from '@/lib/toast';
import { useDeleteComment, useEditComment, useReplyToComment } from '../../api/comments';
import { CommentForm } from './comment-form';

export const REPLY_EMPTY = 'Reply cannot be empty.';
export const REPLY_FAILED = 'Failed to post reply.';
export const EDIT_EMPTY = 'A comment cannot be empty.';
export const EDIT_FAILED = 'Failed to edit comment.';
export const DELETE_COMMENT_QUESTION = 'Are you sure you want to delete this comment?';
export const DELETE_COMMENT_FAILED = 'Failed to delete comment.';

/** What a network cannot do with comments, in the server's words ('… not available for X.'). */
export interface Unsupported {
  edit?: string;
  delete?: string;
}

/** The server's "this network cannot do that" (400), as opposed to a refusal of this text. */
export function unavailableReason(error: unknown): string | null {
  if (isApiError(error) && error.status === 400 && /not available/i.test(error.message)) {
    return error.message;
  }
  return null;
}

const action =
  'inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-xs font-semibold text-slate-600 ' +
  'hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600';

export interface CommentItemProps {
  comment: Comment;
  orgId: string;
  /** Herald's post id (the thread's post on the network is found from it). */
  internalPostId: string;
  /** Herald's platform id. */
  platformDbId: string;
  /** The account the post went out from, where it went out from several of the network. */
  integrationId?: string | null;
  platformName: string;
  isReply?: boolean;
  unsupported: Unsupported;
  onUnsupported: (what: keyof Unsupported, reason: string) => void;
}

/**
 * docs/product.md#comment-entity, #comment-states: author, time, text and likes; a like toggle (counted here only), a reply
 * form, and for the connected account's own comments Edit and Delete. Replies nest below.
 */
export function CommentItem({
  comment,
  orgId,
  internalPostId,
  platformDbId,
  integrationId = null,
  platformName,
  isReply = false,
  unsupported,
  onUnsupported,
}: CommentItemProps) {
  const authorId = useId();
  const scope = { orgId, postId: internalPostId, platformId: platformDbId, integrationId };
  const mayReply = useCan(
    'POST /organization/:orgId/platform/:platformId/comment/:commentId/replies',
  );
  const mayEdit = useCan('PUT /organization/:orgId/platform/:platformId/comment/:commentId');
  const mayDelete = useCan('DELETE /organization/:orgId/platform/:platformId/comment/:commentId');
  const reply = useReplyToComment(scope);
  const edit = useEditComment(scope);
  const remove = useDeleteComment(scope);
  const [liked, setLiked] = useState(false);
  const [isReplying, setReplying] = useState(false);
  const [isEditing, setEditing] = useState(false);
  const [isConfirmingDelete, setConfirmingDelete] = useState(false);

  const author = comment.from.name.trim() || 'Unknown';
  const likes = comment.likes + (liked ? 1 : 0);
  const canEdit = comment.isOwn && mayEdit && !unsupported.edit;
  const canDelete = comment.isOwn && mayDelete && !unsupported.delete;

  const sendReply = (message: string) =>
    reply.mutate(
      { commentId: comment.id, message },
      {
        onSuccess: () => setReplying(false),
        onError: (error) => toastError(error, REPLY_FAILED),
      },
    );

  const saveEdit = (message: string) =>
    edit.mutate(
      { commentId: comment.id, message },
      {
        onSuccess: () => {
          setEditing(false);
          toast.success('Comment updated.');
        },
        onError: (error) => {
          const reason = unavailableReason(error);
          if (reason) {
            setEditing(false);
            onUnsupported('edit', reason);
          }
          toastError(error, EDIT_FAILED);
        },
      },
    );

  const confirmDelete = () =>
    remove.mutate(comment.id, {
      onSuccess: () => toast.success('Comment deleted.'),
      onError: (error) => {
        const reason = unavailableReason(error);
        if (reason) onUnsupported('delete', reason);
        toastError(error, DELETE_COMMENT_FAILED);
      },
      onSettled: () => setConfirmingDelete(false),
    });

  return (
    <li className={cn('flex gap-3', isReply ? 'pt-3' : 'py-3')}>
      <Avatar
        name={author}
        url={comment.from.picture.data.url}
        className={isReply ? 'size-7 text-xs' : 'size-9'}
      />
      <article aria-labelledby={authorId} className="flex min-w-0 flex-1 flex-col gap-1">
        <header className="flex flex-wrap items-baseline gap-x-2">
          <span id={authorId} className="text-sm font-semibold text-slate-900">
            {author}
          </span>
          <RelativeTime iso={comment.created_time} />
        </header>
        {isEditing ? (
          <CommentForm
            label="Edit comment"
            initialValue={comment.message}
            submitLabel="Save"
            emptyMessage={EDIT_EMPTY}
            isPending={edit.isPending}
            onSubmit={saveEdit}
            onCancel={() => setEditing(false)}
          />
        ) : (
          <p className="text-sm break-words whitespace-pre-wrap text-slate-800">
            {comment.message}
          </p>
        )}
        <div className="flex flex-wrap items-center gap-1">
          <button
            type="button"
            aria-pressed={liked}
            onClick={() => setLiked((value) => !value)}
            className={cn(action, liked && 'text-rose-700')}
          >
            <Heart className={cn('size-3.5', liked && 'fill-current')} aria-hidden="true" />
            Like
          </button>
          <span className="text-xs text-slate-600">
            {likes} {likes === 1 ? 'like' : 'likes'}
          </span>
          {mayReply && (
            <button
              type="button"
              aria-expanded={isReplying}
              onClick={() => setReplying((value) => !value)}
              className={action}
            >
              <MessageSquareReply className="size-3.5" aria-hidden="true" />
              Reply
            </button>
          )}
          {canEdit && !isEditing && (
            <button type="button" onClick={() => setEditing(true)} className={action}>
              <Pencil className="size-3.5" aria-hidden="true" />
              Edit
            </button>
          )}
          {canDelete && (
            <button
              type="button"
              onClick={() => setConfirmingDelete(true)}
              className={cn(action, 'hover:text-red-700')}
            >
              <Trash2 className="size-3.5" aria-hidden="true" />
              Delete
            </button>
          )}
        </div>
        {isReplying && (
          <CommentForm
            label={`Reply to ${author}`}
            placeholder={`Reply on ${platformName}…`}
            submitLabel="Send"
            emptyMessage={REPLY_EMPTY}
            isPending={reply.isPending}
            onSubmit={sendReply}
            onCancel={() => setReplying(false)}
          />
        )}
        {comment.replies.length > 0 && (
          <ul aria-label={`Replies to ${author}`} className="border-l border-slate-100 pl-3">
            {comment.replies.map((child) => (
              <CommentItem
                key={child.id}
                comment={child}
                orgId={orgId}
                internalPostId={internalPostId}
                platformDbId={platformDbId}
                integrationId={integrationId}
                platformName={platformName}
                isReply
                unsupported={unsupported}
                onUnsupported={onUnsupported}
              />
            ))}
          </ul>
        )}
      </article>
      <ConfirmDialog
        open={isConfirmingDelete}
        onOpenChange={setConfirmingDelete}
        title="Delete this comment?"
        message={DELETE_COMMENT_QUESTION}
        confirmLabel="Delete"
        onConfirm={confirmDelete}
        isPending={remove.isPending}
      />
    </li>
  );
}
