import {
  InboxStreamEventSchema,
  InboxSummaryResponseSchema,
  InboxTypingEventSchema,
  type InboxTypingEvent,
} from '@herald/contract';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { apiClient } from './api-client';

/**
 * The inbox's shared parts: the shell (sidebar badge, live stream) and the dashboard read the
 * summary, and the stream feeds the inbox screen, so they live here (features may not import
 * each other). Everything of one organization's inbox shares the key prefix `['inbox', orgId]`.
 */
export const inboxKeys = {
  org: (orgId: string) => ['inbox', orgId] as const,
  summary: (orgId: string) => ['inbox', orgId, 'summary'] as const,
  lists: (orgId: string) => ['inbox', orgId, 'list'] as const,
  threads: (orgId: string) => ['inbox', orgId, 'thread'] as const,
  thread: (orgId: string, conversationId: string) =>
    ['inbox', orgId, 'thread', conversationId] as const,
  savedReplies: (orgId: string) => ['inbox', orgId, 'saved-replies'] as const,
};

/** The organization's inbox path, e.g. `inboxPath(org, '/summary')`. */
export const inboxPath = (orgId: string, rest = '') =>
  `/organizations/${encodeURIComponent(orgId)}/inbox${rest}`;

/**
 * `GET /organizations/{orgId}/inbox/summary`: open unread conversations the member may see,
 * what each connected account gives, and the organization's labels. Pass `enabled: false` for
 * a member without dm:view (the server would refuse).
 */
export function useInboxSummary(orgId: string | null, { enabled = true } = {}) {
  return useQuery({
    queryKey: inboxKeys.summary(orgId ?? ''),
    queryFn: async ({ signal }) => {
      const { data } = await apiClient.get(inboxPath(orgId ?? '', '/summary'), {
        schema: InboxSummaryResponseSchema,
        signal,
      });
      return data;
    },
    enabled: Boolean(orgId) && enabled,
  });
}

/** An `inbox` event on the live stream: whatever shows that conversation is fetched again. */
export function handleInboxEvent(queryClient: QueryClient, orgId: string, raw: string) {
  const parsed = InboxStreamEventSchema.safeParse(parseJson(raw));
  if (!parsed.success || parsed.data.organizationId !== orgId) return;
  void queryClient.invalidateQueries({ queryKey: inboxKeys.summary(orgId) });
  void queryClient.invalidateQueries({ queryKey: inboxKeys.lists(orgId) });
  void queryClient.invalidateQueries({
    queryKey: inboxKeys.thread(orgId, parsed.data.conversationId),
  });
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

/** A teammate who said they are typing is shown for this long unless they say so again. */
export const TYPING_SHOWN_MS = 8_000;

interface Typist {
  id: string;
  name: string;
  until: number;
}

/** Who is writing a reply, per conversation, from `inbox-typing` events. */
const typists = new Map<string, Typist[]>();
const listeners = new Set<() => void>();
const EMPTY: Typist[] = [];

function notify() {
  for (const listener of listeners) listener();
}

function setTypists(conversationId: string, next: Typist[]) {
  if (next.length) typists.set(conversationId, next);
  else typists.delete(conversationId);
  notify();
}

/** Records an `inbox-typing` event; the entry expires by itself after TYPING_SHOWN_MS. */
export function applyTypingEvent(event: InboxTypingEvent, now = Date.now()) {
  const others = (typists.get(event.conversationId) ?? EMPTY).filter((t) => t.id !== event.user.id);
  if (!event.typing) {
    setTypists(event.conversationId, others);
    return;
  }
  const until = now + TYPING_SHOWN_MS;
  setTypists(event.conversationId, [
    ...others,
    { id: event.user.id, name: event.user.displayName?.trim() || 'A teammate', until },
  ]);
  setTimeout(() => {
    const current = typists.get(event.conversationId) ?? EMPTY;
    const left = current.filter((t) => t.until > Date.now());
    if (left.length !== current.length) setTypists(event.conversationId, left);
  }, TYPING_SHOWN_MS + 50);
}

/** An `inbox-typing` event on the live stream. */
export function handleTypingEvent(orgId: string, raw: string) {
  const parsed = InboxTypingEventSchema.safeParse(parseJson(raw));
  if (!parsed.success || parsed.data.organizationId !== orgId) return;
  applyTypingEvent(parsed.data);
}

/** Forgets every typist (tests, and a change of organization). */
export function clearTypists() {
  typists.clear();
  notify();
}

/** The teammates writing in `conversationId` now, except `selfId`. */
export function useTypists(conversationId: string | null, selfId: string | null): string[] {
  const list = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => (conversationId ? (typists.get(conversationId) ?? EMPTY) : EMPTY),
  );
  return list.filter((t) => t.id !== selfId).map((t) => t.name);
}
