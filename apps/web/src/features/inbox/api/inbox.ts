import {
  InboxConversationResponseSchema,
  InboxConversationsResponseSchema,
  InboxMessageResponseSchema,
  InboxNoteResponseSchema,
  InboxSavedRepliesResponseSchema,
  InboxThreadResponseSchema,
  MembersResponseSchema,
  type InboxConversation,
  type InboxConversationUpdate,
  type InboxLabelColor,
  type InboxMessage,
  type InboxStatus,
  type PlatformName,
} from '@herald/contract';
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { inboxKeys, inboxPath } from '@/lib/inbox';

export type InboxTab = 'all' | 'unread' | PlatformName;
export type AssigneeFilter = '' | 'me' | 'unassigned';

/** What the list asks for: the spec's tabs, Open or Done, labels, search and assignee. */
export interface InboxListQuery {
  tab: InboxTab;
  status: InboxStatus;
  labels: string[];
  q: string;
  assignee: AssigneeFilter;
}

/** The query string of a list request (labels comma-separated, empty parts left out). */
export function listSearch(query: InboxListQuery, cursor?: string): string {
  const search = new URLSearchParams({ tab: query.tab, status: query.status });
  if (query.labels.length) search.set('labels', query.labels.join(','));
  if (query.q.trim()) search.set('q', query.q.trim());
  if (query.assignee) search.set('assignee', query.assignee);
  if (cursor) search.set('cursor', cursor);
  return search.toString();
}

/** `GET …/inbox/conversations`: newest first, a page at a time ("Load more"). */
export function useConversations(orgId: string, query: InboxListQuery) {
  return useInfiniteQuery({
    queryKey: [...inboxKeys.lists(orgId), query] as const,
    queryFn: async ({ pageParam, signal }) =>
      apiClient.get(inboxPath(orgId, `/conversations?${listSearch(query, pageParam)}`), {
        schema: InboxConversationsResponseSchema,
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.meta.nextCursor ?? undefined,
    enabled: Boolean(orgId),
    placeholderData: keepPreviousData,
  });
}

/** `GET …/inbox/conversations/{id}`: the conversation, its messages oldest first, and notes. */
export function useThread(orgId: string, conversationId: string | null) {
  return useQuery({
    queryKey: inboxKeys.thread(orgId, conversationId ?? ''),
    queryFn: async ({ signal }) => {
      const { data } = await apiClient.get(
        inboxPath(orgId, `/conversations/${encodeURIComponent(conversationId ?? '')}`),
        { schema: InboxThreadResponseSchema, signal },
      );
      return data;
    },
    enabled: Boolean(orgId && conversationId),
  });
}

export type InboxThread = NonNullable<ReturnType<typeof useThread>['data']>;

/** `GET …/conversations/{id}?before=`: the page of messages before `before` ("Load older messages"). */
export async function fetchOlderMessages(orgId: string, conversationId: string, before: string) {
  const { data } = await apiClient.get(
    inboxPath(
      orgId,
      `/conversations/${encodeURIComponent(conversationId)}?before=${encodeURIComponent(before)}`,
    ),
    { schema: InboxThreadResponseSchema },
  );
  return { messages: data.messages, olderCursor: data.olderCursor };
}

const conversationPath = (orgId: string, id: string, rest = '') =>
  inboxPath(orgId, `/conversations/${encodeURIComponent(id)}${rest}`);

/** Puts a changed conversation into the open thread and every cached list page. */
function storeConversation(queryClient: QueryClient, orgId: string, next: InboxConversation) {
  queryClient.setQueryData<InboxThread>(inboxKeys.thread(orgId, next.id), (thread) =>
    thread ? { ...thread, conversation: next } : thread,
  );
  queryClient.setQueriesData<{
    pages: Array<{ data: { conversations: InboxConversation[] } }>;
  }>({ queryKey: inboxKeys.lists(orgId) }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            data: {
              ...page.data,
              conversations: page.data.conversations.map((c) => (c.id === next.id ? next : c)),
            },
          })),
        }
      : data,
  );
}

/** After an action: the list (which may drop it), the badge and the thread are fetched again. */
function refreshAfter(queryClient: QueryClient, orgId: string, conversationId: string) {
  void queryClient.invalidateQueries({ queryKey: inboxKeys.lists(orgId) });
  void queryClient.invalidateQueries({ queryKey: inboxKeys.summary(orgId) });
  void queryClient.invalidateQueries({ queryKey: inboxKeys.thread(orgId, conversationId) });
}

/** `PATCH …/conversations/{id}` (dm:send): read state, Done, assignee, labels. */
export function useUpdateConversation(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, change }: { id: string; change: InboxConversationUpdate }) => {
      const { data } = await apiClient.patch(conversationPath(orgId, id), change, {
        schema: InboxConversationResponseSchema,
      });
      return data.conversation;
    },
    onSuccess: (conversation) => {
      storeConversation(queryClient, orgId, conversation);
      refreshAfter(queryClient, orgId, conversation.id);
    },
  });
}

/** `DELETE …/conversations/{id}`: archives it in Herald. */
export function useArchiveConversation(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiClient.delete(conversationPath(orgId, id)),
    onSuccess: (_, id) => refreshAfter(queryClient, orgId, id),
  });
}

/** `POST …/conversations/{id}/block`: blocks the person where the network allows it. */
export function useBlockPerson(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiClient.post(conversationPath(orgId, id, '/block')),
    onSuccess: (_, id) => refreshAfter(queryClient, orgId, id),
  });
}

export interface ReplyInput {
  conversationId: string;
  text: string;
  clientKey: string;
  replyTo?: string;
  privateReplyTo?: string;
}

/** `POST …/conversations/{id}/messages`: one reply; `clientKey` makes a repeat harmless. */
export function useSendReply(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ conversationId, ...body }: ReplyInput) => {
      const { data } = await apiClient.post(
        conversationPath(orgId, conversationId, '/messages'),
        body,
        { schema: InboxMessageResponseSchema },
      );
      return data.message;
    },
    onSuccess: (message) => {
      queryClient.setQueryData<InboxThread>(
        inboxKeys.thread(orgId, message.conversationId),
        (thread) =>
          thread && !thread.messages.some((m) => m.id === message.id)
            ? { ...thread, messages: [...thread.messages, message] }
            : thread,
      );
      refreshAfter(queryClient, orgId, message.conversationId);
    },
  });
}

const messagePath = (orgId: string, message: InboxMessage, rest = '') =>
  conversationPath(
    orgId,
    message.conversationId,
    `/messages/${encodeURIComponent(message.id)}${rest}`,
  );

export type MessageAction =
  | { type: 'resolve'; action: 'sent' | 'resend' | 'discard' }
  | { type: 'like'; liked: boolean }
  | { type: 'hide'; hidden: boolean }
  | { type: 'delete' };

/** The actions on one message: resolve an uncertain reply, like, hide, delete on the network. */
export function useMessageAction(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ message, action }: { message: InboxMessage; action: MessageAction }) => {
      switch (action.type) {
        case 'resolve':
          return apiClient.post(messagePath(orgId, message, '/resolve'), {
            action: action.action,
          });
        case 'like':
          return apiClient.post(messagePath(orgId, message, '/like'), { liked: action.liked });
        case 'hide':
          return apiClient.post(messagePath(orgId, message, '/hide'), { hidden: action.hidden });
        case 'delete':
          return apiClient.delete(messagePath(orgId, message));
      }
    },
    onSuccess: (_, { message }) => refreshAfter(queryClient, orgId, message.conversationId),
  });
}

/** `POST …/conversations/{id}/notes`: a note only teammates see. */
export function useAddNote(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ conversationId, text }: { conversationId: string; text: string }) => {
      const { data } = await apiClient.post(
        conversationPath(orgId, conversationId, '/notes'),
        { text },
        { schema: InboxNoteResponseSchema },
      );
      return data.note;
    },
    onSuccess: (note) => {
      queryClient.setQueryData<InboxThread>(
        inboxKeys.thread(orgId, note.conversationId),
        (thread) =>
          thread && !thread.notes.some((n) => n.id === note.id)
            ? { ...thread, notes: [...thread.notes, note] }
            : thread,
      );
    },
  });
}

/** `POST …/conversations/{id}/typing`: tells teammates viewing it that this member writes. */
export function sendTyping(orgId: string, conversationId: string, typing: boolean) {
  return apiClient
    .post(conversationPath(orgId, conversationId, '/typing'), { typing })
    .catch(() => undefined);
}

/**
 * `GET …/inbox/saved-replies`: by name, a page at a time ("Show more"); `q` keeps those whose
 * name or text contains it. `replies` is every page loaded so far.
 */
export function useSavedReplies(orgId: string, { enabled = true, q = '' } = {}) {
  const search = q.trim();
  const query = useInfiniteQuery({
    queryKey: [...inboxKeys.savedReplies(orgId), search] as const,
    queryFn: async ({ pageParam, signal }) => {
      const params = new URLSearchParams();
      if (search) params.set('q', search);
      if (pageParam) params.set('cursor', pageParam);
      const suffix = params.size ? `?${params.toString()}` : '';
      return apiClient.get(inboxPath(orgId, `/saved-replies${suffix}`), {
        schema: InboxSavedRepliesResponseSchema,
        signal,
      });
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.meta.nextCursor ?? undefined,
    enabled: Boolean(orgId) && enabled,
    placeholderData: keepPreviousData,
  });
  const replies = query.data?.pages.flatMap((page) => page.data.savedReplies);
  return { ...query, replies };
}

export function useCreateSavedReply(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { title: string; text: string }) =>
      apiClient.post(inboxPath(orgId, '/saved-replies'), body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inboxKeys.savedReplies(orgId) }),
  });
}

export function useDeleteSavedReply(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiClient.delete(inboxPath(orgId, `/saved-replies/${encodeURIComponent(id)}`)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inboxKeys.savedReplies(orgId) }),
  });
}

/** Teammates a conversation can be assigned to: active members who may read the inbox. */
export function useAssignableTeammates(orgId: string, { enabled = true } = {}) {
  return useQuery({
    queryKey: ['inbox', orgId, 'teammates'] as const,
    queryFn: async ({ signal }) => {
      const answer = await apiClient.get(
        `/organizations/${encodeURIComponent(orgId)}/members?page=1&pageSize=200`,
        { schema: MembersResponseSchema, signal },
      );
      return answer.data.members.flatMap((member) =>
        member.status === 'ACTIVE' && member.user && member.permissions.includes('dm:view')
          ? [{ id: member.user.id, name: member.user.displayName?.trim() || member.email }]
          : [],
      );
    },
    enabled: Boolean(orgId) && enabled,
    staleTime: 60_000,
  });
}

/** The organization's own labels (dm:send): create, rename or recolour, delete. */
export function useLabelMutations(orgId: string) {
  const queryClient = useQueryClient();
  // A rename or delete changes conversations too.
  const refresh = () => queryClient.invalidateQueries({ queryKey: inboxKeys.org(orgId) });
  const path = (name: string) => inboxPath(orgId, `/labels/${encodeURIComponent(name)}`);
  return {
    create: useMutation({
      mutationFn: (body: { name: string; color: InboxLabelColor | null }) =>
        apiClient.post(inboxPath(orgId, '/labels'), body),
      onSuccess: refresh,
    }),
    update: useMutation({
      mutationFn: ({
        name,
        change,
      }: {
        name: string;
        change: { name?: string; color?: InboxLabelColor | null };
      }) => apiClient.patch(path(name), change),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (name: string) => apiClient.delete(path(name)),
      onSuccess: refresh,
    }),
  };
}
