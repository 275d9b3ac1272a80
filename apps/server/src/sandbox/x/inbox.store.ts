import type { SandboxStore } from '../store.js';
import { byIdDescending } from './store.js';

/**
 * What the X emulator remembers for the inbox (docs/inbox.md#x-sandbox): legacy DM events (one
 * canonical record, copied to each participant's list), the people who appear in them,
 * the DM read window per user, the billed reads answered, and the Activity API's webhooks and subscriptions.
 */
export interface XDmEvent {
  id: string;
  /** `{smaller id}-{larger id}` for 1:1 conversations, as on X. */
  conversationId: string;
  senderId: string;
  recipientId: string;
  text: string;
  createdAt: number;
}

/**
 * One billed read answered (`GET /2/dm_events…`, `GET /2/users/{id}/mentions`): what was asked
 * and which resources came back. X bills each resource returned, so tests read this log to see
 * that a poll asked from its cursor and was given only what is new.
 */
export interface XBilledRead {
  at: number;
  path: string;
  /** The cursor the request carried: `since_id` and `pagination_token` when present. */
  sinceId: string | null;
  paginationToken: string | null;
  /** The ids of the posts or DM events returned. */
  returned: string[];
}

export interface XPerson {
  id: string;
  name: string;
  username: string;
  pictureUrl: string;
}

export interface XWebhook {
  id: string;
  url: string;
  valid: boolean;
  createdAt: number;
}

export interface XActivitySubscription {
  subscription_id: string;
  event_type: string;
  filter: { user_id: string };
  tag: string | null;
  webhook_id: string | null;
  created_at: string;
}

/** A delivery held back by the `webhook_out_of_order` knob until `/_emu/webhooks/flush`. */
export interface XHeldDelivery {
  id: string;
  /** The account the event was for: only its organization releases it. */
  userId?: string;
  url: string;
  body: string;
  signature: string;
}

const byNumber = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
export const dmConversationId = (a: string, b: string) =>
  byNumber(a, b) <= 0 ? `${a}-${b}` : `${b}-${a}`;

export function createXInboxStore(store: SandboxStore) {
  const dmsOf = (userId: string) => `dms:${userId}`;
  return {
    async saveDm(event: XDmEvent) {
      await store.put('dm_event', event.id, event);
      await store.put(dmsOf(event.senderId), event.id, event);
      await store.put(dmsOf(event.recipientId), event.id, event);
    },
    /** The user's DM events, newest first. */
    async dmsOf(userId: string): Promise<XDmEvent[]> {
      return (await store.list<XDmEvent>(dmsOf(userId))).map((r) => r.data).sort(byIdDescending);
    },
    getPerson: (id: string) => store.get<XPerson>('person', id),
    putPerson: (person: XPerson) => store.put('person', person.id, person),

    async logRead(userId: string, read: XBilledRead) {
      const log = (await store.get<{ reads: XBilledRead[] }>('billed_reads', userId))?.reads ?? [];
      await store.put('billed_reads', userId, { reads: [...log, read] });
    },
    async billedReads(userId: string): Promise<XBilledRead[]> {
      return (await store.get<{ reads: XBilledRead[] }>('billed_reads', userId))?.reads ?? [];
    },

    async dmReads(userId: string): Promise<number[]> {
      return (await store.get<{ times: number[] }>('dm_read_window', userId))?.times ?? [];
    },
    saveDmReads: (userId: string, times: number[]) =>
      store.put('dm_read_window', userId, { times }),

    appToken: (token: string) => store.get<{ at: number }>('app_token', token),
    saveAppToken: (token: string, at: number) => store.put('app_token', token, { at }),

    async webhooks(): Promise<XWebhook[]> {
      return (await store.list<XWebhook>('webhook'))
        .map((r) => r.data)
        .sort((a, b) => a.createdAt - b.createdAt);
    },
    getWebhook: (id: string) => store.get<XWebhook>('webhook', id),
    saveWebhook: (hook: XWebhook) => store.put('webhook', hook.id, hook),
    deleteWebhook: (id: string) => store.delete('webhook', id),

    subscription: (userId: string, eventType: string) =>
      store.get<XActivitySubscription>('activity_subscription', `${userId}:${eventType}`),
    saveSubscription: (sub: XActivitySubscription) =>
      store.put('activity_subscription', `${sub.filter.user_id}:${sub.event_type}`, sub),
    async subscriptions(): Promise<XActivitySubscription[]> {
      return (await store.list<XActivitySubscription>('activity_subscription')).map((r) => r.data);
    },

    async held(): Promise<XHeldDelivery[]> {
      return (await store.list<XHeldDelivery>('held_delivery')).map((r) => r.data);
    },
    hold: (d: XHeldDelivery) => store.put('held_delivery', d.id, d),
    release: (id: string) => store.delete('held_delivery', id),
  };
}

export type XInboxStore = ReturnType<typeof createXInboxStore>;
