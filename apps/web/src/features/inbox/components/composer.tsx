import { INBOX_NOTE_MAX, type InboxConversation, type InboxMessage } from '@herald/contract';
import { Lock, Reply, Send, StickyNote, X } from 'lucide-react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { sendTyping, useAddNote, useSendReply } from '../api/inbox';
import { personName, timeLeft } from './format';
import { NOTES_ARE_PRIVATE } from './message-item';
import { SavedRepliesMenu } from './saved-replies';

export const EMPTY_REPLY = 'Reply cannot be empty.';
export const EMPTY_NOTE = 'Write the note first.';
/** A teammate's "is replying…" is refreshed at most this often while they type, in ms. */
export const TYPING_EVERY_MS = 4_000;

/** A fresh idempotency key: one per draft, kept across retries until the server takes it. */
const newClientKey = () => crypto.randomUUID();

export interface ReplyTarget {
  message: InboxMessage;
  private: boolean;
}

function useMinuteClock() {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * The reply box: Enter sends, Shift+Enter adds a line, a reply empty after trimming is not sent.
 * One clientKey per draft, so a second press (or a retry after a lost answer) sends one message.
 * Also writes internal notes, which are never sent.
 */
export function Composer({
  orgId,
  conversation,
  target,
  onClearTarget,
}: {
  orgId: string;
  conversation: InboxConversation;
  target: ReplyTarget | null;
  onClearTarget: () => void;
}) {
  const [mode, setMode] = useState<'reply' | 'note'>('reply');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const clientKey = useRef(newClientKey());
  // Two presses in the same instant: the second sees the first in flight before React re-renders.
  const inFlight = useRef(false);
  const lastTyping = useRef(0);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const send = useSendReply(orgId);
  const addNote = useAddNote(orgId);
  const now = useMinuteClock();
  const { window: replyWindow, capabilities } = conversation;

  useEffect(() => {
    if (target) {
      setMode('reply');
      textarea.current?.focus();
    }
  }, [target]);

  // Leaving the conversation with a started reply: teammates stop seeing "is replying…".
  useEffect(
    () => () => {
      if (lastTyping.current) void sendTyping(orgId, conversation.id, false);
    },
    [orgId, conversation.id],
  );

  const isNote = mode === 'note';
  const closedReason = isNote
    ? null
    : target?.private
      ? null
      : !capabilities.reply
        ? 'Replies are not possible in this conversation.'
        : !replyWindow.open
          ? (replyWindow.reason ?? 'The reply window of this conversation is closed.')
          : null;
  const limit = isNote ? INBOX_NOTE_MAX : capabilities.replyMaxLength;
  const left = limit - text.length;
  const blank = text.trim() === '';
  const pending = send.isPending || addNote.isPending;
  const disabled = closedReason !== null;

  const stopTyping = () => {
    if (lastTyping.current) void sendTyping(orgId, conversation.id, false);
    lastTyping.current = 0;
  };

  const onText = (value: string) => {
    setText(value);
    if (error) setError(null);
    if (isNote || !value.trim()) return;
    const time = Date.now();
    if (time - lastTyping.current >= TYPING_EVERY_MS) {
      lastTyping.current = time;
      void sendTyping(orgId, conversation.id, true);
    }
  };

  const submit = () => {
    if (pending || disabled || inFlight.current) return;
    const trimmed = text.trim();
    if (!trimmed) {
      setError(isNote ? EMPTY_NOTE : EMPTY_REPLY);
      return;
    }
    if (left < 0) return;
    if (isNote) {
      addNote.mutate(
        { conversationId: conversation.id, text: trimmed },
        {
          onSuccess: () => setText(''),
          onError: (e) => setError(errorMessage(e, 'The note could not be saved.')),
        },
      );
      return;
    }
    inFlight.current = true;
    send.mutate(
      {
        conversationId: conversation.id,
        text: trimmed,
        clientKey: clientKey.current,
        ...(target && !target.private ? { replyTo: target.message.id } : {}),
        ...(target?.private ? { privateReplyTo: target.message.id } : {}),
      },
      {
        onSuccess: () => {
          setText('');
          clientKey.current = newClientKey();
          stopTyping();
          onClearTarget();
        },
        // The draft and its key stay: sending again cannot send twice.
        onError: (e) => setError(errorMessage(e, 'The reply could not be sent. Please try again.')),
        onSettled: () => {
          inFlight.current = false;
        },
      },
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };

  const insert = (saved: string) => {
    onText(text.trim() ? `${text.trimEnd()}\n${saved}` : saved);
    textarea.current?.focus();
  };

  return (
    <div className={cn('border-t border-slate-200 p-3', isNote ? 'bg-amber-50/60' : 'bg-white')}>
      <div className="mb-2 flex flex-wrap items-center gap-2">
        <div role="group" aria-label="Write" className="flex rounded-lg bg-slate-100 p-0.5">
          {(['reply', 'note'] as const).map((value) => (
            <button
              key={value}
              type="button"
              aria-pressed={mode === value}
              onClick={() => {
                setMode(value);
                setError(null);
              }}
              className={cn(
                'inline-flex items-center gap-1 rounded-md px-2.5 py-1 text-xs font-semibold focus-visible:outline-2 focus-visible:outline-indigo-600',
                mode === value ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600',
              )}
            >
              {value === 'reply' ? (
                <Reply className="size-3.5" aria-hidden="true" />
              ) : (
                <StickyNote className="size-3.5" aria-hidden="true" />
              )}
              {value === 'reply' ? 'Reply' : 'Note'}
            </button>
          ))}
        </div>
        {isNote ? (
          <span className="text-xs text-amber-900">{NOTES_ARE_PRIVATE}</span>
        ) : (
          replyWindow.open &&
          replyWindow.closesAt && (
            <span className="text-xs text-slate-600">
              Replies possible for {timeLeft(replyWindow.closesAt, now)} more
            </span>
          )
        )}
      </div>
      {!isNote && target && (
        <div className="mb-2 flex items-center gap-2 rounded-lg bg-slate-100 px-2 py-1 text-xs text-slate-700">
          {target.private ? (
            <Lock className="size-3.5 shrink-0" aria-hidden="true" />
          ) : (
            <Reply className="size-3.5 shrink-0" aria-hidden="true" />
          )}
          <span className="min-w-0 flex-1 truncate">
            {target.private
              ? `Private reply to ${personName(target.message.sender)}, sent as a direct message`
              : `Replying to ${personName(target.message.sender)}'s comment`}
          </span>
          <button
            type="button"
            onClick={onClearTarget}
            aria-label="Cancel replying to this comment"
            className="rounded p-0.5 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <X className="size-3.5" aria-hidden="true" />
          </button>
        </div>
      )}
      {closedReason && (
        <p
          id="composer-closed"
          className="mb-2 rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-700"
        >
          {closedReason}
        </p>
      )}
      <textarea
        ref={textarea}
        value={text}
        onChange={(event) => onText(event.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => {
          if (!text.trim()) stopTyping();
        }}
        disabled={disabled}
        rows={2}
        aria-label={isNote ? 'Note' : 'Reply'}
        aria-describedby={cn(
          closedReason && 'composer-closed',
          error && 'composer-error',
          'composer-hint',
        )}
        aria-invalid={error ? true : undefined}
        placeholder={
          isNote
            ? 'Write a note for your team…'
            : 'Write a reply… Enter sends, Shift+Enter adds a line.'
        }
        className={cn(
          'block w-full resize-y rounded-lg border px-3 py-2 text-sm disabled:cursor-not-allowed disabled:bg-slate-100',
          error ? 'border-red-500' : 'border-slate-300',
        )}
      />
      {error && (
        <p id="composer-error" role="alert" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="mt-2 flex items-center gap-2">
        {!isNote && <SavedRepliesMenu orgId={orgId} onPick={insert} disabled={disabled} />}
        <span
          id="composer-hint"
          className={cn(
            'ml-auto min-w-0 truncate text-xs',
            left < 0 ? 'font-semibold text-red-700' : 'text-slate-600',
          )}
        >
          {left < 0
            ? `${-left} characters over the limit`
            : `${left.toLocaleString('en-US')} characters left`}
        </span>
        <Button
          onClick={submit}
          disabled={disabled || blank || pending || left < 0}
          size="sm"
          className="shrink-0"
        >
          {isNote ? (
            <StickyNote className="size-4" aria-hidden="true" />
          ) : (
            <Send className="size-4" aria-hidden="true" />
          )}
          {isNote ? 'Add note' : 'Send'}
        </Button>
      </div>
    </div>
  );
}
