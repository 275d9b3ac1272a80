import type { InboxConversation } from '@herald/contract';
import { UserRound } from 'lucide-react';
import { useRef, type KeyboardEvent } from 'react';
import { Avatar } from '@/components/ui/avatar';
import { NetworkMark } from '@/components/ui/network-mark';
import { RelativeTime } from '@/components/ui/relative-time';
import { cn } from '@/lib/cn';
import { kindText, labelText } from './format';
import { StarRating } from './star-rating';

export const NO_MESSAGES = 'No messages found';
export const LOADING = 'Loading conversations...';

const MOVES: Record<string, number> = { ArrowDown: 1, j: 1, ArrowUp: -1, k: -1 };

/**
 * The conversations, newest first. One tab stop: ↑/↓ or j/k move between them, Enter opens the
 * focused one.
 */
export function ConversationList({
  conversations,
  selectedId,
  onOpen,
}: {
  conversations: InboxConversation[];
  selectedId: string | null;
  onOpen: (conversation: InboxConversation) => void;
}) {
  const refs = useRef(new Map<string, HTMLButtonElement>());
  const focusIndex = Math.max(
    0,
    conversations.findIndex((c) => c.id === selectedId),
  );

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const step = MOVES[event.key];
    if (!step || event.altKey || event.ctrlKey || event.metaKey) return;
    const current = conversations.findIndex(
      (c) => refs.current.get(c.id) === document.activeElement,
    );
    const next = conversations[Math.min(conversations.length - 1, Math.max(0, current + step))];
    if (!next) return;
    event.preventDefault();
    refs.current.get(next.id)?.focus();
  };

  return (
    <ul aria-label="Conversations" onKeyDown={onKeyDown} className="divide-y divide-slate-100">
      {conversations.map((conversation, index) => {
        const selected = conversation.id === selectedId;
        const last = conversation.lastMessage;
        return (
          <li key={conversation.id}>
            <button
              ref={(node) => {
                if (node) refs.current.set(conversation.id, node);
                else refs.current.delete(conversation.id);
              }}
              type="button"
              data-conversation={conversation.id}
              tabIndex={index === focusIndex ? 0 : -1}
              aria-current={selected ? 'true' : undefined}
              onClick={() => onOpen(conversation)}
              className={cn(
                'flex w-full items-start gap-3 px-3 py-3 text-left focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600',
                selected ? 'bg-indigo-50' : 'hover:bg-slate-50',
              )}
            >
              <span className="relative shrink-0">
                <Avatar
                  name={conversation.title}
                  url={conversation.participant.pictureUrl}
                  className="size-10"
                />
                <NetworkMark
                  name={conversation.platform}
                  size="xs"
                  className="absolute -right-1 -bottom-1 size-4 rounded ring-2 ring-white"
                />
              </span>
              <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                <span className="flex items-baseline gap-2">
                  <span
                    className={cn(
                      'min-w-0 flex-1 truncate text-sm',
                      conversation.unread
                        ? 'font-bold text-slate-900'
                        : 'font-medium text-slate-800',
                    )}
                  >
                    {conversation.title}
                  </span>
                  <RelativeTime
                    iso={conversation.lastMessageAt}
                    className="shrink-0 text-slate-600"
                  />
                </span>
                <span className="flex items-center gap-2">
                  {conversation.rating !== null && <StarRating rating={conversation.rating} />}
                  <span
                    className={cn(
                      'min-w-0 flex-1 truncate text-sm',
                      conversation.unread ? 'text-slate-900' : 'text-slate-600',
                    )}
                  >
                    {last
                      ? `${last.direction === 'out' ? 'You: ' : ''}${last.text || (conversation.rating !== null ? 'Stars without words' : 'Attachment')}`
                      : 'No messages yet'}
                  </span>
                  {conversation.unread && (
                    <span className="size-2.5 shrink-0 rounded-full bg-indigo-600">
                      <span className="sr-only">Unread</span>
                    </span>
                  )}
                </span>
                <span className="flex flex-wrap items-center gap-1.5 text-xs text-slate-600">
                  <span>
                    <span className="sr-only">{conversation.platform}, </span>
                    {kindText(conversation)}
                  </span>
                  {conversation.labels.map((label) => (
                    <span
                      key={label}
                      className="rounded-full bg-slate-100 px-2 py-0.5 font-medium text-slate-700"
                    >
                      {labelText(label)}
                    </span>
                  ))}
                  {conversation.assignee && (
                    <span className="inline-flex min-w-0 items-center gap-1">
                      <UserRound className="size-3 shrink-0" aria-hidden="true" />
                      <span className="sr-only">Assigned to </span>
                      <span className="truncate">
                        {conversation.assignee.displayName ?? 'a teammate'}
                      </span>
                    </span>
                  )}
                </span>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
