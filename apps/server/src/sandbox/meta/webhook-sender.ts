import { createHmac, randomUUID } from 'node:crypto';
import type { SandboxContext } from '../context.js';
import type { EmuKit } from '../kit/emu-kit.js';
import { heraldReceiver } from '../kit/herald-receiver.js';

/**
 * The Meta webhook sender of the Graph emulator (docs/inbox.md#facebook-and-instagram): what
 * Meta pushes to an app's callback URL, the way Meta does it.
 * - Bodies are `{object: "page"|"instagram", entry: [{id, time, messaging|changes}]}`, entries
 *   of one account batched together, events queued in the same tick sent in one body.
 * - The raw body is JSON with every non-ASCII character escaped (`\u00e9`), signed with the app
 *   secret: `X-Hub-Signature-256: sha256=<hex>` and the legacy `X-Hub-Signature: sha1=<hex>`.
 * - Nothing is sent for an account whose Page has not subscribed the app (`subscribed_apps`).
 * Knobs, per account (Page id, Instagram id or sign-in name), `POST /_emu/scenario`:
 * - webhook_duplicate: every body is delivered twice;
 * - webhook_out_of_order: each body is held back and sent after the next one (or on
 *   `POST /_emu/webhooks/flush`, unless it says `{release: false}`);
 * - webhook_bad_signature: bodies are signed with a wrong secret;
 * - webhook_disabled: Meta has disabled the subscription (as after an hour of failed
 *   deliveries): the Page's subscription is removed and nothing is delivered;
 * - webhook_delay_ms: deliveries wait this long.
 * The callback is Herald's own receiver, `{api}/webhooks/meta`, and nothing else: the sandbox app
 * is every organization's (kit/herald-receiver.ts). Each delivery is logged under the account it
 * is for, and each organization reads, releases and forgets its accounts' deliveries only.
 */
export const META_WEBHOOK_KNOBS = [
  'webhook_duplicate',
  'webhook_out_of_order',
  'webhook_bad_signature',
  'webhook_disabled',
] as const;
export const META_WEBHOOK_NUMERIC_KNOBS = ['webhook_delay_ms'] as const;

export type WebhookObject = 'page' | 'instagram';

/** One event for one account: a `messaging[]` item or a `changes[]` item. */
export interface QueuedEvent {
  object: WebhookObject;
  /** entry.id: the Page id or the Instagram account id. */
  entryId: string;
  /** The Page whose subscription decides whether anything is sent. */
  pageId: string;
  /** Scenario keys the knobs may be set on. */
  keys: string[];
  messaging?: Record<string, unknown>;
  change?: { field: string; value: Record<string, unknown> };
}

export interface Delivery {
  id: string;
  /** The account (entry id: a Page or an Instagram account) the body is for. */
  accountId?: string;
  at: string;
  url: string;
  body: string;
  signature256: string;
  status: number | null;
  error: string | null;
}

export interface Subscription {
  fields: string[];
  subscribedAt: number;
}

/** JSON as Meta sends it: every character beyond ASCII as a `\uXXXX` escape. */
export const escapedJson = (value: unknown) =>
  JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

export const signBody = (body: string, secret: string) => ({
  sha256: `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`,
  sha1: `sha1=${createHmac('sha1', secret).update(body, 'utf8').digest('hex')}`,
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MAX_LOG = 200;

export function createWebhookSender(ctx: SandboxContext, kit: EmuKit) {
  const { store } = ctx;
  let queue: QueuedEvent[] = [];
  let scheduled = false;
  /** Bodies held back by webhook_out_of_order, per entry id. */
  const held = new Map<string, { url: string; body: string; keys: string[] }>();
  const inFlight = new Set<Promise<unknown>>();

  const callbackUrl = () => heraldReceiver(ctx.heraldApi, 'meta');

  const subscription = (pageId: string) => store.get<Subscription>('subscription', pageId);

  // The log is one record: changes to it are made one at a time so none is lost.
  let logChanges: Promise<unknown> = Promise.resolve();
  function withLog(change: (log: Delivery[]) => Delivery[]) {
    const next = logChanges.then(async () => {
      const log = (await store.get<{ items: Delivery[] }>('webhook', 'log'))?.items ?? [];
      await store.put('webhook', 'log', { items: change(log).slice(-MAX_LOG) });
    });
    logChanges = next.catch(() => undefined);
    return next;
  }

  const record = (delivery: Delivery) => withLog((log) => [...log, delivery]);

  async function post(url: string, body: string, badSignature: boolean, accountId: string) {
    const signed = signBody(body, badSignature ? `${ctx.clientSecret}-wrong` : ctx.clientSecret);
    const delivery: Delivery = {
      id: randomUUID(),
      accountId,
      at: new Date(await kit.now()).toISOString(),
      url,
      body,
      signature256: signed.sha256,
      status: null,
      error: null,
    };
    try {
      const res = await ctx.deliver(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-hub-signature-256': signed.sha256,
          'x-hub-signature': signed.sha1,
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      delivery.status = res.status;
      await res.body?.cancel();
    } catch (err) {
      delivery.error = err instanceof Error ? err.message : String(err);
    }
    await record(delivery);
  }

  async function deliver(url: string, body: string, keys: string[], entryId: string) {
    const scenario = await kit.scenario(keys);
    const delay = scenario.number('webhook_delay_ms');
    if (delay > 0) await sleep(delay);
    const bad = scenario.isOn('webhook_bad_signature');
    const times = scenario.isOn('webhook_duplicate') ? 2 : 1;
    if (scenario.isOn('webhook_out_of_order')) {
      const before = held.get(entryId);
      if (!before) {
        held.set(entryId, { url, body, keys });
        return;
      }
      held.delete(entryId);
      for (let i = 0; i < times; i++) await post(url, body, bad, entryId);
      for (let i = 0; i < times; i++) await post(before.url, before.body, bad, entryId);
      return;
    }
    for (let i = 0; i < times; i++) await post(url, body, bad, entryId);
  }

  /** Sends what is queued: one body per object and account, entries batched. */
  async function flushQueue() {
    scheduled = false;
    const events = queue;
    queue = [];
    const url = callbackUrl();
    const groups = new Map<string, QueuedEvent[]>();
    for (const event of events) {
      const key = `${event.object}:${event.entryId}`;
      groups.set(key, [...(groups.get(key) ?? []), event]);
    }
    for (const group of groups.values()) {
      const first = group[0]!;
      const scenario = await kit.scenario(first.keys);
      if (scenario.isOn('webhook_disabled')) {
        await store.delete('subscription', first.pageId);
        continue;
      }
      if (!(await subscription(first.pageId))) continue;
      const time = await kit.now();
      // Meta batches: messaging events in one entry, changes in another.
      const entry: Array<Record<string, unknown>> = [];
      const messaging = group.filter((e) => e.messaging).map((e) => e.messaging!);
      const changes = group.filter((e) => e.change).map((e) => e.change!);
      if (messaging.length) entry.push({ id: first.entryId, time, messaging });
      // Meta stamps `changes` entries in seconds, `messaging` entries in milliseconds.
      if (changes.length) entry.push({ id: first.entryId, time: Math.floor(time / 1000), changes });
      const body = escapedJson({ object: first.object, entry });
      await deliver(url, body, first.keys, first.entryId);
    }
  }

  const track = (work: Promise<unknown>) => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  };

  let holding = 0;
  function schedule() {
    if (scheduled || holding > 0 || queue.length === 0) return;
    scheduled = true;
    track(sleep(0).then(flushQueue));
  }

  return {
    subscription,
    async subscribe(pageId: string, fields: string[]) {
      await store.put('subscription', pageId, {
        fields,
        subscribedAt: await kit.now(),
      } satisfies Subscription);
    },
    unsubscribe: (pageId: string) => store.delete('subscription', pageId),

    /** Queues an event; everything queued in this tick (or one `batch`) goes out together. */
    enqueue(event: QueuedEvent) {
      queue.push(event);
      schedule();
    },

    /** Runs `work`, sending the events it queues in one delivery afterwards (Meta's batching). */
    async batch<T>(work: () => Promise<T>): Promise<T> {
      holding++;
      try {
        return await work();
      } finally {
        holding--;
        schedule();
      }
    },

    /**
     * Waits for queued and running deliveries, then (`release`) sends what out-of-order held back
     * for the accounts `owns` accepts.
     */
    async flush(owns: (accountId: string) => boolean, release = true) {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      if (!release) return;
      for (const [entryId, h] of [...held]) {
        if (!owns(entryId)) continue;
        held.delete(entryId);
        await post(h.url, h.body, false, entryId);
      }
    },

    /** The logged deliveries for the accounts `owns` accepts, oldest first. */
    async deliveries(owns: (accountId: string) => boolean) {
      const log = (await store.get<{ items: Delivery[] }>('webhook', 'log'))?.items ?? [];
      return log.filter((d) => d.accountId !== undefined && owns(d.accountId));
    },
    callbackUrl,
    /** Forgets the logged deliveries for the accounts `owns` accepts. */
    async clearLog(owns: (accountId: string) => boolean) {
      await withLog((log) => log.filter((d) => d.accountId === undefined || !owns(d.accountId)));
    },
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
