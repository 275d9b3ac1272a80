import { INBOX_DEFAULT_LABELS, type InboxConversation } from '@herald/contract';
import { useEffect, useState, type KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { useAuth } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { errorMessage } from '@/lib/api-error';
import { useInboxSummary } from '@/lib/inbox';
import { usePermissions } from '@/lib/permissions';
import { useConversations, useUpdateConversation, type InboxListQuery } from '../api/inbox';
import { AccountNotices } from '../components/account-notices';
import { ConversationList, LOADING, NO_MESSAGES } from '../components/conversation-list';
import { LabelManager } from '../components/label-manager';
import { LIST_PANEL_ID, ListFilters, tabId } from '../components/list-filters';
import { Thread } from '../components/thread';

export const SELECT_A_CONVERSATION = 'Select a conversation to start chatting';
export const KEYBOARD_HINT = 'Keys: ↑/↓ or j/k move, Enter opens, Esc goes back.';
const SEARCH_DELAY_MS = 300;

const INITIAL_QUERY: InboxListQuery = {
  tab: 'all',
  status: 'open',
  labels: [],
  q: '',
  assignee: '',
};

/**
 * /inbox: every conversation of every connected account in one list, the chosen one's thread beside
 * it (on a phone, as its own view), and the team's tools. Reading needs dm:view; replying and every
 * action need dm:send.
 */
export function InboxPage() {
  const { currentOrgId, user } = useAuth();
  const orgId = currentOrgId ?? '';
  const { has } = usePermissions();
  const canView = has('dm:view');
  const canSend = has('dm:send');
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('c');
  const [query, setQuery] = useState(INITIAL_QUERY);
  const [search, setSearch] = useState('');
  const [managingLabels, setManagingLabels] = useState(false);
  const summary = useInboxSummary(orgId, { enabled: canView });
  const list = useConversations(canView ? orgId : '', query);
  const update = useUpdateConversation(orgId);

  useEffect(() => {
    const timer = setTimeout(
      () => setQuery((q) => (q.q === search ? q : { ...q, q: search })),
      SEARCH_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [search]);

  const conversations = list.data?.pages.flatMap((page) => page.data.conversations) ?? [];
  const accounts = summary.data?.accounts ?? [];
  const labels = summary.data?.labels ?? [...INBOX_DEFAULT_LABELS];

  const open = (conversation: InboxConversation) => {
    setParams({ c: conversation.id });
    if (conversation.unread && canSend) {
      update.mutate({ id: conversation.id, change: { unread: false } });
    }
  };
  const back = () => {
    const id = selectedId;
    setParams({}, { replace: false });
    // Back in the list, on the conversation that was open.
    requestAnimationFrame(() => {
      if (id) document.querySelector<HTMLElement>(`[data-conversation="${id}"]`)?.focus();
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape' || !selectedId) return;
    const target = event.target as HTMLElement;
    if (target.closest('[role="menu"],[role="dialog"],[role="listbox"]')) return;
    event.preventDefault();
    back();
  };

  if (!canView) {
    return (
      <div className="mx-auto max-w-xl rounded-xl bg-slate-100 p-6 text-center text-slate-700">
        <title>Inbox · Herald</title>
        <h1 className="text-xl font-bold text-slate-900">Inbox</h1>
        <p className="mt-2">
          Your role does not include reading the inbox. Ask an admin for access.
        </p>
      </div>
    );
  }

  return (
    <div
      onKeyDown={onKeyDown}
      className={cn(
        'mx-auto flex w-full max-w-7xl flex-col gap-3 lg:h-[calc(100dvh-8rem)]',
        selectedId && 'h-[calc(100dvh-6rem)] sm:h-[calc(100dvh-7rem)]',
      )}
    >
      <title>Inbox · Herald</title>
      <header
        className={cn(
          'flex shrink-0 flex-wrap items-baseline justify-between gap-x-4 gap-y-1',
          selectedId && 'max-lg:sr-only',
        )}
      >
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Inbox</h1>
        <p className="hidden text-xs text-slate-500 sm:block">{KEYBOARD_HINT}</p>
      </header>
      <div className={cn('shrink-0', selectedId && 'max-lg:hidden')}>
        <AccountNotices accounts={accounts} memberKey={`${user?.id ?? ''}:${orgId}`} />
      </div>
      <div className="grid min-h-0 flex-1 gap-4 lg:grid-cols-[minmax(18rem,24rem)_minmax(0,1fr)]">
        <section
          aria-label="Conversation list"
          className={cn(
            'flex min-h-0 min-w-0 flex-col rounded-2xl border border-slate-200 bg-white',
            selectedId && 'max-lg:hidden',
          )}
        >
          <div className="border-b border-slate-200 p-3">
            <ListFilters
              query={query}
              onChange={(change) => setQuery((q) => ({ ...q, ...change }))}
              search={search}
              onSearchChange={setSearch}
              accounts={accounts}
              labels={labels}
              onManageLabels={canSend ? () => setManagingLabels(true) : undefined}
            />
          </div>
          <div
            id={LIST_PANEL_ID}
            role="tabpanel"
            aria-labelledby={tabId(query.tab)}
            aria-busy={list.isFetching}
            className="min-h-0 flex-1 overflow-y-auto"
          >
            {list.isPending ? (
              <p role="status" className="p-6 text-center text-sm text-slate-600">
                {LOADING}
              </p>
            ) : list.isError && !list.data ? (
              <LoadError
                className="m-3"
                message={errorMessage(list.error, 'The conversations could not be loaded.')}
                onRetry={() => void list.refetch()}
                isRetrying={list.isFetching}
              />
            ) : conversations.length === 0 ? (
              <p className="p-6 text-center text-sm text-slate-600">{NO_MESSAGES}</p>
            ) : (
              <>
                <ConversationList
                  conversations={conversations}
                  selectedId={selectedId}
                  onOpen={open}
                />
                {list.hasNextPage && (
                  <div className="p-3 text-center">
                    <Button
                      variant="secondary"
                      size="sm"
                      disabled={list.isFetchingNextPage}
                      onClick={() => void list.fetchNextPage()}
                    >
                      Load more
                    </Button>
                  </div>
                )}
              </>
            )}
          </div>
        </section>
        <section
          aria-label="Conversation"
          className={cn(
            'flex min-h-0 min-w-0 flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white',
            !selectedId && 'max-lg:hidden',
          )}
        >
          {selectedId ? (
            <Thread
              key={selectedId}
              orgId={orgId}
              conversationId={selectedId}
              labels={labels}
              canSend={canSend}
              selfId={user?.id ?? null}
              onBack={back}
            />
          ) : (
            <p className="m-auto p-6 text-center text-sm text-slate-600">{SELECT_A_CONVERSATION}</p>
          )}
        </section>
      </div>
      {canSend && (
        <LabelManager
          orgId={orgId}
          ownLabels={summary.data?.ownLabels ?? []}
          open={managingLabels}
          onOpenChange={setManagingLabels}
        />
      )}
    </div>
  );
}
