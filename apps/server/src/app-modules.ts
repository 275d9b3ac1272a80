import { shortLinkBase } from '@herald/contract';
import type { FastifyInstance, FastifyPluginAsync, FastifyPluginOptions } from 'fastify';
import type { Config } from './config.js';
import type { Database, Db } from './db/client.js';
import type { LoadMembership } from './http/access.js';
import type { RelyingParty } from './identity/oidc-client.js';
import type { SessionService } from './identity/session.service.js';
import { enableMetrics } from './lib/metrics.js';
import type { Mailer } from './lib/mailer.js';
import type { StartupPhases } from './lib/startup-phases.js';
import type { TokenCipher } from './lib/token-crypto.js';
import type { MediaStore } from './media/media-store.js';
import { mediaRoutes } from './media/media.routes.js';
import { adminRoutes } from './modules/admin/admin.routes.js';
import { analyticsRoutes } from './modules/analytics/analytics.routes.js';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes.js';
import { allClientsRoutes } from './modules/all-clients/all-clients.routes.js';
import { approvalLinksRoutes } from './modules/approvals/approval-links.routes.js';
import { approvalsRoutes } from './modules/approvals/approvals.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import type { BillingProvider } from './modules/billing/billing-provider.js';
import { billingRoutes } from './modules/billing/billing.routes.js';
import { commentsRoutes } from './modules/comments/comments.routes.js';
import { composerRoutes } from './modules/composer/composer.routes.js';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { metricsRoutes } from './modules/health/metrics.routes.js';
import { mcpRoutes } from './modules/mcp/mcp.routes.js';
import { mediaLibraryRoutes } from './modules/media-library/media-library.routes.js';
import { postAccounts } from './modules/posts/post-accounts.js';
import { conversationAccount } from './modules/inbox/inbox-context.js';
import { MetricsScrape } from './modules/health/metrics.service.js';
import { inboxRoutes } from './modules/inbox/inbox.routes.js';
import { webhooksRoutes } from './modules/inbox/webhooks.routes.js';
import type { ConnectStates } from './modules/integrations/connect-state.js';
import { integrationsRoutes } from './modules/integrations/integrations.routes.js';
import { invitationsRoutes } from './modules/invitations/invitations.routes.js';
import type { NotificationBus } from './modules/notifications/notification-bus.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { outgoingWebhooksRoutes } from './modules/outgoing-webhooks/outgoing-webhooks.routes.js';
import { organizationsRoutes } from './modules/organizations/organizations.routes.js';
import { platformsRoutes } from './modules/platforms/platforms.routes.js';
import { plansRoutes } from './modules/plans/plans.routes.js';
import { postExtrasRoutes } from './modules/post-extras/post-extras.routes.js';
import { postImportRoutes } from './modules/post-import/import.routes.js';
import { feedsRoutes } from './modules/feeds/feeds.routes.js';
import { evergreenRoutes } from './modules/evergreen/evergreen.routes.js';
import { postsDashboardSource } from './modules/posts/posts-dashboard.js';
import { postsRoutes } from './modules/posts/posts.routes.js';
import type { PostLifecycle } from './modules/posts/posts.service.js';
import { publishingRoutes } from './modules/publishing/publishing.routes.js';
import { queueRoutes } from './modules/queue/queue.routes.js';
import { reportsRoutes } from './modules/reports/reports.routes.js';
import { shortLinkRoutes } from './modules/short-links/short-links.routes.js';
import { teamRoutes } from './modules/team/team.routes.js';
import { tiktokRoutes } from './modules/tiktok/tiktok.routes.js';
import { blueskyRoutes } from './modules/bluesky/bluesky.routes.js';
import { pinterestRoutes } from './modules/pinterest/pinterest.routes.js';
import { readCreatorInfo } from './modules/tiktok/tiktok.service.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { mountNetworkSandboxes, type Runtime } from './runtime.js';

/** What the composition root hands the modules: built once in `buildApp`, read by each entry. */
export interface ModuleDeps {
  config: Config;
  database: Database;
  db: Db;
  runtime: Runtime;
  sessions: SessionService;
  relyingParty: RelyingParty;
  loadMembership: LoadMembership;
  cipher: TokenCipher;
  media: MediaStore;
  networks: Runtime['networks'];
  /** How posts reach the publishing queue (create, approve, queue, import). */
  lifecycle: PostLifecycle;
  connectStates: ConnectStates;
  mailer: Mailer | null;
  billing: BillingProvider;
  bus: NotificationBus;
  now: () => Date;
  isStopping?: () => boolean;
  phases?: StartupPhases;
}

/** One module of the API: mounts its routes (and whatever they stand on) under the base path. */
export interface ApiModule {
  name: string;
  mount(app: FastifyInstance, prefix: string, deps: ModuleDeps): Promise<void>;
}

/** A module that is one route plugin: its options are read from the composition root's deps. */
const routes = <Options extends FastifyPluginOptions>(
  name: string,
  plugin: FastifyPluginAsync<Options>,
  options: (deps: ModuleDeps) => Options,
): ApiModule => ({
  name,
  mount: async (app, prefix, deps) => {
    await app.register(plugin, { prefix, ...options(deps) });
  },
});

const tiktokCompose = (d: ModuleDeps) => ({ db: d.db, cipher: d.cipher, networks: d.networks });
const postsDeps = (d: ModuleDeps) => ({
  db: d.db,
  media: d.media,
  lifecycle: d.lifecycle,
  now: d.now,
  shortLinkBase: shortLinkBase(d.config.publicUrl),
  withdrawUploaded: (organizationId: string, postIds: string[]) =>
    d.runtime.publisher.withdrawUploaded(organizationId, postIds),
});

/**
 * Every module of the API, in the order it is mounted. A new module is one line here; the
 * networks' emulators mount before the modules that call them.
 */
export const API_MODULES: readonly ApiModule[] = [
  routes('health', healthRoutes, (d) => ({ database: d.database, isStopping: d.isStopping })),
  {
    name: 'metrics',
    mount: async (app, prefix, d) => {
      if (!d.config.metrics) return;
      // Loaded before the first request can be counted; none of it without a token.
      await enableMetrics();
      const scrape = new MetricsScrape(d.config.metrics.token, {
        database: d.database,
        boss: d.runtime.boss,
        queueNames: d.runtime.queueNames,
      });
      await app.register(metricsRoutes, { prefix, scrape });
    },
  },
  routes('auth', authRoutes, (d) => ({
    config: d.config,
    db: d.db,
    sessions: d.sessions,
    relyingParty: d.relyingParty,
    loadMembership: d.loadMembership,
  })),
  routes('organizations', organizationsRoutes, (d) => ({ db: d.db, media: d.media })),
  routes('team', teamRoutes, (d) => ({ db: d.db, invitationEmail: !!d.mailer })),
  routes('api-keys', apiKeysRoutes, (d) => ({ db: d.db, now: d.now })),
  routes('plans', plansRoutes, (d) => ({ db: d.db })),
  routes('users', usersRoutes, (d) => ({ db: d.db })),
  routes('admin', adminRoutes, (d) => ({
    db: d.db,
    networkSetup: { config: d.config, networks: d.networks, http: d.runtime.http },
    analytics: d.runtime.analytics,
    now: d.now,
  })),
  routes('notifications', notificationsRoutes, (d) => ({
    db: d.db,
    bus: d.bus,
    now: d.now,
    mailer: d.mailer,
    cipher: d.cipher,
    allowPrivate: d.config.mediaImport.allowPrivate,
  })),
  routes('outgoing-webhooks', outgoingWebhooksRoutes, (d) => ({
    db: d.db,
    cipher: d.cipher,
    allowPrivate: d.config.mediaImport.allowPrivate,
    now: d.now,
    ...d.config.outgoingWebhooks,
  })),
  routes('dashboard', dashboardRoutes, (d) => ({
    db: d.db,
    posts: postsDashboardSource(d.db, d.now),
  })),
  routes('analytics', analyticsRoutes, (d) => ({
    db: d.db,
    media: d.media,
    collector: d.runtime.analytics,
    now: d.now,
    shortLinkBase: shortLinkBase(d.config.publicUrl),
  })),
  routes('reports', reportsRoutes, (d) => ({
    db: d.db,
    media: d.media,
    mailer: d.mailer,
    now: d.now,
  })),
  {
    name: 'sandboxes',
    mount: async (app, _prefix, d) => {
      d.phases?.mark('routes');
      await mountNetworkSandboxes(app, d.config, d.database, d.runtime, d.loadMembership);
      d.phases?.mark('sandboxes');
    },
  },
  routes('platforms', platformsRoutes, (d) => ({
    db: d.db,
    networks: d.networks,
    apiPublicUrl: d.config.apiPublicUrl,
  })),
  routes('integrations', integrationsRoutes, (d) => ({
    db: d.db,
    cipher: d.cipher,
    networks: d.networks,
    states: d.connectStates,
    publicUrl: d.config.publicUrl,
    apiPublicUrl: d.config.apiPublicUrl,
    // A new account's inbox: subscribe to its webhooks and import its history (docs/inbox.md);
    // a reconnected one's videos uploaded ahead follow their posts again.
    onConnected: async (integrationIds: string[]) => {
      await d.runtime.publisher.followAccounts(integrationIds);
      await d.runtime.inbox.queue.importAccounts(integrationIds);
    },
  })),
  routes('media', mediaRoutes, (d) => ({ media: d.media })),
  {
    // `/l/<code>` on Herald's own host, outside the API's prefix (docs/analytics.md#short-links).
    name: 'short-links',
    mount: async (app, _prefix, d) => {
      await app.register(shortLinkRoutes, { db: d.db, now: d.now });
    },
  },
  routes('tiktok', tiktokRoutes, tiktokCompose),
  routes('bluesky', blueskyRoutes, tiktokCompose),
  routes('pinterest', pinterestRoutes, tiktokCompose),
  routes('posts', postsRoutes, (d) => ({
    ...postsDeps(d),
    mediaImport: d.config.mediaImport,
    tiktokCreator: (orgId: string, integrationId: string) =>
      readCreatorInfo(tiktokCompose(d), orgId, integrationId),
    youtubeDay: (goesOutAt: Date, exceptPostId?: string, db?: Db) =>
      d.runtime.youtubeQuota.leftOn(goesOutAt, exceptPostId, db),
  })),
  routes('approvals', approvalsRoutes, postsDeps),
  routes('approval-links', approvalLinksRoutes, (d) => ({
    ...postsDeps(d),
    mailer: d.mailer,
    publicUrl: d.config.publicUrl,
    apiPublicUrl: d.config.apiPublicUrl,
  })),
  routes('post-extras', postExtrasRoutes, (d) => ({
    db: d.db,
    media: d.media,
    now: d.now,
  })),
  routes('composer', composerRoutes, (d) => ({ db: d.db, now: d.now })),
  routes('queue', queueRoutes, postsDeps),
  routes('post-import', postImportRoutes, (d) => ({
    ...postsDeps(d),
    mediaImport: d.config.mediaImport,
  })),
  routes('media-library', mediaLibraryRoutes, (d) => ({ db: d.db, media: d.media, now: d.now })),
  routes('feeds', feedsRoutes, (d) => ({
    ...postsDeps(d),
    mediaImport: d.config.mediaImport,
    minIntervalMs: d.config.feeds.minIntervalMs,
    websub: d.runtime.feedsWebSub,
  })),
  routes('evergreen', evergreenRoutes, postsDeps),
  routes('publishing', publishingRoutes, (d) => ({
    db: d.db,
    publisher: d.runtime.publisher,
    queue: d.runtime.publishQueue,
    now: d.now,
  })),
  routes('mcp', mcpRoutes, (d) => ({
    ...postsDeps(d),
    tiktokCreator: (orgId: string, integrationId: string) =>
      readCreatorInfo(tiktokCompose(d), orgId, integrationId),
    cipher: d.cipher,
    networks: d.networks,
    publisher: d.runtime.publisher,
    queue: d.runtime.publishQueue,
    reach: {
      postAccounts: (orgId: string, postIds: string[]) => postAccounts(d.db, orgId, postIds),
      conversationAccount: (orgId: string, id: string) => conversationAccount(d.db, orgId, id),
    },
  })),
  routes('comments', commentsRoutes, (d) => ({
    db: d.db,
    cipher: d.cipher,
    networks: d.networks,
  })),
  routes('inbox', inboxRoutes, (d) => ({
    db: d.db,
    cipher: d.cipher,
    networks: d.networks,
    now: d.now,
  })),
  routes('all-clients', allClientsRoutes, (d) => ({
    ...postsDeps(d),
    cipher: d.cipher,
    networks: d.networks,
  })),
  routes('webhooks', webhooksRoutes, (d) => ({
    sync: d.runtime.inbox.sync,
    metaVerifyToken: d.runtime.inbox.metaVerifyToken,
  })),
  routes('billing', billingRoutes, (d) => ({
    db: d.db,
    billing: d.billing,
    publicUrl: d.config.publicUrl,
  })),
  routes('invitations', invitationsRoutes, (d) => ({
    db: d.db,
    mailer: d.mailer,
    publicUrl: d.config.publicUrl,
  })),
];
