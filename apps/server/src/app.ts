import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  type RouteOptions,
} from 'fastify';
import { jsonSchemaTransformObject, validatorCompiler } from 'fastify-type-provider-zod';
import { openApiTransform } from './http/openapi-transform.js';
import { DEV_CLIENT_ID, lazyDevProvider, mountDevProvider } from './identity/dev-idp.js';
import type { CustomFetch } from 'openid-client';
import { RelyingParty } from './identity/oidc-client.js';
import type { SessionService } from './identity/session.service.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { isKeyRoute, isOrgRoute, registerAccessControl, originCheck } from './http/access.js';
import {
  clientErrorHandler,
  frameworkErrors,
  registerErrorHandling,
} from './http/error-handler.js';
import { registerHostRedirect } from './http/host-redirect.js';
import { changesState, hookRoutes, recordRoutes, STATE_CHANGING } from './http/route-hooks.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { mediaUrlWarning } from './platforms/public-media-url.js';
import { selfFetch } from './http/self-fetch.js';
import { lazyChildLogger } from './lib/lazy-child-logger.js';
import { createCounterStore, registerRateLimits } from './http/rate-limits.js';
import { registerIdempotency } from './http/idempotency.js';
import { registerCompression } from './http/compression.js';
import { responseSerializerCompiler } from './http/response-serializer.js';
import type { StartupPhases } from './lib/startup-phases.js';
import * as idempotency from './modules/idempotency/idempotency.service.js';
import { apiKeyAuthenticator } from './modules/api-keys/api-keys.service.js';
import { findWebDist, serveSpa } from './http/spa.js';
import { recordRequest } from './lib/metrics.js';
import { createMailer, type Mailer } from './lib/mailer.js';
import {
  type BillingProvider,
  createStripeClient,
  noBilling,
  StripeBilling,
} from './modules/billing/billing-provider.js';
import { ConnectStates } from './modules/integrations/connect-state.js';
import { forgetPostTotals } from './modules/posts/posts.lookups.js';
import { postAccounts } from './modules/posts/post-accounts.js';
import { conversationAccount } from './modules/inbox/inbox-context.js';
import { accountReach } from './modules/team/account-reach.js';
import { forgetCreatorNames } from './modules/posts/creator-names.js';
import { forgetTargetNames } from './modules/posts/target-names.js';
import { MembershipCache } from './modules/team/membership.js';
import { publishingLifecycle } from './modules/publishing/publishing.service.js';
import { loggedUrl, logOptions } from './lib/log-options.js';
import type { MediaStore } from './media/media-store.js';
import { NotificationBus } from './modules/notifications/notification-bus.js';
import type { NetworkRuntime } from './platforms/runtime.js';
import type { TokenCipher } from './lib/token-crypto.js';
import type { PublishQueue } from './modules/publishing/publish-queue.js';
import type { Publisher } from './modules/publishing/publisher.js';
import type { Runtime } from './runtime.js';
import { API_MODULES, type ModuleDeps } from './app-modules.js';

export interface BuiltApp {
  app: FastifyInstance;
  networks: Map<string, NetworkRuntime>;
  cipher: TokenCipher;
  sessions: SessionService;
  orgRoutes: Set<string>;
  media: MediaStore;
  publishQueue: PublishQueue;
  publisher: Publisher;
  /**
   * Makes what is otherwise made by its first request (the development identity provider):
   * `herald start` calls it once it is ready, so the first sign-in does not wait for it.
   */
  warmUp(): Promise<void>;
}

export interface FastifyOptions {
  /** pino options, or false to stay quiet (tests). */
  logger?: boolean | Record<string, unknown>;
}

export interface BuildAppOptions {
  /** Replaces the SMTP mailer built from config (tests). */
  mailer?: Mailer | null;
  /** Replaces the billing provider built from config (tests). */
  billing?: BillingProvider;
  /** Serve the built SPA when it exists (the all-in-one shapes). */
  serveWeb?: boolean;
  now?: () => Date;
  /** Records how long the parts of building took (the start's log line). */
  phases?: StartupPhases;
  /** Whether the process is stopping: readyz then answers 503 (server.ts). */
  isStopping?: () => boolean;
}

const API_KEY_SCHEME = 'apiKey';
const SESSION_SCHEME = 'session';
/** How callers prove who they are, as /api/docs shows it (docs/api.md). */
const SECURITY_SCHEMES = {
  [API_KEY_SCHEME]: {
    type: 'http' as const,
    scheme: 'bearer',
    bearerFormat: 'hrld_<prefix>_<secret>',
    description:
      "An organization's API key (Settings → API keys), as `Authorization: Bearer <key>`. Works on that organization's routes its permissions allow; never on the back-office or on a user's own routes. Limited per key per minute (429 with Retry-After).",
  },
  [SESSION_SCHEME]: {
    type: 'apiKey' as const,
    in: 'cookie' as const,
    name: 'herald_at',
    description:
      'The web app’s session. A request that changes something must come from Herald’s own origin (or carry a JSON body).',
  },
};

/** The bare Fastify instance (logging, limits, request ids); `buildApp` fills it. */
export function createFastify(config: Config, options: FastifyOptions = {}): FastifyInstance {
  const trustProxy: FastifyServerOptions['trustProxy'] = config.trustProxy;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            ...logOptions(config.logLevel, config.logFormat),
            ...(typeof options.logger === 'object' ? options.logger : {}),
          },
    bodyLimit: config.bodyLimitBytes,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    trustProxy,
    // Live streams (Server-Sent Events) must not hold a shutdown open.
    forceCloseConnections: true,
    // Router and HTTP parser errors (bad percent-encoding, long parameters, huge headers) answer
    // with the error envelope too.
    frameworkErrors,
    clientErrorHandler,
    // One line per request (below) instead of Fastify's "incoming request" + "request completed".
    logController: new LogController({ disableRequestLogging: true }),
    // A request's logger is made when it first writes (most requests write one line or none).
    childLoggerFactory: lazyChildLogger,
  });
  // With metrics on, the same one hook also counts the request.
  app.addHook('onResponse', config.metrics ? logAndCountRequest : logRequestLine);
  // Every route, so that the hooks of some routes (the origin check of writes…) are sure to be on
  // each route they concern (http/route-hooks.ts).
  recordRoutes(app);
  return app;
}

/** The one log line of a request: method, url, status and time taken. */
export function logRequestLine(request: FastifyRequest, reply: FastifyReply, done: () => void) {
  // Nothing is built for a request whose level leaves it out (the health checks log at warn).
  const log = request.log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
  if (log.isLevelEnabled?.('info') ?? true) {
    const url = loggedUrl(request.url);
    request.log.info(
      {
        method: request.method,
        url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      `${request.method} ${url} ${reply.statusCode} ${Math.round(reply.elapsedTime)}ms`,
    );
  }
  done();
}

/**
 * logRequestLine, and the request counted in the request histogram by the route pattern Fastify
 * matched (undefined when none did), never by its URL.
 */
function logAndCountRequest(request: FastifyRequest, reply: FastifyReply, done: () => void) {
  recordRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime);
  logRequestLine(request, reply, done);
}

/**
 * Registers every plugin and module on `app` (from `createFastify`), with the services of the
 * composition root (`createRuntime` in runtime.ts); does not listen.
 */
export async function buildApp(
  app: FastifyInstance,
  config: Config,
  database: Database,
  runtime: Runtime,
  options: BuildAppOptions = {},
): Promise<BuiltApp> {
  const { secrets, sessions, networks, cipher, media, publishQueue, publisher } = runtime;
  const base = config.apiBasePath;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ check: config.nodeEnv === 'test' }));
  // Hooks that run on every request take callbacks, not promises: a health check runs a dozen
  // of them and each promise was a measurable part of its time.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  registerErrorHandling(app);
  // Every answer, the host redirect's and the error handler's included; JSON answers are not
  // kept by any cache (cache-control: no-store, with the JSON set of headers).
  registerSecurityHeaders(app, {
    strictTransportSecurity: config.secureCookies,
    // With no-referrer, browsers send `Origin: null` on form posts, which the CSRF check refuses.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        mediaSrc: ["'self'", 'blob:', 'https:'],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        connectSrc: ["'self'"],
        frameSrc: ["'self'", 'https:'],
        formAction: ["'self'", config.apiPublicUrl],
        upgradeInsecureRequests: config.secureCookies ? [] : null,
      },
    },
  });
  registerHostRedirect(app, {
    publicUrl: config.publicUrl,
    apiPublicUrl: config.apiPublicUrl,
    apiBasePath: base,
    pages: Boolean(options.serveWeb),
  });
  app.log.info(`Pages opened by another host name are redirected to ${config.publicUrl}`);
  const mediaWarning = mediaUrlWarning(config.apiPublicUrl, networks.values());
  if (mediaWarning) app.log.warn(mediaWarning);

  await app.register(fastifyCookie, { secret: secrets.derive('cookie-signing') });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Herald API',
        version: '0.1.0',
        description: 'Every request and answer, generated from the shared contract.',
      },
      servers: [{ url: config.apiPublicUrl.replace(new RegExp(`${base}$`), '') || '/' }],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: openApiTransform,
    // The named schemas (a recursive one, such as a comment and its replies) as components.
    transformObject: jsonSchemaTransformObject,
  });
  // Organization routes take an API key or the session; the others the session alone.
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (!access || access === 'public' || access === 'guest') return;
    const security: Array<Record<string, string[]>> = isOrgRoute(route)
      ? [{ [API_KEY_SCHEME]: [] }, { [SESSION_SCHEME]: [] }]
      : isKeyRoute(route)
        ? [{ [API_KEY_SCHEME]: [] }]
        : [{ [SESSION_SCHEME]: [] }];
    route.schema = { ...route.schema, security };
  });
  await app.register(fastifySwaggerUi, { routePrefix: `${base}/docs`, staticCSP: true });

  const memberships = new MembershipCache(database.db);
  const loadMembership = memberships.load.bind(memberships);
  // Who may do what is cached for a moment (AUTH_CACHE_TTL_MS, MEMBERSHIP_CACHE_TTL_MS), and so
  // are the totals of posts (POST_TOTAL_TTL_MS) and the names their targets and creators show
  // (TARGET_NAMES_TTL_MS, CREATOR_NAMES_TTL_MS); any request that may have changed them — every
  // state-changing method, answered or refused — clears them before its answer leaves, so the
  // caller's next request sees the change.
  // (A network's webhook delivery or a sandbox call changes none of them: a burst of deliveries
  // must not empty the caches every signed-in request relies on.)
  const keepsAccess = [`${base}/webhooks/`, `${base}/sandbox/`];
  // Hooks of the routes that change something (a read, or a 404, runs none of them).
  const forgetsAccess = (route: RouteOptions) =>
    (changesState(route) || route.config?.changesAccess === true) &&
    !keepsAccess.some((p) => route.url.startsWith(p));
  const forgetAccess = (request: FastifyRequest) => {
    if (STATE_CHANGING.has(request.method) || request.routeOptions.config.changesAccess) {
      sessions.forgetCached();
      memberships.forget();
      forgetPostTotals();
      forgetTargetNames();
      forgetCreatorNames();
    }
  };
  hookRoutes(app, 'onSend', forgetsAccess, (request, _reply, payload, done) => {
    forgetAccess(request);
    done(null, payload);
  });
  // Again once answered: work a handler finishes after its answer is on its way.
  hookRoutes(app, 'onResponse', forgetsAccess, (request, _reply, done) => {
    forgetAccess(request);
    done();
  });
  const orgRoutes = registerAccessControl(app, {
    sessions,
    loadMembership,
    apiKeys: apiKeyAuthenticator(database.db, options.now ?? (() => new Date())),
    exemptPrefixes: [`${base}/docs`, `${base}/sandbox/`],
    basePath: base,
  });
  hookRoutes(
    app,
    'preHandler',
    (route) => typeof route.config?.access === 'object',
    accountReach({
      postAccounts: (orgId, postIds) => postAccounts(database.db, orgId, postIds),
      conversationAccount: (orgId, id) => conversationAccount(database.db, orgId, id),
    }),
  );
  hookRoutes(
    app,
    'onRequest',
    changesState,
    originCheck(
      [config.publicUrl, new URL(config.apiPublicUrl).origin],
      // WebSub hubs call back without an Origin (docs/feeds.md#websub-push).
      [`${base}/sandbox/`, `${base}/oidc/`, `${base}/webhooks/`, `${base}/websub/`],
    ),
  );
  await registerRateLimits(app, { config, store: await createCounterStore(config, database) });
  registerIdempotency(app, {
    claim: (userId, key, request) => idempotency.claimKey(database.db, userId, key, request),
    record: (userId, key, status, body) =>
      idempotency.recordAnswer(database.db, userId, key, status, body),
    release: (userId, key) => idempotency.releaseKey(database.db, userId, key),
  });
  // Last of the onSend hooks: the ones above see the plain answer.
  registerCompression(app);
  options.phases?.mark('plugins');

  // What is made on first use rather than before the server is ready; `warmUp` makes it early.
  const warmUps: Array<() => Promise<unknown>> = [];
  const redirectUri = `${config.apiPublicUrl}/auth/google/callback`;
  let relyingParty: RelyingParty;
  if (config.identity.kind === 'development') {
    const issuer = `${config.apiPublicUrl}/oidc`;
    const devOptions = {
      db: database.db,
      issuer,
      mountPath: `${base}/oidc`,
      interactionPath: `${base}/dev-idp/interaction`,
      redirectUri,
      clientSecret: secrets.derive('dev-idp-client'),
      cookieKey: secrets.derive('dev-idp-cookies'),
      jwk: secrets.devIdpJwk,
      secureCookies: config.secureCookies,
    };
    const devProvider = lazyDevProvider(devOptions);
    await mountDevProvider(app, devProvider, devOptions);
    warmUps.push(devProvider);
    relyingParty = new RelyingParty({
      redirectUri,
      provider: { issuer, clientId: DEV_CLIENT_ID, clientSecret: devOptions.clientSecret },
      // The provider lives in this process: talk to it directly, whatever the public URL is.
      fetch: selfFetch(app, issuer, base ? `${base}/oidc` : '/oidc') as unknown as CustomFetch,
      // The provider's own session outlives Herald's logout: always ask who is signing in, so a
      // sign-in after Logout shows the form instead of silently bringing the same person back.
      prompt: 'login',
    });
  } else {
    relyingParty = new RelyingParty({
      redirectUri,
      provider: config.identity,
      ...(config.identity.kind === 'google' ? { prompt: 'select_account' } : {}),
    });
  }

  const mailer =
    options.mailer !== undefined ? options.mailer : createMailer(config.smtpUrl, config.mailFrom);
  const billing =
    options.billing ??
    (config.stripe
      ? new StripeBilling(await createStripeClient(config.stripe), config.stripe.webhookSecret)
      : noBilling);
  const bus = new NotificationBus(database, app.log);
  await bus.start();
  app.addHook('onClose', () => bus.stop());
  const deps: ModuleDeps = {
    config,
    database,
    db: database.db,
    runtime,
    sessions,
    relyingParty,
    loadMembership,
    cipher,
    media,
    networks,
    lifecycle: publishingLifecycle(publishQueue, options.now),
    connectStates: new ConnectStates(secrets.derive('connect-state')),
    mailer,
    billing,
    bus,
    now: options.now ?? (() => new Date()),
    isStopping: options.isStopping,
    phases: options.phases,
  };
  for (const module of API_MODULES) await module.mount(app, base, deps);

  if (options.serveWeb) {
    const dist = findWebDist(config.webDistDir);
    if (dist) await serveSpa(app, dist, base);
    else app.log.warn('The web app is not built (apps/web/dist); only the API is served.');
  }
  options.phases?.mark('routes');
  const warmUp = async () => {
    await Promise.all(warmUps.map((make) => make()));
  };
  return { app, sessions, orgRoutes, networks, cipher, media, publishQueue, publisher, warmUp };
}
