import { platformSlug } from '@herald/contract';
import { createHmac, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { GroupWriter } from '../../lib/group-write.js';
import { recordWebhookStored } from '../../lib/metrics.js';
import type { TokenCipher } from '../../lib/token-crypto.js';
import { PlatformError } from '../../platforms/errors.js';
import type {
  InboxCapabilities,
  InboxEvent,
  WebhookHeaders,
  WebhookReceiver,
} from '../../platforms/inbox-types.js';
import type { NetworkRuntime } from '../../platforms/runtime.js';
import type { StoredAccount } from '../../platforms/types.js';
import { chargeXReads, getXSettings } from '../analytics/analytics.service.js';
import { toStoredAccount } from '../integrations/integrations.service.js';
import { announceInbox } from '../notifications/notifications.service.js';
import { personName, upsertInboxEvents } from './inbox-ingest.js';
import { inboxOf, readsSomething } from './inbox-context.js';
import { reconcileStalePending } from './inbox-replies.js';
import type { InboxQueue } from './inbox-queue.js';
import type { IntegrationRow } from './inbox.repository.js';
import * as repo from './inbox-sync.repository.js';

export interface InboxSyncDeps {
  db: Db;
  networks: Map<string, NetworkRuntime>;
  cipher: TokenCipher;
  queue: InboxQueue;
  receivers: WebhookReceiver[];
  /** Minutes between polls per network slug (INBOX_POLL_MINUTES_<NETWORK>), over the adapter's. */
  pollMinutes: Record<string, number | undefined>;
  log: FastifyBaseLogger;
  now?: () => Date;
}

/** The headers a webhook delivery keeps beside its body (for tracing; never secrets). */
const KEPT_HEADERS = ['content-type', 'x-hub-signature-256', 'x-twitter-webhooks-signature'];
const MINUTE = 60_000;
/** Deliveries claimed and stored at once by the webhook job. */
const WEBHOOK_BATCH = 500;
/** What an X account's inbox says while the organization's X switch is off. */
export const X_INBOX_OFF =
  'X bills every mention and message Herald reads, so X accounts are read only while “Read X metrics” is on (Analytics → X metrics).';
export const xInboxBudgetSpent = (budget: number) =>
  `This month's budget of ${budget.toLocaleString('en-US')} X reads is spent; X mentions and messages are read again next month or when the budget is raised (Analytics → X metrics).`;

const monthOf = (d: Date) => d.toISOString().slice(0, 7);

/** The DM threads of one account a webhook brought with an unnamed customer. */
interface UnnamedThreads {
  integrationId: string;
  threads: string[];
}
/** A failed lookup of a customer's name is tried again after this long. */
const NAME_RETRY_MS = 5 * MINUTE;
/** Name lookups after one batch of deliveries at most; the poll names the rest. */
const NAMES_PER_BATCH = 20;
/** Conversations whose failed lookup is remembered at most. */
const NAMES_REMEMBERED = 5000;

/** How long a claim on an account's poll holds should its job stop. */
const POLL_CLAIM_MS = 10 * MINUTE;

/** PostgreSQL's codes for a failure that passes: a retry may succeed. */
const TRANSIENT_CODES = new Set(['40P01', '40001', '57P01', '57P02', '57P03', '53300']);
const CONNECTION_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']);

/** The error and its causes (a query error wraps the driver's). */
function causes(err: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = err; e !== undefined && e !== null && chain.length < 5;) {
    chain.push(e);
    e = e instanceof Error ? e.cause : undefined;
  }
  return chain;
}

/** A deadlock, a serialization failure or a lost connection: worth trying again. */
export function isTransient(err: unknown) {
  return causes(err).some((e) => {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string')
      if (TRANSIENT_CODES.has(code) || code.startsWith('08') || CONNECTION_CODES.has(code))
        return true;
    return (
      e instanceof Error && /connection terminated|connection (is )?(closed|lost)/i.test(e.message)
    );
  });
}

/** The sentence that says why: the driver's, not the whole failed query's. */
function errorText(err: unknown) {
  const chain = causes(err);
  const last = chain[chain.length - 1];
  return last instanceof Error ? last.message : String(last);
}

/**
 * Herald's own verify token for Meta's webhook handshake: META_WEBHOOK_VERIFY_TOKEN, or outside
 * production one derived from the sandbox secret (the Meta sandbox derives the same).
 */
export function metaVerifyToken(
  configured: string | null,
  isProduction: boolean,
  sandboxSecret: string,
): string | null {
  if (configured) return configured;
  if (isProduction) return null;
  return createHmac('sha256', sandboxSecret).update('meta-webhook-verify-token').digest('hex');
}

/**
 * Reads the networks into the inbox: webhook deliveries (stored raw, processed here), polling
 * per account with its cursor, the first import on connect and the webhook subscriptions.
 * A network's refusal never throws out of here: it becomes the account's `sync_error`.
 */
export class InboxSync {
  /**
   * Deliveries are stored in groups: a burst of webhook requests costs one multi-row INSERT per
   * round trip instead of one each (the inbox's ingestion rate goal); each request is answered
   * once its own row is written.
   */
  private readonly deliveries: GroupWriter<{
    id: string;
    provider: string;
    body: Buffer;
    headers: Record<string, string>;
  }>;

  /** When a lookup of each conversation's customer was last tried and failed (this process). */
  private readonly namingTried = new Map<string, number>();

  constructor(private readonly deps: InboxSyncDeps) {
    this.deliveries = new GroupWriter((rows) => repo.insertDeliveries(this.deps.db, rows));
  }

  private now() {
    return this.deps.now?.() ?? new Date();
  }

  receiver(provider: string) {
    return this.deps.receivers.find((r) => r.provider === provider) ?? null;
  }

  /** The app secret that signs this receiver's deliveries (the network's or its sandbox's). */
  appSecret(receiver: WebhookReceiver) {
    return this.deps.networks.get(platformSlug(receiver.secretFrom))?.client.clientSecret ?? null;
  }

  /** Keeps a verified delivery and queues its processing; answers the id. */
  async storeWebhook(provider: string, body: Buffer, headers: WebhookHeaders) {
    const kept: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = headers[name];
      if (typeof value === 'string') kept[name] = value;
    }
    const id = randomUUID();
    await this.deliveries.add({ id, provider, body, headers: kept });
    await this.deps.queue.processWebhook(id);
    return id;
  }

  /**
   * Every stored delivery not processed yet, oldest first, in batches (the webhook job). One job
   * drains what arrived meanwhile, so a burst of deliveries is stored in large batches; jobs in
   * several processes take different deliveries.
   */
  async processPendingWebhooks(chunk = WEBHOOK_BATCH) {
    for (;;) {
      const { taken, held } = await this.processBatch(chunk);
      // A full batch means more may be waiting; one a transient failure held back entirely is
      // left for the next job (the minute's poll drains leftovers), not taken again at once.
      if (taken < chunk || held === taken) return;
    }
  }

  /**
   * Parses stored deliveries and stores their events for every organization that connected the
   * account they are addressed to. A delivery that cannot be read keeps its error and changes
   * nothing else. Processing twice stores nothing twice.
   */
  async processWebhooks(eventIds: string[]) {
    if (eventIds.length === 0) return;
    await this.processBatch(eventIds.length, eventIds);
  }

  /**
   * Takes up to `limit` unprocessed deliveries (oldest first) and processes them in one
   * transaction that holds their rows: other jobs skip them meanwhile, and should the job stop,
   * they are free again at once. (Marking them claimed first wrote every delivery once more.)
   * Deliveries another job holds are skipped, and so are those an older process marked claimed
   * until its claim lapses. Answers how many it took, and how many of those a transient
   * failure held back (left unprocessed, to be read again by a later job).
   */
  private async processBatch(limit: number, ids?: string[]) {
    const batch = await this.deps.db.transaction(async (tx) => {
      const rows = await repo.lockPendingDeliveries(tx, limit, ids);
      const { held, stored, unnamed } =
        rows.length > 0 ? await this.processRows(tx, rows) : { held: 0, stored: [], unnamed: [] };
      return { taken: rows.length, held, stored, unnamed };
    });
    // Outside the transaction: a network call must not hold the deliveries' rows.
    await this.nameParticipants(batch.unnamed).catch((err: unknown) =>
      this.deps.log.warn({ err: errorText(err) }, 'inbox participants not named'),
    );
    // Counted once committed: the events of these deliveries are in the inbox now.
    const now = this.now().getTime();
    for (const row of batch.stored)
      recordWebhookStored(row.provider, now - row.receivedAt.getTime());
    return { taken: batch.taken, held: batch.held };
  }

  /** Answers how many deliveries a transient failure held back, and those whose events it stored. */
  private async processRows(
    db: Db,
    rows: repo.WebhookEventRow[],
  ): Promise<{ held: number; stored: repo.WebhookEventRow[]; unnamed: UnnamedThreads[] }> {
    // A batch is stored per account at once: duplicates within it meet in one upsert.
    const byAccount = new Map<
      string,
      {
        platform: string;
        accountExternalId: string;
        events: InboxEvent[];
        /** Each event's delivery, by position in `events`. */
        rowOf: string[];
      }
    >();
    const errors = new Map<string, string>();
    // Deliveries a transient failure held back: left unprocessed, a later job reads them again.
    const retried = new Set<string>();
    const unnamed: UnnamedThreads[] = [];
    for (const row of rows) {
      try {
        const receiver = this.receiver(row.provider);
        if (!receiver) throw new Error(`No receiver for ${row.provider} deliveries.`);
        for (const a of receiver.parse(row.body)) {
          const key = `${a.platform}\u0000${a.accountExternalId}`;
          const entry = byAccount.get(key) ?? {
            platform: a.platform,
            accountExternalId: a.accountExternalId,
            events: [],
            rowOf: [],
          };
          entry.events.push(a.event);
          entry.rowOf.push(row.id);
          byAccount.set(key, entry);
        }
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        errors.set(row.id, error);
        this.deps.log.warn({ eventId: row.id, err: error }, 'unreadable webhook delivery');
      }
    }
    // Accounts in a fixed order (and each account's conversations in theirs): two jobs whose
    // batches touch the same conversations wait for each other instead of deadlocking.
    const accounts = [...byAccount.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [, { platform, accountExternalId, events, rowOf }] of accounts) {
      for (const account of await repo.connectedAccounts(db, platform, accountExternalId)) {
        const target = { id: account.id, organizationId: account.organizationId, platform };
        try {
          await upsertInboxEvents(db, target, events);
        } catch (err) {
          // One unstorable event must not lose the rest of the batch: the account's deliveries
          // are stored again one at a time, so only the bad one keeps its error.
          this.deps.log.warn(
            { integrationId: account.id, err: errorText(err) },
            'inbox batch not stored; storing its deliveries one by one',
          );
          const byRow = new Map<string, InboxEvent[]>();
          events.forEach((event, i) =>
            byRow.set(rowOf[i]!, [...(byRow.get(rowOf[i]!) ?? []), event]),
          );
          for (const [rowId, own] of byRow) {
            try {
              await upsertInboxEvents(db, target, own);
            } catch (one) {
              const error = errorText(one);
              this.deps.log.warn(
                { integrationId: account.id, eventId: rowId, err: error },
                'inbox events not stored',
              );
              // A deadlock, a serialization failure or a lost connection passes: the delivery
              // stays unprocessed and is read again. Anything else keeps its error; the next
              // poll reads that account again.
              if (isTransient(one)) retried.add(rowId);
              else errors.set(rowId, `Not stored: ${error}`);
            }
          }
        }
        // A webhook names nobody (Meta sends ids only): the account's next poll, brought
        // forward to the next minute, reads the conversation with the person's name.
        // The conversation is named right after this batch (`nameParticipants`); should that
        // fail, the poll does it.
        const threads = new Set(events.filter(unnamedInboundDm).map((e) => e.threadExternalId));
        if (threads.size) {
          await repo.pollAccountAt(db, account.id, this.now());
          unnamed.push({ integrationId: account.id, threads: [...threads] });
        }
      }
    }
    const now = this.now();
    const stored = rows.filter((r) => !errors.has(r.id) && !retried.has(r.id));
    const read = stored.map((r) => r.id);
    if (read.length) await repo.markDeliveriesProcessed(db, read, now);
    const byError = new Map<string, string[]>();
    for (const [id, error] of errors)
      if (!retried.has(id)) byError.set(error, [...(byError.get(error) ?? []), id]);
    for (const [error, ids] of byError) await repo.markDeliveriesProcessed(db, ids, now, error);
    return { held: retried.size, stored, unnamed };
  }

  /**
   * Names the customers of DM conversations a webhook brought with ids only, one network call per
   * conversation (not per message), so the list shows who wrote before anyone opens the thread. A
   * conversation already named costs nothing; one whose lookup failed is tried again by a later
   * delivery once NAME_RETRY_MS passed, and the account's poll (brought forward) names it anyway.
   */
  async nameParticipants(wanted: UnnamedThreads[]) {
    let calls = 0;
    for (const { integrationId, threads } of wanted) {
      const conversations = await repo.unnamedDmConversations(this.deps.db, integrationId, threads);
      const due = conversations.filter((c) => this.nameDue(c.id));
      if (due.length === 0) continue;
      const loaded = await repo.findAccount(this.deps.db, integrationId);
      if (!loaded || loaded.integration.status !== 'CONNECTED') continue;
      const inbox = inboxOf(this.deps.networks, loaded.platformName)?.inbox;
      if (!inbox?.personOf) continue;
      const account = toStoredAccount(this.deps.cipher, loaded.integration);
      for (const conversation of due) {
        if (calls++ >= NAMES_PER_BATCH) return;
        this.namingTried.set(conversation.id, this.now().getTime());
        try {
          const person = await inbox.personOf(account, conversation.participantExternalId!);
          const title = personName(person);
          if (!person || !title) continue;
          const named = await repo.nameParticipant(this.deps.db, conversation.id, person, title);
          if (!named) continue;
          this.namingTried.delete(conversation.id);
          await announceInbox(this.deps.db, {
            event: 'inbox',
            data: {
              organizationId: conversation.organizationId,
              conversationId: conversation.id,
              change: 'conversation',
            },
          });
        } catch (err) {
          this.deps.log.info(
            { integrationId, conversationId: conversation.id, err: String(err) },
            'inbox participant not named; the next poll names them',
          );
        }
      }
    }
  }

  /** Whether a lookup of this conversation's customer may run now (none failed lately). */
  private nameDue(conversationId: string) {
    const now = this.now().getTime();
    const last = this.namingTried.get(conversationId);
    if (last !== undefined && now - last < NAME_RETRY_MS) return false;
    if (this.namingTried.size >= NAMES_REMEMBERED) {
      for (const [id, at] of this.namingTried)
        if (now - at >= NAME_RETRY_MS) this.namingTried.delete(id);
      if (this.namingTried.size >= NAMES_REMEMBERED) this.namingTried.clear();
    }
    return true;
  }

  private async saveState(integration: IntegrationRow, values: repo.SyncStateValues) {
    await repo.saveSyncState(this.deps.db, integration, values, this.now());
  }

  private intervalMs(network: NetworkRuntime, caps: InboxCapabilities) {
    return (this.deps.pollMinutes[network.slug] ?? caps.pollIntervalMinutes) * MINUTE;
  }

  /** The sentence an account's sync problem is shown with. */
  private problem(integration: IntegrationRow, platformName: string, err: unknown) {
    const who = integration.name ?? integration.username ?? platformName;
    const said = err instanceof PlatformError ? err.message : 'The network could not be read.';
    if (err instanceof PlatformError && err.kind === 'reauth')
      return `Reconnect ${who} on ${platformName} in Settings: ${said}`;
    return said;
  }

  /**
   * Claims the account's poll in one statement (creating its state on the first poll): only
   * when no other poll holds it and, for the periodic job, when it is due. Answers the stored
   * cursor and the claim's end (its token: only this poll may release it), or null when another
   * process polls it or it is not due.
   */
  private async claimPoll(integration: IntegrationRow, dueOnly: boolean) {
    const now = this.now();
    const until = new Date(now.getTime() + POLL_CLAIM_MS);
    return repo.claimPoll(this.deps.db, integration, dueOnly, now, until);
  }

  /**
   * Ends a poll: saves what it learned and releases its claim, only while it still holds it. A
   * poll that ran past its claim while another one claimed the account writes nothing (not its
   * cursor over the newer poll's, nor a release of the newer poll's claim). Answers whether saved.
   */
  private async releasePoll(
    integration: IntegrationRow,
    until: Date,
    values: repo.SyncStateValues,
  ) {
    const saved = await repo.releasePoll(this.deps.db, integration.id, until, values, this.now());
    if (!saved)
      this.deps.log.warn(
        { integrationId: integration.id },
        'inbox poll outlived its claim; another poll owns the account, nothing saved',
      );
    return saved;
  }

  /**
   * Polls one connected account now, from its stored cursor — unless another poll of it runs
   * (BUSY) or, with `dueOnly`, its next poll is not due yet or another runs (SKIPPED): nothing is
   * read twice.
   */
  async pollAccount(
    integrationId: string,
    { dueOnly = false }: { dueOnly?: boolean } = {},
  ): Promise<'POLLED' | 'SKIPPED' | 'REFUSED' | 'BUSY'> {
    const loaded = await repo.findAccount(this.deps.db, integrationId);
    if (!loaded || loaded.integration.status !== 'CONNECTED') return 'SKIPPED';
    const { integration, platformName } = loaded;
    const found = inboxOf(this.deps.networks, platformName);
    if (!found) return 'SKIPPED';
    let account: StoredAccount;
    try {
      account = toStoredAccount(this.deps.cipher, integration);
    } catch (err) {
      this.deps.log.warn(
        { integrationId: integration.id, reason: err instanceof Error ? err.message : String(err) },
        'inbox not polled: the account cannot be read',
      );
      return 'SKIPPED';
    }
    const caps = found.inbox.capabilities(account);
    if (!readsSomething(caps)) return 'SKIPPED';
    const claim = await this.claimPoll(integration, dueOnly);
    // Without `dueOnly` only another poll's claim stands in the way: BUSY, for a caller that
    // must read after it (a pushed notice that poll may have started too early to see).
    if (!claim) return dueOnly ? 'SKIPPED' : 'BUSY';
    const interval = this.intervalMs(found.network, caps);
    const month = monthOf(this.now());
    let readBudget: number | undefined;
    if (found.inbox.billedReads) {
      // A network that bills each item read (X) is read only under the organization's X switch
      // and within its monthly budget, shared with analytics (docs/inbox.md#polling-cost-and-the-rate-limit).
      const settings = await getXSettings(this.deps.db, integration.organizationId);
      const used = settings?.xReadsMonth === month ? settings.xReadsUsed : 0;
      const left = settings ? settings.xMonthlyReadBudget - used : 0;
      if (!settings?.xEnabled || left <= 0) {
        await this.releasePoll(integration, claim.until, {
          nextPollAt: new Date(this.now().getTime() + interval),
          syncError: settings?.xEnabled
            ? xInboxBudgetSpent(settings.xMonthlyReadBudget)
            : X_INBOX_OFF,
        });
        return 'SKIPPED';
      }
      readBudget = left;
    }
    try {
      const result = await found.inbox.poll(
        account,
        claim.cursor,
        readBudget === undefined ? {} : { readBudget },
      );
      if (found.inbox.billedReads && result.billedReads)
        await chargeXReads(this.deps.db, integration.organizationId, month, result.billedReads);
      await upsertInboxEvents(
        this.deps.db,
        { id: integration.id, organizationId: integration.organizationId, platform: platformName },
        result.events,
      );
      const now = this.now();
      const next = new Date(Math.max(now.getTime() + interval, result.retryAfter?.getTime() ?? 0));
      await this.releasePoll(integration, claim.until, {
        cursor: result.cursor,
        lastSyncedAt: now,
        nextPollAt: next,
        syncError: null,
      });
      return 'POLLED';
    } catch (err) {
      const now = this.now();
      const waitMs =
        err instanceof PlatformError && err.details.retryAfterSeconds !== undefined
          ? Math.max(err.details.retryAfterSeconds * 1000, interval)
          : interval;
      await this.releasePoll(integration, claim.until, {
        nextPollAt: new Date(now.getTime() + waitMs),
        syncError: this.problem(integration, platformName, err),
      });
      this.deps.log.info({ integrationId, err: String(err) }, 'inbox poll refused');
      return 'REFUSED';
    }
  }

  /** The periodic job: every connected account whose next poll is due. */
  async pollDue() {
    // Deliveries a stopped process left, and replies it left pending; neither may stop polling.
    await this.processPendingWebhooks().catch((err: unknown) =>
      this.deps.log.warn({ err }, 'inbox webhook deliveries not processed'),
    );
    await reconcileStalePending(this.deps).catch((err: unknown) =>
      this.deps.log.warn({ err }, 'pending inbox replies not reconciled'),
    );
    const now = this.now();
    const due = await repo.dueAccounts(this.deps.db, now);
    const outcomes: Record<string, string> = {};
    for (const { id } of due) outcomes[id] = await this.pollAccount(id, { dueOnly: true });
    return outcomes;
  }

  /**
   * A notice a network pushed to `/webhooks/{slug}` (Google Business Profile's Pub/Sub): checked
   * by the network's inbox, then the connected accounts it names — in every organization that
   * connected them — are queued to be read now. Answers what became of it; an account no
   * organization connected is ignored, as Google may still notify for a disconnected location.
   */
  async receivePush(slug: string, push: { authorization: string | undefined; body: unknown }) {
    const network = this.deps.networks.get(slug);
    const inbox = network?.adapter.inbox;
    if (!network || !inbox?.readPush) return null;
    const result = await inbox.readPush(push);
    if (result.outcome !== 'read') {
      this.deps.log.info({ network: slug, ...result }, 'inbox push not read');
      return result;
    }
    const ids: string[] = [];
    for (const externalId of result.accountExternalIds)
      for (const account of await repo.connectedAccounts(this.deps.db, network.name, externalId))
        ids.push(account.id);
    await this.deps.queue.readAccounts(ids);
    this.deps.log.info(
      { network: slug, pushId: result.id, integrationIds: ids },
      ids.length ? 'inbox push: accounts read now' : 'inbox push for no connected account',
    );
    return { ...result, integrationIds: ids };
  }

  /** Right after an account connects: subscribe to its webhooks, then import what it allows. */
  async importAccount(integrationId: string) {
    await this.ensureSubscribed(integrationId, { check: false });
    return this.pollAccount(integrationId);
  }

  /**
   * Whether the app still receives this account's webhooks (networks silently drop
   * subscriptions); subscribes again when not. Polling keeps reading meanwhile.
   */
  async ensureSubscribed(integrationId: string, opts: { check: boolean } = { check: true }) {
    const loaded = await repo.findAccount(this.deps.db, integrationId);
    if (!loaded || loaded.integration.status !== 'CONNECTED') return 'SKIPPED' as const;
    const { integration, platformName } = loaded;
    const inbox = inboxOf(this.deps.networks, platformName)?.inbox;
    if (!inbox?.subscribe) return 'SKIPPED' as const;
    // Pushed items are billed like polled ones (X bills each Activity API event delivered):
    // nothing is subscribed while the organization's X switch is off.
    if (inbox.billedReads) {
      const settings = await getXSettings(this.deps.db, integration.organizationId);
      if (!settings?.xEnabled) return 'SKIPPED' as const;
    }
    const now = this.now();
    try {
      const account = toStoredAccount(this.deps.cipher, integration);
      if (opts.check && inbox.checkSubscription && (await inbox.checkSubscription(account))) {
        await this.saveState(integration, { subscribed: true, subscriptionCheckedAt: now });
        return 'SUBSCRIBED' as const;
      }
      await inbox.subscribe(account);
      await this.saveState(integration, {
        subscribed: true,
        subscriptionCheckedAt: now,
        syncError: null,
      });
      return 'RESUBSCRIBED' as const;
    } catch (err) {
      const reason = this.problem(integration, platformName, err);
      await this.saveState(integration, {
        subscribed: false,
        subscriptionCheckedAt: now,
        syncError: `New messages are not pushed to Herald for this account; it reads them every few minutes instead. ${reason}`,
      });
      return 'REFUSED' as const;
    }
  }

  /** The 15-minute job: every connected account whose network has webhook subscriptions. */
  async checkSubscriptions() {
    const rows = await repo.connectedAccountsWithPlatform(this.deps.db);
    const outcomes: Record<string, string> = {};
    for (const row of rows) {
      if (!inboxOf(this.deps.networks, row.platformName)?.inbox.subscribe) continue;
      outcomes[row.id] = await this.ensureSubscribed(row.id);
    }
    return outcomes;
  }
}

/** An inbound direct message whose sender the network did not name. */
const unnamedInboundDm = (event: InboxEvent) => {
  const person = event.counterpart ?? event.author;
  return event.kind === 'dm' && event.direction === 'in' && !person.name && !person.username;
};
