import {
  INBOX_LABELS_PER_CONVERSATION,
  type InboxConversation,
  type InboxMessage,
  type InboxNote,
} from '@herald/contract';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import {
  ArrowLeft,
  Ban,
  CheckCircle2,
  ExternalLink,
  MailWarning,
  MoreVertical,
  RotateCcw,
  Tag,
  Trash2,
} from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LoadError } from '@/components/ui/load-error';
import { NetworkMark } from '@/components/ui/network-mark';
import { LoadingIndicator } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { useTypists } from '@/lib/inbox';
import { toast, toastError } from '@/lib/toast';
import {
  fetchOlderMessages,
  useArchiveConversation,
  useAssignableTeammates,
  useBlockPerson,
  useMessageAction,
  useThread,
  useUpdateConversation,
  type MessageAction,
} from '../api/inbox';
import { Composer, type ReplyTarget } from './composer';
import { kindText, labelText, personName } from './format';
import { MessageItem, NoteItem } from './message-item';
import { MENU_CONTENT, MENU_ITEM } from './saved-replies';

export const NO_THREAD_MESSAGES = 'No messages yet. Start a conversation!';

type Entry = { kind: 'message'; item: InboxMessage } | { kind: 'note'; item: InboxNote };

/** "Ada is replying…", "Ada and Bo are replying…". */
export function typingText(names: string[]): string | null {
  if (names.length === 0) return null;
  if (names.length === 1) return `${names[0]} is replying…`;
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} are replying…`;
}

function ThreadHeader({
  orgId,
  conversation,
  labels,
  canSend,
  onBack,
  onClosed,
}: {
  orgId: string;
  conversation: InboxConversation;
  labels: string[];
  canSend: boolean;
  onBack: () => void;
  onClosed: () => void;
}) {
  const update = useUpdateConversation(orgId);
  const archive = useArchiveConversation(orgId);
  const block = useBlockPerson(orgId);
  const teammates = useAssignableTeammates(orgId, { enabled: canSend });
  const [confirm, setConfirm] = useState<'delete' | 'block' | null>(null);
  const person = conversation.participant;
  const done = conversation.status === 'done';

  const change = (
    patch: Parameters<typeof update.mutate>[0]['change'],
    success: string,
    after?: () => void,
  ) =>
    update.mutate(
      { id: conversation.id, change: patch },
      {
        onSuccess: () => {
          toast.success(success, { id: 'inbox-change' });
          after?.();
        },
        onError: (e) => toastError(e, 'The conversation could not be changed. Please try again.'),
      },
    );

  const toggleLabel = (label: string, on: boolean) => {
    const next = on
      ? [...conversation.labels, label]
      : conversation.labels.filter((l) => l !== label);
    change(
      { labels: next },
      on ? `Label ${labelText(label)} added.` : `Label ${labelText(label)} removed.`,
    );
  };

  const assignees = teammates.data ?? [];
  const current = conversation.assignee;
  const options =
    current && !assignees.some((t) => t.id === current.id)
      ? [...assignees, { id: current.id, name: current.displayName ?? 'A teammate' }]
      : assignees;

  return (
    <header className="flex flex-col gap-2 border-b border-slate-200 p-3">
      <div className="flex items-start gap-2">
        <button
          type="button"
          onClick={onBack}
          className="-ml-1 rounded-lg p-1.5 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600 lg:hidden"
          aria-label="Back to conversations"
        >
          <ArrowLeft className="size-5" aria-hidden="true" />
        </button>
        <Avatar
          name={conversation.title}
          url={person.pictureUrl}
          className="size-10 max-sm:hidden"
        />
        <div className="min-w-0 flex-1">
          <h2 className="truncate text-base font-semibold text-slate-900">{conversation.title}</h2>
          <p className="flex min-w-0 items-center gap-1.5 text-xs text-slate-600">
            <NetworkMark name={conversation.platform} size="xs" className="size-4" />
            <span className="truncate">
              {person.username ? `@${person.username} · ` : ''}
              {kindText(conversation)} on {conversation.platform}
              {conversation.account.name ? ` · ${conversation.account.name}` : ''}
            </span>
          </p>
        </div>
        {canSend && (
          <Button
            variant="secondary"
            size="sm"
            disabled={update.isPending}
            onClick={() =>
              done
                ? change({ status: 'open' }, 'Conversation reopened.')
                : change({ status: 'done' }, 'Marked as done.', onClosed)
            }
          >
            {done ? (
              <RotateCcw className="size-4" aria-hidden="true" />
            ) : (
              <CheckCircle2 className="size-4" aria-hidden="true" />
            )}
            {done ? 'Reopen' : 'Done'}
          </Button>
        )}
        <DropdownMenu.Root modal={false}>
          <DropdownMenu.Trigger
            aria-label="Conversation actions"
            className="rounded-lg p-1.5 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <MoreVertical className="size-5" aria-hidden="true" />
          </DropdownMenu.Trigger>
          <DropdownMenu.Content align="end" sideOffset={6} className={MENU_CONTENT}>
            {person.profileUrl && (
              <DropdownMenu.Item asChild className={MENU_ITEM}>
                <a href={person.profileUrl} target="_blank" rel="noreferrer">
                  <ExternalLink className="size-4" aria-hidden="true" />
                  View profile
                </a>
              </DropdownMenu.Item>
            )}
            {canSend && (
              <DropdownMenu.Item
                className={MENU_ITEM}
                onSelect={() => change({ unread: true }, 'Marked as unread.')}
              >
                <MailWarning className="size-4" aria-hidden="true" />
                Mark as unread
              </DropdownMenu.Item>
            )}
            {canSend && conversation.capabilities.block && (
              <DropdownMenu.Item className={MENU_ITEM} onSelect={() => setConfirm('block')}>
                <Ban className="size-4" aria-hidden="true" />
                Block
              </DropdownMenu.Item>
            )}
            {canSend && (
              <DropdownMenu.Item className={MENU_ITEM} onSelect={() => setConfirm('delete')}>
                <Trash2 className="size-4" aria-hidden="true" />
                Delete conversation
              </DropdownMenu.Item>
            )}
            {!person.profileUrl && !canSend && (
              <p className="px-3 py-2 text-sm text-slate-600">Nothing to do here.</p>
            )}
          </DropdownMenu.Content>
        </DropdownMenu.Root>
      </div>
      <div className="flex flex-wrap items-center gap-2 text-xs">
        {canSend ? (
          <>
            <label htmlFor="inbox-assign" className="sr-only">
              Assign to
            </label>
            <select
              id="inbox-assign"
              value={current?.id ?? ''}
              disabled={update.isPending}
              onChange={(event) => {
                const id = event.target.value || null;
                const name = options.find((t) => t.id === id)?.name;
                change(
                  { assigneeId: id },
                  id ? `Assigned to ${name ?? 'a teammate'}.` : 'Unassigned.',
                );
              }}
              className="max-w-48 min-w-0 rounded-lg border border-slate-300 bg-white px-2 py-1 text-xs text-slate-800"
            >
              <option value="">Unassigned</option>
              {options.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
            <DropdownMenu.Root modal={false}>
              <DropdownMenu.Trigger className="inline-flex items-center gap-1 rounded-lg border border-slate-300 bg-white px-2 py-1 font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600">
                <Tag className="size-3.5" aria-hidden="true" />
                Labels
              </DropdownMenu.Trigger>
              <DropdownMenu.Content align="start" sideOffset={6} className={MENU_CONTENT}>
                {labels.map((label) => {
                  const on = conversation.labels.includes(label);
                  return (
                    <DropdownMenu.CheckboxItem
                      key={label}
                      checked={on}
                      disabled={!on && conversation.labels.length >= INBOX_LABELS_PER_CONVERSATION}
                      onCheckedChange={(checked) => toggleLabel(label, checked)}
                      className={MENU_ITEM}
                    >
                      <span
                        className="grid size-4 place-items-center rounded border border-slate-400 text-[10px]"
                        aria-hidden="true"
                      >
                        {on ? '✓' : ''}
                      </span>
                      {labelText(label)}
                    </DropdownMenu.CheckboxItem>
                  );
                })}
              </DropdownMenu.Content>
            </DropdownMenu.Root>
          </>
        ) : (
          <span className="text-slate-600">
            {current ? `Assigned to ${current.displayName ?? 'a teammate'}` : 'Unassigned'}
          </span>
        )}
        {conversation.labels.length > 0 && (
          <ul aria-label="Labels" className="flex flex-wrap gap-1">
            {conversation.labels.map((label) => (
              <li
                key={label}
                className="rounded-full bg-slate-100 px-2 py-0.5 font-medium text-slate-700"
              >
                {labelText(label)}
              </li>
            ))}
          </ul>
        )}
        {done && <span className="font-medium text-emerald-700">Done</span>}
      </div>
      <ConfirmDialog
        open={confirm === 'delete'}
        onOpenChange={(open) => setConfirm(open ? 'delete' : null)}
        title="Delete this conversation?"
        message={`It is archived in Herald and leaves the inbox for the whole team. Nothing is deleted on ${conversation.platform}.`}
        confirmLabel="Delete conversation"
        isPending={archive.isPending}
        onConfirm={() =>
          archive.mutate(conversation.id, {
            onSuccess: () => {
              setConfirm(null);
              toast.success('Conversation deleted.', { id: 'inbox-change' });
              onClosed();
            },
            onError: (e) => toastError(e, 'The conversation could not be deleted.'),
          })
        }
      />
      <ConfirmDialog
        open={confirm === 'block'}
        onOpenChange={(open) => setConfirm(open ? 'block' : null)}
        title={`Block ${personName(person)}?`}
        message={`${personName(person)} can no longer message ${conversation.account.name ?? 'this account'} on ${conversation.platform}.`}
        confirmLabel="Block"
        isPending={block.isPending}
        onConfirm={() =>
          block.mutate(conversation.id, {
            onSuccess: () => {
              setConfirm(null);
              toast.success(`${personName(person)} is blocked.`, { id: 'inbox-change' });
            },
            onError: (e) => toastError(e, `${personName(person)} could not be blocked.`),
          })
        }
      />
    </header>
  );
}

/** One conversation: its messages and notes by time, the team's controls, the reply box. */
export function Thread({
  orgId,
  conversationId,
  labels,
  canSend,
  selfId,
  onBack,
}: {
  orgId: string;
  conversationId: string;
  labels: string[];
  canSend: boolean;
  selfId: string | null;
  onBack: () => void;
}) {
  const thread = useThread(orgId, conversationId);
  const action = useMessageAction(orgId);
  const [target, setTarget] = useState<ReplyTarget | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const scroller = useRef<HTMLDivElement>(null);
  const seen = useRef<Set<string> | null>(null);
  const typing = typingText(useTypists(conversationId, selfId));
  // Older pages fetched with "Load older messages"; `undefined` cursor: the thread's own.
  const [older, setOlder] = useState<InboxMessage[]>([]);
  const [olderCursor, setOlderCursor] = useState<string | null | undefined>(undefined);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const cursor = olderCursor === undefined ? (thread.data?.olderCursor ?? null) : olderCursor;

  const entries = useMemo<Entry[]>(() => {
    if (!thread.data) return [];
    const latest = new Set(thread.data.messages.map((m) => m.id));
    const list: Entry[] = [
      ...older.filter((m) => !latest.has(m.id)).map((item) => ({ kind: 'message' as const, item })),
      ...thread.data.messages.map((item) => ({ kind: 'message' as const, item })),
      ...thread.data.notes.map((item) => ({ kind: 'note' as const, item })),
    ];
    return list.sort((a, b) => a.item.createdAt.localeCompare(b.item.createdAt));
  }, [thread.data, older]);
  const lastEntry = entries[entries.length - 1]?.item.id;

  // The newest entry in view: on opening, and when a message or note arrives at the bottom.
  useEffect(() => {
    const box = scroller.current;
    if (box && lastEntry) box.scrollTop = box.scrollHeight;
  }, [lastEntry]);

  // New messages from the other side are announced to screen readers (not those of the first load).
  useEffect(() => {
    const messages = thread.data?.messages;
    if (!messages) return;
    const fresh = seen.current ? messages.filter((m) => !seen.current?.has(m.id)) : [];
    seen.current = new Set(messages.map((m) => m.id));
    const incoming = fresh.filter((m) => m.direction === 'in');
    const last = incoming[incoming.length - 1];
    if (last)
      setAnnouncement(`New message from ${personName(last.sender)}: ${last.text.slice(0, 140)}`);
  }, [thread.data?.messages]);

  if (thread.isPending) {
    return <LoadingIndicator label="Loading the conversation" className="m-auto py-16" />;
  }
  if (!thread.data) {
    return (
      <div className="p-4">
        <button
          type="button"
          onClick={onBack}
          className="mb-3 inline-flex items-center gap-1 text-sm text-slate-700 lg:hidden"
        >
          <ArrowLeft className="size-4" aria-hidden="true" /> Back to conversations
        </button>
        <LoadError
          title="The conversation could not be loaded"
          message={errorMessage(thread.error, 'Please try again.')}
          onRetry={() => void thread.refetch()}
          isRetrying={thread.isFetching}
        />
      </div>
    );
  }

  const { conversation } = thread.data;
  const act = (message: InboxMessage, messageAction: MessageAction) =>
    action.mutate(
      { message, action: messageAction },
      { onError: (e) => toastError(e, 'That did not work. Please try again.') },
    );

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ThreadHeader
        orgId={orgId}
        conversation={conversation}
        labels={labels}
        canSend={canSend}
        onBack={onBack}
        onClosed={onBack}
      />
      {conversation.post && (
        <div className="border-b border-slate-200 bg-slate-50 px-3 py-2 text-xs text-slate-600">
          <span className="font-semibold text-slate-700">On the post: </span>
          <span className="break-words">{conversation.post.text?.slice(0, 160) || 'A post'}</span>
          {conversation.post.permalink && (
            <a
              href={conversation.post.permalink}
              target="_blank"
              rel="noreferrer"
              className="ml-2 inline-flex items-center gap-0.5 font-medium text-indigo-700 hover:underline"
            >
              Open on {conversation.platform}
              <ExternalLink className="size-3" aria-hidden="true" />
            </a>
          )}
        </div>
      )}
      <div
        ref={scroller}
        tabIndex={0}
        role="region"
        aria-label="Conversation history"
        className="min-h-0 flex-1 overflow-y-auto bg-slate-50/50 p-3 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        {cursor && (
          <div className="mb-3 text-center">
            <Button
              variant="secondary"
              size="sm"
              disabled={loadingOlder}
              onClick={() => {
                setLoadingOlder(true);
                fetchOlderMessages(orgId, conversationId, cursor)
                  .then((page) => {
                    setOlder((current) => [...page.messages, ...current]);
                    setOlderCursor(page.olderCursor);
                  })
                  .catch((e: unknown) => toastError(e, 'Older messages could not be loaded.'))
                  .finally(() => setLoadingOlder(false));
              }}
            >
              Load older messages
            </Button>
          </div>
        )}
        {entries.length === 0 ? (
          <p className="py-12 text-center text-sm text-slate-600">{NO_THREAD_MESSAGES}</p>
        ) : (
          <ol aria-label="Messages" className="flex flex-col gap-3">
            {entries.map((entry) =>
              entry.kind === 'note' ? (
                <NoteItem key={`n-${entry.item.id}`} note={entry.item} />
              ) : (
                <MessageItem
                  key={entry.item.id}
                  message={entry.item}
                  platform={conversation.platform}
                  capabilities={conversation.capabilities}
                  canAct={canSend}
                  busy={action.isPending}
                  onAction={(a) => act(entry.item, a)}
                  onReplyTo={(message) => setTarget({ message, private: false })}
                  onPrivateReply={(message) => setTarget({ message, private: true })}
                />
              ),
            )}
          </ol>
        )}
      </div>
      <p className="min-h-5 px-3 text-xs text-slate-600 italic">{typing ?? ''}</p>
      <div aria-live="polite" className="sr-only">
        {announcement}
      </div>
      {canSend && (
        <Composer
          key={conversation.id}
          orgId={orgId}
          conversation={conversation}
          target={target}
          onClearTarget={() => setTarget(null)}
        />
      )}
    </div>
  );
}
