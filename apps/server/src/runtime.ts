import { shortLinkBase } from '@herald/contract';
import { createWritePoints } from './modules/publishing/write-points.js';
import { createYouTubeQuota, type YouTubeQuota } from './modules/youtube/quota.js';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { PgBoss } from 'pg-boss';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { selfFetch } from './http/self-fetch.js';
import { guardedRequest } from './media/safe-fetch.js';
import { SessionService } from './identity/session.service.js';
import { analyticsAccountsJob } from './jobs/analytics-accounts.job.js';
import { analyticsSnapshotJob } from './jobs/analytics-snapshot.job.js';
import { inboxJobs } from './jobs/inbox-sync.job.js';
import { publishTargetJob } from './jobs/publish-target.job.js';
import { publishWatchdogJob } from './jobs/publish-watchdog.job.js';
import {
  type AnyJobDefinition,
  createJobBoss,
  handlersSettled,
  type JobRole,
  startHandlers,
  startJobs,
  startQueues,
} from './jobs/runtime.js';
import { inboxWebhooksPruneJob } from './jobs/inbox-webhooks-prune.job.js';
import { pendingConnectionsPurgeJob } from './jobs/pending-connections-purge.job.js';
import { sessionsExpireJob } from './jobs/sessions-expire.job.js';
import { notificationDeliveryJobs } from './jobs/notification-deliveries.job.js';
import { OUTGOING_WEBHOOKS_QUEUE, outgoingWebhooksJob } from './jobs/outgoing-webhooks.job.js';
import { outgoingWebhooksPruneJob } from './jobs/outgoing-webhooks-prune.job.js';
import {
  deliverDue,
  type DeliveryDeps as WebhookDeliveryDeps,
} from './modules/outgoing-webhooks/delivery.js';
import { coalescingRunner, DeliveryNudges } from './modules/outgoing-webhooks/delivery-nudge.js';
import { feedsCheckJob } from './jobs/feeds-check.job.js';
import { evergreenJob } from './jobs/evergreen.job.js';
import type { WebSubOptions } from './modules/feeds/websub.js';
import { publishingLifecycle } from './modules/publishing/publishing.service.js';
import { reportEmailsJob } from './jobs/report-emails.job.js';
import { createMailer, type Mailer } from './lib/mailer.js';
import { subscriptionsSweepJob } from './jobs/subscriptions-sweep.job.js';
import { tokensExpiryNoticeJob } from './jobs/tokens-expiry-notice.job.js';
import { tokensRefreshJob } from './jobs/tokens-refresh.job.js';
import { loadSecrets, type Secrets } from './db/secrets.js';
import { loadTokenCipher } from './db/token-key.js';
import type { TokenCipher } from './lib/token-crypto.js';
import { createMediaStore, type MediaStore } from './media/media-store.js';
import { AnalyticsQueue } from './modules/analytics/analytics-queue.js';
import { AnalyticsCollector } from './modules/analytics/analytics.service.js';
import { InboxQueue } from './modules/inbox/inbox-queue.js';
import { InboxSync, metaVerifyToken } from './modules/inbox/inbox-sync.js';
import { WEBHOOK_RECEIVERS } from './platforms/inbox-receivers.js';
import type { WebhookReceiver } from './platforms/inbox-types.js';
import { PublishQueue } from './modules/publishing/publish-queue.js';
import { Publisher } from './modules/publishing/publisher.js';
import { Semaphores } from './modules/publishing/caps.js';
import { SharedSlots } from './modules/publishing/shared-slots.js';
import type { WatchdogDeps } from './modules/publishing/watchdog.js';
import {
  buildNetworks,
  SANDBOX_CLIENT_ID,
  sandboxAppSecret,
  sandboxBase,
  unauditedNetworks,
  type NetworkRuntime,
} from './platforms/runtime.js';
import type { PlatformHttp } from './platforms/types.js';
import type { LoadMembership } from './http/access.js';
import { mountSandboxes } from './sandbox/index.js';
import { consentSigners, organizationTenants } from './sandbox-tenants.js';

export interface RuntimeOptions {
  /** How the adapters reach the networks (see `sandboxFetch` for the API process). */
  http: PlatformHttp;
  log: FastifyBaseLogger;
  /** This process's pg-boss role; null runs none (tests without a worker: nothing is queued). */
  jobs: JobRole | null;
  /** Serve only these queues (tests that run one job through pg-boss). */
  queues?: string[];
  now?: () => Date;
  /** The webhook receivers (WEBHOOK_RECEIVERS unless a test brings its own). */
  webhookReceivers?: WebhookReceiver[];
  /** This process's row in herald_processes, recorded as the holder of what it publishes. */
  processId?: string;
  /** Replaces the SMTP mailer built from config (tests); null: no email. */
  mailer?: Mailer | null;
}

/** The long-lived services of one process, built once for the HTTP app and the worker alike. */
export interface Runtime {
  /** What the YouTube API project spent of its day (modules/youtube/quota.ts). */
  youtubeQuota: YouTubeQuota;
  /** WebSub's callback and secret key for feeds (docs/feeds.md#websub-push). */
  feedsWebSub: WebSubOptions;
  secrets: Secrets;
  sessions: SessionService;
  networks: Map<string, NetworkRuntime>;
  /** How the adapters reach the networks (and this process's sandboxes). */
  http: PlatformHttp;
  cipher: TokenCipher;
  media: MediaStore;
  boss: PgBoss | null;
  /** The queues of every job of the deployment (whichever process serves them). */
  queueNames: string[];
  publishQueue: PublishQueue;
  publisher: Publisher;
  /** Collects metrics from the networks (docs/analytics.md). */
  analytics: AnalyticsCollector;
  analyticsQueue: AnalyticsQueue;
  watchdog: WatchdogDeps;
  /** The unified inbox's reading side (docs/inbox.md): webhooks, polling, subscriptions. */
  inbox: { sync: InboxSync; queue: InboxQueue; metaVerifyToken: string | null };
  /** Starts pg-boss with this role's queues, handlers and cron (nothing without a job role). */
  startJobs(): Promise<void>;
  /** `startJobs` in two steps: pg-boss and the queues (jobs can be sent)… */
  startQueues(): Promise<void>;
  /** …then, in a working role, the handlers and cron. */
  startHandlers(): Promise<void>;
  /**
   * Stops pg-boss: no job is fetched any more; when graceful, the running ones get up to
   * `timeout` ms, then the rest are handed back (failed for a retry elsewhere, their handlers'
   * signals aborted) and their handlers get a few seconds to put their work back.
   */
  stopJobs(options?: { graceful?: boolean; timeout?: number }): Promise<void>;
  /** Releases the rest (the media store's clients). */
  close(): Promise<void>;
}

/**
 * How long the handlers of jobs handed back at a stop get to reach a safe point (a publication
 * stops before its visible call) before the database closes under them.
 */
const HAND_BACK_MS = 5000;

/** The composition root: every service below the HTTP layer, wired once. */
export async function createRuntime(
  config: Config,
  database: Database,
  options: RuntimeOptions,
): Promise<Runtime> {
  const { db } = database;
  const { log, now } = options;
  const secrets = await loadSecrets(db, config.sessionSecret);
  const sessions = new SessionService(db, secrets.sessionSecret, now);
  // From the database, so every process sharing it seals and reads tokens with one key.
  const cipher = await loadTokenCipher(db, {
    configured: config.tokenEncryptionKey,
    previous: config.tokenEncryptionKeyPrevious,
    dataDir: config.dataDir,
    isProduction: config.isProduction,
    log,
  });
  // Real adapters, pointed at the local sandboxes when a network has no credentials.
  // Mastodon servers are hosts users type: Herald reaches them through the SSRF guard.
  // YouTube bills Herald's API project per call: every call is counted in the database.
  const youtubeQuota = createYouTubeQuota(db, config.youtubeQuota, now ?? (() => new Date()));
  const networks = buildNetworks(
    config,
    options.http,
    secrets.derive('sandbox-client'),
    undefined,
    guardedRequest,
    youtubeQuota.meter,
    // Bluesky limits each account's record writes: every process counts them in one place.
    createWritePoints(db, now ?? (() => new Date())),
  );
  // The media store's signed URLs are what networks fetch.
  const media = createMediaStore(config, secrets.derive('media-url'));
  const feedsWebSub: WebSubOptions = {
    callbackBase: `${config.apiPublicUrl}/websub/feeds/`,
    secretKey: secrets.derive('websub-secrets'),
  };
  const boss = options.jobs ? createJobBoss(database, options.jobs, log) : null;
  const publishQueue = new PublishQueue(boss);
  const analyticsQueue = new AnalyticsQueue(boss);
  const analytics = new AnalyticsCollector({
    db,
    networks,
    cipher,
    queue: analyticsQueue,
    log,
    now,
  });
  // Every process publishes (the worker its jobs, the API "Publish now"): on PostgreSQL the caps
  // hold across all of them; PGlite has one process.
  const publishSlots =
    database.kind === 'postgres' ? new SharedSlots(database.url, log) : new Semaphores();
  const publisher = new Publisher({
    db,
    networks,
    slots: publishSlots,
    media,
    cipher,
    queue: publishQueue,
    log,
    now,
    onPublished: (targetId, at) => analyticsQueue.scheduleSnapshots(targetId, at),
    processId: options.processId,
    shortLinkBase: shortLinkBase(config.publicUrl),
  });
  const watchdog: WatchdogDeps = {
    db,
    queue: publishQueue,
    reconcile: (targetId, attemptId) => publisher.reconcileStuck(targetId, attemptId),
    reconcileFollowUp: (id, attemptId) => publisher.reconcileStuckFollowUp(id, attemptId),
    stuckAfterMs: config.publishStuckAfterSeconds * 1000,
  };
  const inboxQueue = new InboxQueue(boss);
  const inboxSync = new InboxSync({
    db,
    networks,
    cipher,
    queue: inboxQueue,
    receivers: options.webhookReceivers ?? WEBHOOK_RECEIVERS,
    pollMinutes: config.inbox.pollMinutes,
    log,
    now,
  });
  const mailer =
    options.mailer !== undefined ? options.mailer : createMailer(config.smtpUrl, config.mailFrom);
  const webhookDelivery: WebhookDeliveryDeps = {
    db,
    cipher,
    allowPrivate: config.mediaImport.allowPrivate,
    log,
    now,
    disableAfterMs: config.outgoingWebhooks.disableAfterMs,
  };
  const allJobs: AnyJobDefinition[] = [
    sessionsExpireJob(db, sessions, log),
    pendingConnectionsPurgeJob(db, log),
    inboxWebhooksPruneJob(db, log),
    subscriptionsSweepJob(db, log),
    tokensRefreshJob({ db, cipher, networks, log }, db),
    tokensExpiryNoticeJob(db, networks, log),
    publishTargetJob(publisher, log),
    publishWatchdogJob(watchdog, log),
    analyticsSnapshotJob(analytics, log),
    analyticsAccountsJob(analytics, log),
    ...inboxJobs(inboxSync, log),
    ...notificationDeliveryJobs(
      { db, mailer, publicUrl: config.publicUrl, log, now },
      { db, cipher, allowPrivate: config.mediaImport.allowPrivate, log, now },
    ),
    reportEmailsJob({ db, media, mailer, log, now: now ?? (() => new Date()) }, log),
    outgoingWebhooksJob(webhookDelivery),
    outgoingWebhooksPruneJob(db, config.outgoingWebhooks.retentionMs, log, now),
    feedsCheckJob({
      db,
      media,
      lifecycle: publishingLifecycle(publishQueue),
      now: now ?? (() => new Date()),
      mediaImport: config.mediaImport,
      minIntervalMs: config.feeds.minIntervalMs,
      websub: feedsWebSub,
      shortLinkBase: shortLinkBase(config.publicUrl),
      log,
    }),
    evergreenJob({
      db,
      media,
      lifecycle: publishingLifecycle(publishQueue),
      now: now ?? (() => new Date()),
      log,
    }),
  ];
  const jobs = allJobs.filter((job) => !options.queues || options.queues.includes(job.queue));
  // docs/webhooks.md#delivery: a working process sends new events as their change commits; the
  // minute's job stays the safety net.
  const deliversWebhooks =
    options.jobs !== null &&
    options.jobs !== undefined &&
    options.jobs !== 'api' &&
    jobs.some((job) => job.queue === OUTGOING_WEBHOOKS_QUEUE);
  const deliverAtOnce = coalescingRunner(() => deliverDue(webhookDelivery), log);
  const nudges = deliversWebhooks
    ? new DeliveryNudges(database, () => deliverAtOnce.nudge(), log)
    : null;
  return {
    youtubeQuota,
    feedsWebSub,
    secrets,
    sessions,
    networks,
    http: options.http,
    cipher,
    media,
    boss,
    queueNames: allJobs.map((job) => job.queue),
    publishQueue,
    publisher,
    watchdog,
    analytics,
    analyticsQueue,
    inbox: {
      sync: inboxSync,
      queue: inboxQueue,
      metaVerifyToken: metaVerifyToken(
        config.inbox.metaWebhookVerifyToken,
        config.isProduction,
        secrets.derive('sandbox-client'),
      ),
    },
    async startJobs() {
      if (boss && options.jobs) await startJobs(boss, options.jobs, jobs);
      await nudges?.start();
    },
    async startQueues() {
      if (boss) await startQueues(boss, jobs);
    },
    async startHandlers() {
      if (boss && options.jobs) await startHandlers(boss, options.jobs, jobs);
      await nudges?.start();
    },
    async stopJobs(stop = { graceful: true, timeout: 10_000 }) {
      await nudges?.stop();
      await deliverAtOnce.idle();
      if (!boss) return;
      // Its pool stays open until the handlers have handed their work back (a publication
      // re-queues its target through pg-boss).
      await boss.stop({ ...stop, close: false });
      if (stop.graceful !== false) await handlersSettled(boss, HAND_BACK_MS);
      await boss.stop({ close: true });
    },
    async close() {
      await publishSlots.close();
      await media.close();
    },
  };
}

/**
 * For the API process: a fetch that answers the sandboxes' public URLs from `app` itself, over
 * loopback once it listens (the server talks to its own emulators without its public URL
 * resolving from inside).
 */
export const sandboxFetch = (app: FastifyInstance, config: Config): PlatformHttp =>
  selfFetch(app, `${config.apiPublicUrl}/sandbox`, `${config.apiBasePath}/sandbox`);

/**
 * Mounts the emulator of every network that runs in sandbox mode under {api}/sandbox/{slug}.
 * Their `/_emu/` routes act for one of the caller's organizations (`loadMembership`).
 */
export async function mountNetworkSandboxes(
  app: FastifyInstance,
  config: Config,
  database: Database,
  runtime: Runtime,
  loadMembership: LoadMembership,
) {
  const sandboxed = [...runtime.networks.values()].filter((n) => n.sandbox).map((n) => n.slug);
  const sandboxSecret = runtime.secrets.derive('sandbox-client');
  const inProcess = selfFetch(app, config.apiPublicUrl, config.apiBasePath);
  const herald = (url: string | URL, init?: RequestInit) => inProcess(String(url), init);
  await mountSandboxes(app, sandboxed, {
    db: database.db,
    apiBasePath: config.apiBasePath,
    publicBase: (slug) => sandboxBase(config, slug),
    heraldApi: config.apiPublicUrl,
    clientId: SANDBOX_CLIENT_ID,
    clientSecret: (slug) => sandboxAppSecret(sandboxSecret, slug),
    tenantOf: organizationTenants(database.db, loadMembership),
    unauditedNetworks: unauditedNetworks(config),
    runsLocally: config.sandboxLocalMedia,
    signerOf: consentSigners(database.db),
    // Herald's receivers and media route, answered in-process (heraldMediaOnly and
    // receiversOnly narrow them to those paths).
    deliver: herald,
    fetchMedia: herald,
    // A network's clock moved on: its posts are older there, so their readings come sooner.
    clockMoved: (slug) => {
      const network = [...runtime.networks.values()].find((n) => n.slug === slug);
      return async (seconds) => {
        if (!network) return;
        const moved = await runtime.analyticsQueue.networkTimeMoved(network.name, seconds * 1000);
        app.log.info(
          { network: network.name, seconds, readings: moved },
          'sandbox clock moved: readings brought forward',
        );
      };
    },
  });
  if (sandboxed.length && config.sandboxLocalMedia)
    app.log.info(
      { sandboxes: sandboxed },
      'network sandboxes accept media URLs on this machine (SANDBOX_LOCAL_MEDIA=false makes them refuse these as the networks do)',
    );
}
