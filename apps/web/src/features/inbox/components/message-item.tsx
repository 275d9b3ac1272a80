import type { InboxAttachment, InboxCapabilities, InboxMessage, InboxNote } from '@herald/contract';
import {
  CheckCheck,
  Clock,
  EyeOff,
  Heart,
  Lock,
  Reply,
  StickyNote,
  Trash2,
  TriangleAlert,
} from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { RelativeTime } from '@/components/ui/relative-time';
import { cn } from '@/lib/cn';
import type { MessageAction } from '../api/inbox';
import { personName } from './format';
import { StarRating } from './star-rating';

export const NOTES_ARE_PRIVATE = 'Only your team sees notes';

/** A private reply's other side: the comment it answered, or the DM it became. */
function PrivateReplyLink({ link }: { link: NonNullable<InboxMessage['privateReplyLink']> }) {
  const to = `/inbox?c=${encodeURIComponent(link.conversationId)}`;
  return link.commentText !== null ? (
    <p className="text-xs text-slate-600">
      In answer to the comment{' '}
      <Link to={to} className="font-medium text-indigo-700 underline hover:text-indigo-900">
        “{link.commentText.length > 80 ? `${link.commentText.slice(0, 80)}…` : link.commentText}”
      </Link>
    </p>
  ) : (
    <p className="text-xs text-slate-600">
      Sent as a direct message.{' '}
      <Link to={to} className="font-medium text-indigo-700 underline hover:text-indigo-900">
        Open the conversation
      </Link>
    </p>
  );
}

function Attachment({ attachment }: { attachment: InboxAttachment }) {
  const src = attachment.url ?? attachment.previewUrl;
  const title = attachment.title?.trim();
  switch (attachment.type) {
    case 'image':
      return src ? (
        <img
          src={src}
          alt={title || 'Image'}
          className="max-h-64 max-w-full rounded-lg border border-slate-200 object-contain"
        />
      ) : null;
    case 'sticker':
      return src ? <img src={src} alt={title || 'Sticker'} className="size-24" /> : null;
    case 'video':
      return attachment.url ? (
        <video
          src={attachment.url}
          poster={attachment.previewUrl ?? undefined}
          controls
          aria-label={title || 'Video'}
          className="max-h-64 max-w-full rounded-lg bg-black"
        />
      ) : null;
    case 'audio':
      return attachment.url ? (
        <audio src={attachment.url} controls aria-label={title || 'Voice message'} />
      ) : null;
    case 'share':
      return (
        <a
          href={attachment.url ?? undefined}
          target="_blank"
          rel="noreferrer"
          className="flex max-w-xs items-center gap-2 rounded-lg border border-slate-200 bg-white p-2 text-sm text-slate-800 hover:bg-slate-50"
        >
          {attachment.previewUrl && (
            <img src={attachment.previewUrl} alt="" className="size-12 rounded object-cover" />
          )}
          <span className="min-w-0">
            <span className="block text-xs text-slate-600">Shared post</span>
            <span className="line-clamp-2 break-words">{title || attachment.url}</span>
          </span>
        </a>
      );
    case 'file':
      return attachment.url ? (
        <a
          href={attachment.url}
          target="_blank"
          rel="noreferrer"
          className="text-sm break-all text-indigo-700 underline"
        >
          {title || 'Attached file'}
        </a>
      ) : null;
  }
}

function ActionButton({
  onClick,
  children,
  disabled,
}: {
  onClick: () => void;
  children: ReactNode;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      className="inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-50"
    >
      {children}
    </button>
  );
}

/** What became of one of our replies, with the choices when it is not known or failed. */
function Delivery({
  message,
  onAction,
  canAct,
  busy,
}: {
  message: InboxMessage;
  onAction: (action: MessageAction) => void;
  canAct: boolean;
  busy: boolean;
}) {
  switch (message.delivery) {
    case 'pending':
      return (
        <span className="inline-flex items-center gap-1 text-xs text-slate-600">
          <Clock className="size-3" aria-hidden="true" /> Sending…
        </span>
      );
    case 'sent':
      return (
        <span className="inline-flex items-center gap-1 text-xs text-slate-600">
          <CheckCheck className="size-3" aria-hidden="true" /> Sent
        </span>
      );
    case 'failed':
    case 'uncertain': {
      const uncertain = message.delivery === 'uncertain';
      return (
        <div
          role="status"
          className="mt-1 flex flex-col gap-1 rounded-lg border border-red-200 bg-red-50 p-2 text-xs text-red-900"
        >
          <p className="flex items-start gap-1 font-medium">
            <TriangleAlert className="mt-px size-3.5 shrink-0" aria-hidden="true" />
            {uncertain
              ? 'Herald could not tell whether this reply reached the network.'
              : 'This reply was not sent.'}
          </p>
          {message.error && <p className="break-words">{message.error}</p>}
          {uncertain && (
            <p>
              Look on the network: if the reply is there, mark it as sent; otherwise send it again.
            </p>
          )}
          {canAct && (
            <div className="flex flex-wrap gap-1.5">
              {uncertain && (
                <ActionButton
                  disabled={busy}
                  onClick={() => onAction({ type: 'resolve', action: 'sent' })}
                >
                  Mark as sent
                </ActionButton>
              )}
              <ActionButton
                disabled={busy}
                onClick={() => onAction({ type: 'resolve', action: 'resend' })}
              >
                Send again
              </ActionButton>
              <ActionButton
                disabled={busy}
                onClick={() => onAction({ type: 'resolve', action: 'discard' })}
              >
                Discard
              </ActionButton>
            </div>
          )}
        </div>
      );
    }
    default:
      return null;
  }
}

export function MessageItem({
  message,
  platform,
  capabilities,
  canAct,
  busy,
  onAction,
  onReplyTo,
  onPrivateReply,
}: {
  message: InboxMessage;
  platform: string;
  capabilities: InboxCapabilities;
  canAct: boolean;
  busy: boolean;
  onAction: (action: MessageAction) => void;
  onReplyTo: (message: InboxMessage) => void;
  onPrivateReply: (message: InboxMessage) => void;
}) {
  const [confirmDelete, setConfirmDelete] = useState(false);
  const ours = message.direction === 'out';
  const name = ours
    ? (message.sender.teammate?.displayName ?? personName(message.sender))
    : personName(message.sender);
  const isComment = message.kind === 'comment';
  const commentActions = canAct && isComment && !ours && !message.deleted;
  // Where only the organization's own replies can be deleted, Delete sits on those instead.
  const deleteHere =
    capabilities.deleteOnNetwork && Boolean(capabilities.deleteOwnRepliesOnly) === ours;

  return (
    <li className={cn('flex', ours ? 'justify-end' : 'justify-start')}>
      <article
        aria-label={`${ours ? 'Reply' : 'Message'} from ${name}`}
        className={cn(
          'flex max-w-[85%] min-w-0 flex-col gap-1 rounded-2xl px-3 py-2 sm:max-w-[75%]',
          ours ? 'bg-indigo-50 text-slate-900' : 'border border-slate-200 bg-white text-slate-900',
          message.hidden && 'opacity-70',
        )}
      >
        <header className="flex flex-wrap items-baseline gap-x-2 text-xs text-slate-600">
          <span className="font-semibold text-slate-700">{name}</span>
          {ours && message.sender.teammate && <span>via Herald</span>}
          <RelativeTime iso={message.createdAt} className="text-slate-600" />
          {message.privateReply && (
            <span className="inline-flex items-center gap-0.5">
              <Lock className="size-3" aria-hidden="true" /> Private reply
            </span>
          )}
          {message.hidden && (
            <span className="inline-flex items-center gap-0.5">
              <EyeOff className="size-3" aria-hidden="true" /> Hidden on {platform}
            </span>
          )}
          {message.liked && (
            <span className="inline-flex items-center gap-0.5 text-rose-600">
              <Heart className="size-3 fill-current" aria-hidden="true" /> Liked
            </span>
          )}
        </header>
        {message.privateReplyLink && <PrivateReplyLink link={message.privateReplyLink} />}
        {message.deleted ? (
          <p className="text-sm text-slate-600 italic">This message was deleted.</p>
        ) : (
          <>
            {message.rating !== null && <StarRating rating={message.rating} />}
            {message.text && (
              <p className="text-sm break-words whitespace-pre-wrap">
                {message.text}
                {message.edited && <span className="text-xs text-slate-600"> (edited)</span>}
              </p>
            )}
            {message.attachments.map((attachment, index) => (
              <Attachment key={index} attachment={attachment} />
            ))}
          </>
        )}
        {ours && <Delivery message={message} onAction={onAction} canAct={canAct} busy={busy} />}
        {ours && canAct && isComment && !message.deleted && deleteHere && (
          <div className="-mx-1.5 flex flex-wrap gap-0.5">
            <ActionButton disabled={busy} onClick={() => setConfirmDelete(true)}>
              <Trash2 className="size-3" aria-hidden="true" /> Delete on {platform}
            </ActionButton>
          </div>
        )}
        {commentActions && (
          <div className="-mx-1.5 flex flex-wrap gap-0.5">
            {capabilities.reply && (
              <ActionButton onClick={() => onReplyTo(message)}>
                <Reply className="size-3" aria-hidden="true" /> Reply to this comment
              </ActionButton>
            )}
            {capabilities.privateReply && message.canPrivateReply && (
              <ActionButton onClick={() => onPrivateReply(message)}>
                <Lock className="size-3" aria-hidden="true" /> Private reply
              </ActionButton>
            )}
            {capabilities.like && (
              <ActionButton
                disabled={busy}
                onClick={() => onAction({ type: 'like', liked: !message.liked })}
              >
                <Heart className="size-3" aria-hidden="true" /> {message.liked ? 'Unlike' : 'Like'}
              </ActionButton>
            )}
            {capabilities.hide && (
              <ActionButton
                disabled={busy}
                onClick={() => onAction({ type: 'hide', hidden: !message.hidden })}
              >
                <EyeOff className="size-3" aria-hidden="true" />
                {message.hidden ? 'Unhide' : 'Hide'}
              </ActionButton>
            )}
            {deleteHere && (
              <ActionButton disabled={busy} onClick={() => setConfirmDelete(true)}>
                <Trash2 className="size-3" aria-hidden="true" /> Delete on {platform}
              </ActionButton>
            )}
          </div>
        )}
      </article>
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={ours ? 'Delete this reply?' : 'Delete this comment?'}
        message={
          ours
            ? `Your reply is deleted on ${platform} for everyone. This cannot be undone.`
            : `The comment by ${name} is deleted on ${platform} for everyone. This cannot be undone.`
        }
        confirmLabel={ours ? 'Delete reply' : 'Delete comment'}
        isPending={busy}
        onConfirm={() => {
          onAction({ type: 'delete' });
          setConfirmDelete(false);
        }}
      />
    </li>
  );
}

/** An internal note among the messages: amber, marked, never sent. */
export function NoteItem({ note }: { note: InboxNote }) {
  return (
    <li className="flex justify-center">
      <article
        aria-label={`Note by ${note.author?.displayName ?? 'a teammate'}`}
        className="flex w-full max-w-[90%] min-w-0 flex-col gap-1 rounded-xl border border-dashed border-amber-400 bg-amber-50 px-3 py-2 text-amber-950"
      >
        <header className="flex flex-wrap items-baseline gap-x-2 text-xs">
          <span className="inline-flex items-center gap-1 font-semibold">
            <StickyNote className="size-3.5" aria-hidden="true" /> Note
          </span>
          <span className="font-medium">{note.author?.displayName ?? 'A teammate'}</span>
          <RelativeTime iso={note.createdAt} className="text-amber-800" />
          <span className="text-amber-800">{NOTES_ARE_PRIVATE}</span>
        </header>
        <p className="text-sm break-words whitespace-pre-wrap">{note.text}</p>
      </article>
    </li>
  );
}
