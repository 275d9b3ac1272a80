import { createPrivateKey, createPublicKey, type JsonWebKey } from 'node:crypto';
import { join } from 'node:path';
import { PLATFORM_NAMES, platformSlug } from '@herald/contract';
import { z } from 'zod';
import { LINKEDIN_API_VERSIONS, META_GRAPH_VERSIONS } from './lib/api-versions.js';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

/** A whole number of minutes (1 to a week), or unset. */
const optionalMinutes = optionalString
  .transform((v) => (v === undefined ? undefined : Number(v)))
  .pipe(
    z
      .number()
      .int('Poll intervals are whole minutes.')
      .min(1)
      .max(7 * 24 * 60)
      .optional(),
  );

const emailList = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  );

const flag = z
  .string()
  .optional()
  .transform((v) => (v ?? '').trim().toLowerCase())
  .pipe(z.enum(['', 'true', 'false', '1', '0', 'yes', 'no']))
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const GIB = 1024 ** 3;

/**
 * An ES256 private key as a JWK (`{"kty":"EC","crv":"P-256","x":…,"y":…,"d":…}`), or unset: the
 * key a network's OAuth client signs with (Bluesky's `private_key_jwt`). Its public half must be
 * the one its private scalar makes, or authorization servers would refuse every signature.
 */
const es256PrivateJwk = optionalString.superRefine((value, ctx) => {
  if (value === undefined) return;
  const refuse = (why: string) =>
    ctx.addIssue({
      code: 'custom',
      message: `must be an ES256 private key as a JSON Web Key ({"kty":"EC","crv":"P-256","x":…,"y":…,"d":…}): ${why}`,
    });
  let jwk: JsonWebKey;
  try {
    jwk = JSON.parse(value) as JsonWebKey;
  } catch {
    return refuse('it is not JSON.');
  }
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk))
    return refuse('it is not a JSON object.');
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256')
    return refuse(
      `its kty and crv are ${String(jwk.kty)} and ${String(jwk.crv)}, not EC and P-256.`,
    );
  if (typeof jwk.d !== 'string' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string')
    return refuse('it needs x, y and the private member d.');
  try {
    const own = createPublicKey(createPrivateKey({ key: jwk, format: 'jwk' })).export({
      format: 'jwk',
    });
    if (own.x !== jwk.x || own.y !== jwk.y) refuse('its x and y are not the public half of its d.');
  } catch {
    refuse('its members do not make a P-256 key.');
  }
});

/** Every variable Herald reads by its own name; the networks' ones are read by their shape. */
const ConfigSchema = z
  .looseObject({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    HERALD_DATA_DIR: z.string().default('./.herald'),
    DATABASE_URL: optionalString,
    PUBLIC_URL: z.url().optional(),
    API_PUBLIC_URL: z.url().optional(),
    API_BASE_PATH: z
      .string()
      .default('/api')
      .transform((v) => (v === '/' ? '' : v.replace(/\/+$/, '')))
      .refine((v) => v === '' || v.startsWith('/'), 'API_BASE_PATH must start with "/".'),
    ADMIN_EMAILS: emailList,
    SESSION_SECRET: optionalString,
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    LOG_FORMAT: optionalString.pipe(z.enum(['json', 'pretty']).optional()),
    GOOGLE_CLIENT_ID: optionalString,
    GOOGLE_CLIENT_SECRET: optionalString,
    OIDC_ISSUER_URL: optionalString,
    OIDC_CLIENT_ID: optionalString,
    OIDC_CLIENT_SECRET: optionalString,
    OIDC_LABEL: optionalString,
    BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
    WEB_DIST_DIR: optionalString,
    SMTP_URL: optionalString,
    TRUST_PROXY: z
      .string()
      .optional()
      .transform((v) => {
        const value = (v ?? '').trim();
        if (value === '' || value === 'loopback') return 'loopback';
        if (value === 'true') return true;
        if (value === 'false') return false;
        if (/^\d+$/.test(value)) {
          const hops = Number(value);
          return (_address: string, hop: number) => hop < hops;
        }
        return value;
      }),
    BILLING_PROVIDER: optionalString.pipe(z.enum(['stripe', 'none']).optional()),
    TOKEN_ENCRYPTION_KEY: optionalString,
    /** The key TOKEN_ENCRYPTION_KEY replaces: read once at start to seal the tokens again. */
    TOKEN_ENCRYPTION_KEY_PREVIOUS: optionalString,
    PUBLISH_STUCK_AFTER_SECONDS: z.coerce.number().int().min(1).default(600),
    SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
    /** Turns `/api/metrics` on, for this bearer token only (docs/operations.md#metrics). */
    METRICS_TOKEN: optionalString,
    /** Where `herald worker`, which has no HTTP server of its own, serves its metrics. */
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).default(9464),
    PROCESS_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(300).default(10),
    PROCESS_LAPSE_SECONDS: z.coerce.number().int().min(2).max(3600).default(30),
    /** Herald's verify token for Meta's webhook handshake (docs/inbox.md#configuration). */
    META_WEBHOOK_VERIFY_TOKEN: optionalString,
    /**
     * Google Business Profile review notifications through Cloud Pub/Sub
     * (docs/networks.md#google-business-profile-push): the topic Google publishes to, and what
     * the push subscription's token says (its audience and service account).
     */
    GOOGLE_BUSINESS_PUBSUB_TOPIC: optionalString,
    GOOGLE_BUSINESS_PUSH_AUDIENCE: optionalString,
    GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT: optionalString,
    /** The sandboxes run beside Herald and may fetch its loopback media URLs (the default). */
    SANDBOX_LOCAL_MEDIA: z
      .string()
      .optional()
      .transform((v) => (v ?? '').trim().toLowerCase())
      .pipe(z.enum(['', 'true', 'false', '1', '0', 'yes', 'no']))
      .transform((v) => v === '' || v === 'true' || v === '1' || v === 'yes'),
    /**
     * The `LinkedIn-Version` Herald sends; LinkedIn refuses a version about a year after its
     * release, so it is a setting (docs/operations.md#network-api-versions).
     */
    LINKEDIN_API_VERSION: optionalString.pipe(
      z
        .string()
        .regex(
          /^\d{6}(\.\d{2})?$/,
          `must be a LinkedIn API version, a year and month such as ${LINKEDIN_API_VERSIONS.defaultVersion}.`,
        )
        .optional(),
    ),
    /** The Graph API version in Facebook's and Instagram's paths (docs/operations.md#network-api-versions). */
    META_GRAPH_VERSION: optionalString.pipe(
      z
        .string()
        .regex(
          /^v\d+\.\d+$/,
          `must be a Graph API version such as ${META_GRAPH_VERSIONS.defaultVersion}.`,
        )
        .optional(),
    ),
    STRIPE_SECRET_KEY: optionalString,
    STRIPE_WEBHOOK_SECRET: optionalString,
    STRIPE_API_URL: z.url().optional(),
    MAIL_FROM: z.string().default('Herald <no-reply@herald.localhost>'),
    MEDIA_STORAGE: optionalString.pipe(z.enum(['local', 's3']).optional()),
    MEDIA_DIR: optionalString,
    MEDIA_TEMP_DIR: optionalString,
    MEDIA_URL_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(7 * 24 * 3600)
      .default(3600),
    MEDIA_MAX_FILE_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(5 * GIB),
    /** CSV import: the most bytes one fetched media URL may have (docs/queue-and-import.md). */
    MEDIA_IMPORT_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(100 * 1024 * 1024),
    /**
     * CSV import and organization webhooks, FOR TESTS ONLY: "host:port" pairs on private or
     * loopback addresses that media may be fetched from and webhooks posted to (the tests'
     * servers listen on loopback). Empty in production.
     */
    MEDIA_IMPORT_ALLOW_PRIVATE: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    /** Feeds (docs/feeds.md): the shortest wait between two checks of one feed, in minutes. */
    FEED_MIN_INTERVAL_MINUTES: z.coerce
      .number()
      .min(1)
      .max(24 * 60)
      .default(15),
    /** Outgoing webhooks: an endpoint whose every attempt failed for this long is turned off. */
    WEBHOOK_DISABLE_AFTER_DAYS: z.coerce.number().min(1).max(30).default(5),
    /** Outgoing webhooks: deliveries (and their attempts) older than this are deleted daily. */
    WEBHOOK_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    S3_BUCKET: optionalString,
    S3_ENDPOINT: z.url().optional(),
    S3_REGION: z.string().default('us-east-1'),
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    S3_FORCE_PATH_STYLE: flag,
    FFMPEG_PATH: optionalString,
    FFPROBE_PATH: optionalString,
    REDIS_URL: optionalString,
    RATE_LIMIT_DISABLED: flag,
    RATE_LIMIT_SIGNIN_PER_MINUTE: z.coerce.number().int().min(0).default(60),
    RATE_LIMIT_WRITES_PER_MINUTE: z.coerce.number().int().min(0).default(300),
    RATE_LIMIT_UPLOADS_PER_HOUR: z.coerce.number().int().min(0).default(600),
    RATE_LIMIT_GUEST_PER_MINUTE: z.coerce.number().int().min(0).default(60),
    RATE_LIMIT_API_KEY_PER_MINUTE: z.coerce.number().int().min(0).default(120),
    /** The YouTube API project's daily quota (Google Cloud console, Quotas): units and uploads. */
    YOUTUBE_QUOTA_UNITS_PER_DAY: z.coerce.number().int().min(1).default(10_000),
    YOUTUBE_UPLOADS_PER_DAY: z.coerce.number().int().min(1).default(100),
    RATE_LIMIT_UPLOAD_BYTES_PER_HOUR: z.coerce
      .number()
      .int()
      .min(0)
      .default(20 * GIB),
  })
  // The networks' variables are checked with the named ones, each wrong one said beside theirs.
  .superRefine(
    (env, ctx) => {
      for (const { name, message } of readNetworkVariables(env).issues)
        ctx.addIssue({ code: 'custom', path: [name], message });
    },
    { when: () => true },
  )
  .transform((env, ctx) => {
    const network = networkEnv(readNetworkVariables(env).values);
    const publicUrl = new URL(env.PUBLIC_URL ?? `http://localhost:${env.PORT || 3000}`);
    const isProduction = env.NODE_ENV === 'production';
    let identity: IdentityConfig;
    if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) {
      identity = {
        kind: 'google',
        label: 'Google',
        issuer: 'https://accounts.google.com',
        clientId: env.GOOGLE_CLIENT_ID,
        clientSecret: env.GOOGLE_CLIENT_SECRET,
      };
    } else if (env.OIDC_ISSUER_URL && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET) {
      identity = {
        kind: 'oidc',
        label: env.OIDC_LABEL ?? new URL(env.OIDC_ISSUER_URL).hostname,
        issuer: env.OIDC_ISSUER_URL,
        clientId: env.OIDC_CLIENT_ID,
        clientSecret: env.OIDC_CLIENT_SECRET,
      };
    } else if (!isProduction) {
      identity = { kind: 'development', label: 'Herald development sign-in' };
    } else {
      ctx.addIssue({
        code: 'custom',
        message:
          'In production set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET, or OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET: the development sign-in is refused there.',
      });
      return z.NEVER;
    }
    if (isProduction && !env.SESSION_SECRET) {
      ctx.addIssue({
        code: 'custom',
        message: 'In production set SESSION_SECRET (at least 32 characters).',
      });
      return z.NEVER;
    }
    if (env.SESSION_SECRET && env.SESSION_SECRET.length < 32) {
      ctx.addIssue({
        code: 'custom',
        message: 'SESSION_SECRET must be at least 32 characters long.',
      });
      return z.NEVER;
    }
    // Every process of a deployment must seal and read tokens with the same key; production does
    // not rely on the key generated into the database.
    if (isProduction && !env.TOKEN_ENCRYPTION_KEY) {
      ctx.addIssue({
        code: 'custom',
        message:
          'In production set TOKEN_ENCRYPTION_KEY (32 bytes in base64, e.g. `openssl rand -base64 32`), the same in every process.',
      });
      return z.NEVER;
    }
    for (const name of ['TOKEN_ENCRYPTION_KEY', 'TOKEN_ENCRYPTION_KEY_PREVIOUS'] as const) {
      const value = env[name];
      if (value && Buffer.from(value, 'base64').length !== 32) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be 32 bytes encoded in base64 (e.g. \`openssl rand -base64 32\`).`,
        });
        return z.NEVER;
      }
    }
    const hasStripe = Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET);
    if (env.BILLING_PROVIDER === 'stripe' && !hasStripe) {
      ctx.addIssue({
        code: 'custom',
        message: 'BILLING_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.',
      });
      return z.NEVER;
    }
    // Everything free must be a choice in production, never the result of a missing key.
    if (isProduction && !hasStripe && env.BILLING_PROVIDER !== 'none') {
      ctx.addIssue({
        code: 'custom',
        message:
          'In production set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or choose free plans for everyone with BILLING_PROVIDER=none.',
      });
      return z.NEVER;
    }
    // The token guards what the server says about its traffic and queues, from any address.
    if (env.METRICS_TOKEN && !/^[\x21-\x7e]{32,}$/.test(env.METRICS_TOKEN)) {
      ctx.addIssue({
        code: 'custom',
        message:
          'METRICS_TOKEN must be at least 32 printable characters without spaces (e.g. `openssl rand -hex 32`).',
      });
      return z.NEVER;
    }
    // A live process must never look dead between two of its heartbeats.
    if (env.PROCESS_LAPSE_SECONDS < 2 * env.PROCESS_HEARTBEAT_SECONDS) {
      ctx.addIssue({
        code: 'custom',
        message: `PROCESS_LAPSE_SECONDS (${env.PROCESS_LAPSE_SECONDS}) must be at least twice PROCESS_HEARTBEAT_SECONDS (${env.PROCESS_HEARTBEAT_SECONDS}), or live processes would be taken for stopped ones.`,
      });
      return z.NEVER;
    }
    const apiPublicUrl = (env.API_PUBLIC_URL ?? `${publicUrl.origin}${env.API_BASE_PATH}`).replace(
      /\/+$/,
      '',
    );
    const gbpPush = googleBusinessPushConfig(env, apiPublicUrl);
    if (typeof gbpPush === 'string') {
      ctx.addIssue({ code: 'custom', message: gbpPush });
      return z.NEVER;
    }
    const media = mediaConfig(env, ctx);
    if (!media) return z.NEVER;
    return {
      nodeEnv: env.NODE_ENV,
      isProduction,
      port: env.PORT,
      host: env.HOST,
      dataDir: env.HERALD_DATA_DIR,
      databaseUrl: env.DATABASE_URL,
      publicUrl: publicUrl.origin,
      secureCookies: publicUrl.protocol === 'https:',
      apiBasePath: env.API_BASE_PATH,
      /** Where browsers and identity providers reach the API (callbacks are built from it). */
      apiPublicUrl,
      adminEmails: env.ADMIN_EMAILS,
      sessionSecret: env.SESSION_SECRET,
      logLevel: env.LOG_LEVEL,
      /** JSON unless LOG_FORMAT says otherwise; readable lines in development at a terminal. */
      logFormat:
        env.LOG_FORMAT ??
        (env.NODE_ENV === 'development' && process.stdout.isTTY ? 'pretty' : 'json'),
      identity,
      bodyLimitBytes: env.BODY_LIMIT_BYTES,
      /**
       * Which proxies' X-Forwarded-For to believe (client addresses drive the per-IP limits):
       * `loopback` (a proxy on this machine) unless set; a hop count, addresses/CIDRs, or true.
       */
      trustProxy: env.TRUST_PROXY,
      webDistDir: env.WEB_DIST_DIR,
      smtpUrl: env.SMTP_URL,
      tokenEncryptionKey: env.TOKEN_ENCRYPTION_KEY,
      tokenEncryptionKeyPrevious: env.TOKEN_ENCRYPTION_KEY_PREVIOUS,
      publishStuckAfterSeconds: env.PUBLISH_STUCK_AFTER_SECONDS,
      /**
       * On SIGTERM or SIGINT, how long requests, uploads and jobs in flight get to finish before
       * what is left is cut (requests) or handed back (jobs) and the process exits.
       */
      shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS,
      /**
       * Prometheus metrics: off (404) without a token; with one, `{api}/metrics` answers only
       * `Authorization: Bearer <token>`, and `herald worker` serves the same on `port`.
       */
      metrics: env.METRICS_TOKEN ? { token: env.METRICS_TOKEN, port: env.METRICS_PORT } : null,
      /**
       * Every process records itself in the database and touches its row this often; a worker
       * whose row is older than `lapseSeconds` is taken for dead and the publications it held are
       * settled by another (docs/architecture.md#processes).
       */
      processes: {
        heartbeatSeconds: env.PROCESS_HEARTBEAT_SECONDS,
        lapseSeconds: env.PROCESS_LAPSE_SECONDS,
      },
      /**
       * Whether the network sandboxes are told they run on this machine, so media URLs on a
       * loopback or private address are accepted; false makes them refuse what the networks
       * refuse (docs/networks.md#sandboxes).
       */
      sandboxLocalMedia: env.SANDBOX_LOCAL_MEDIA,
      /**
       * The API versions sent to the networks that retire theirs on a date (lib/api-versions.ts);
       * the preflight warns before the chosen one ends.
       */
      apiVersions: {
        linkedin: env.LINKEDIN_API_VERSION ?? LINKEDIN_API_VERSIONS.defaultVersion,
        meta: env.META_GRAPH_VERSION ?? META_GRAPH_VERSIONS.defaultVersion,
      },
      /**
       * The networks' own variables (credentials, "unaudited" flags), read by the names each
       * network module declares (platforms/network-env.ts).
       */
      networkEnv: network.env,
      /** Stripe when both keys are set; otherwise self-billing (subscribing activates at once). */
      stripe:
        env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET && env.BILLING_PROVIDER !== 'none'
          ? {
              secretKey: env.STRIPE_SECRET_KEY,
              webhookSecret: env.STRIPE_WEBHOOK_SECRET,
              apiUrl: env.STRIPE_API_URL,
            }
          : null,
      mailFrom: env.MAIL_FROM,
      /** The unified inbox (docs/inbox.md#configuration). */
      inbox: {
        /** Null: derived from the sandbox secret outside production; refused in production. */
        metaWebhookVerifyToken: env.META_WEBHOOK_VERIFY_TOKEN ?? null,
        /**
         * Per network slug, from `INBOX_POLL_MINUTES_<SLUG>`; absent: the network adapter's own
         * interval.
         */
        pollMinutes: network.pollMinutes,
        /**
         * Google Business Profile reviews pushed through Cloud Pub/Sub, or null: then they are
         * read every 30 minutes only (docs/networks.md#google-business-profile-push).
         */
        googleBusinessPush: gbpPush,
      },
      media,
      /** CSV import's media fetches: size cap, and the test-only private allow-list. */
      mediaImport: {
        maxBytes: env.MEDIA_IMPORT_MAX_BYTES,
        allowPrivate: env.MEDIA_IMPORT_ALLOW_PRIVATE,
      },
      /** Feeds (docs/feeds.md). */
      feeds: { minIntervalMs: env.FEED_MIN_INTERVAL_MINUTES * 60_000 },
      /** Outgoing webhooks (docs/webhooks.md). */
      outgoingWebhooks: {
        disableAfterMs: env.WEBHOOK_DISABLE_AFTER_DAYS * 86_400_000,
        retentionMs: env.WEBHOOK_RETENTION_DAYS * 86_400_000,
        requireHttps: isProduction,
      },
      /** Rate-limit counters live here when set (shared by every process); else in the database. */
      redisUrl: env.REDIS_URL,
      /** Each limit is off at 0; all of them with RATE_LIMIT_DISABLED=true. */
      rateLimits: {
        enabled: !env.RATE_LIMIT_DISABLED,
        signInPerMinute: env.RATE_LIMIT_SIGNIN_PER_MINUTE,
        writesPerMinute: env.RATE_LIMIT_WRITES_PER_MINUTE,
        uploadsPerHour: env.RATE_LIMIT_UPLOADS_PER_HOUR,
        uploadBytesPerHour: env.RATE_LIMIT_UPLOAD_BYTES_PER_HOUR,
        /** A client approval link's page and decisions, per IP and per link (files: 10×). */
        guestPerMinute: env.RATE_LIMIT_GUEST_PER_MINUTE,
        /** Every request made with one API key, reads included (docs/api.md). */
        apiKeyPerMinute: env.RATE_LIMIT_API_KEY_PER_MINUTE,
      },
      /** Daily quotas of Herald's API projects, where a network bills one (modules/youtube/quota.ts). */
      youtubeQuota: {
        unitsPerDay: env.YOUTUBE_QUOTA_UNITS_PER_DAY,
        uploadsPerDay: env.YOUTUBE_UPLOADS_PER_DAY,
      },
    };
  });

/**
 * The names of one developer app's client id and secret variables, as a network module declares
 * them (its `setup.env`).
 */
export interface CredentialNames {
  clientId: string;
  clientSecret: string;
}

/**
 * The networks' variables, read by the names the network modules declare: this file knows no
 * network. Every variable of a network shape present in the environment is checked at start by
 * the rules of its shape, whichever network it belongs to; one no network declares is unused.
 */
export interface NetworkEnv {
  /** The app's client id and secret, or null unless both are set (half a pair is ignored). */
  credentials(names: CredentialNames): { clientId: string; clientSecret: string } | null;
  /** Which of the two are set at all, so the preflight can name the missing half of a pair. */
  credentialsSet(names: CredentialNames): { clientId: boolean; clientSecret: boolean };
  /** A `<NAME>_UNAUDITED` flag: the network has not audited the app yet. */
  unaudited(name: string): boolean;
  /**
   * A `<NAME>_REAL_SERVERS` flag of a network of many servers (Mastodon): outside production too,
   * its accounts connect on the real servers rather than the sandbox's.
   */
  realServers(name: string): boolean;
  /**
   * A `<NAME>_OAUTH_PRIVATE_KEY`: the ES256 private JWK (JSON, checked at start) the network's
   * OAuth client signs with (Bluesky), or undefined when unset.
   */
  oauthKey(name: string): string | undefined;
}

/** A developer app's client id or secret: `<APP>_CLIENT_ID`, `_CLIENT_KEY`, `_APP_ID`, `_CLIENT_SECRET`, `_APP_SECRET`. */
const CREDENTIAL_VARIABLE =
  /^[A-Z][A-Z0-9_]*_(CLIENT_ID|CLIENT_KEY|APP_ID|CLIENT_SECRET|APP_SECRET)$/;
/**
 * `<SLUG>_UNAUDITED` of a network the contract names: the suffix alone is too common to claim
 * (a host's own variable of that name, with any value, must not stop Herald's start).
 */
const UNAUDITED_VARIABLE = new RegExp(
  `^(${PLATFORM_NAMES.map((name) => platformSlug(name).toUpperCase()).join('|')})_UNAUDITED$`,
);
/** `<SLUG>_REAL_SERVERS` of a network the contract names (a network of many servers). */
const REAL_SERVERS_VARIABLE = new RegExp(
  `^(${PLATFORM_NAMES.map((name) => platformSlug(name).toUpperCase()).join('|')})_REAL_SERVERS$`,
);
/** `<SLUG>_OAUTH_PRIVATE_KEY` of a network the contract names: Herald's OAuth client key there. */
const OAUTH_KEY_VARIABLE = new RegExp(
  `^(${PLATFORM_NAMES.map((name) => platformSlug(name).toUpperCase()).join('|')})_OAUTH_PRIVATE_KEY$`,
);
/** Minutes between two inbox polls of one account of the network `<SLUG>` (docs/inbox.md#polling). */
const POLL_MINUTES_VARIABLE = /^INBOX_POLL_MINUTES_([A-Z0-9_]+)$/;

const isNamedVariable = (name: string) => Object.hasOwn(ConfigSchema.in.shape, name);

/** The shape a network variable of this name has, or null (not a network variable). */
function networkVariableSchema(name: string) {
  if (isNamedVariable(name)) return null;
  if (CREDENTIAL_VARIABLE.test(name)) return optionalString;
  if (UNAUDITED_VARIABLE.test(name)) return flag;
  if (REAL_SERVERS_VARIABLE.test(name)) return flag;
  if (OAUTH_KEY_VARIABLE.test(name)) return es256PrivateJwk;
  if (POLL_MINUTES_VARIABLE.test(name)) return optionalMinutes;
  return null;
}

/** Every network variable of the environment, by name, and what is wrong with them. */
function readNetworkVariables(env: Record<string, unknown>) {
  const values = new Map<string, string | boolean | number>();
  const issues: Array<{ name: string; message: string }> = [];
  for (const [name, raw] of Object.entries(env)) {
    const parsed = networkVariableSchema(name)?.safeParse(raw);
    if (!parsed) continue;
    if (!parsed.success)
      for (const issue of parsed.error.issues) issues.push({ name, message: issue.message });
    else if (parsed.data !== undefined) values.set(name, parsed.data);
  }
  return { values, issues };
}

/** The networks' variables as the network modules read them. */
function networkEnv(values: ReadonlyMap<string, string | boolean | number>): {
  env: NetworkEnv;
  pollMinutes: Record<string, number>;
} {
  const read = (name: string, shape: RegExp) => {
    // A name of no network shape was never checked: a module declaring one is a mistake.
    if (!shape.test(name) || isNamedVariable(name))
      throw new Error(`${name} is not the name of a network variable (config.ts).`);
    return values.get(name);
  };
  const text = (name: string) => {
    const value = read(name, CREDENTIAL_VARIABLE);
    return typeof value === 'string' ? value : undefined;
  };
  return {
    env: {
      credentials: (names) => {
        const clientId = text(names.clientId);
        const clientSecret = text(names.clientSecret);
        return clientId && clientSecret ? { clientId, clientSecret } : null;
      },
      credentialsSet: (names) => ({
        clientId: Boolean(text(names.clientId)),
        clientSecret: Boolean(text(names.clientSecret)),
      }),
      unaudited: (name) => read(name, UNAUDITED_VARIABLE) === true,
      realServers: (name) => read(name, REAL_SERVERS_VARIABLE) === true,
      oauthKey: (name) => {
        const value = read(name, OAUTH_KEY_VARIABLE);
        return typeof value === 'string' ? value : undefined;
      },
    },
    pollMinutes: Object.fromEntries(
      [...values].flatMap(([name, value]) => {
        const slug = POLL_MINUTES_VARIABLE.exec(name)?.[1];
        return slug && typeof value === 'number' ? [[slug.toLowerCase(), value]] : [];
      }),
    ),
  };
}

/** Where media is stored and how it is served; null (with an issue) when the settings contradict. */
function mediaConfig(
  env: {
    HERALD_DATA_DIR: string;
    MEDIA_STORAGE?: 'local' | 's3';
    MEDIA_DIR?: string;
    MEDIA_TEMP_DIR?: string;
    MEDIA_URL_TTL_SECONDS: number;
    MEDIA_MAX_FILE_BYTES: number;
    S3_BUCKET?: string;
    S3_ENDPOINT?: string;
    S3_REGION: string;
    S3_ACCESS_KEY_ID?: string;
    S3_SECRET_ACCESS_KEY?: string;
    S3_FORCE_PATH_STYLE: boolean;
    FFMPEG_PATH?: string;
    FFPROBE_PATH?: string;
  },
  ctx: z.RefinementCtx,
): MediaConfig | null {
  const driver = env.MEDIA_STORAGE ?? (env.S3_BUCKET ? 's3' : 'local');
  let storage: MediaStorageConfig;
  if (driver === 's3') {
    if (!env.S3_BUCKET) {
      ctx.addIssue({ code: 'custom', message: 'MEDIA_STORAGE=s3 needs S3_BUCKET.' });
      return null;
    }
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({
        code: 'custom',
        message:
          'Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (to use the default AWS credential chain).',
      });
      return null;
    }
    storage = {
      driver: 's3',
      bucket: env.S3_BUCKET,
      region: env.S3_REGION,
      endpoint: env.S3_ENDPOINT,
      credentials:
        env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
          : null,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
    };
  } else {
    storage = { driver: 'local', dir: env.MEDIA_DIR ?? join(env.HERALD_DATA_DIR, 'media') };
  }
  return {
    storage,
    /** Uploads are written here while they are checked; best on the same disk as local storage. */
    tempDir: env.MEDIA_TEMP_DIR ?? join(env.HERALD_DATA_DIR, 'tmp'),
    urlTtlSeconds: env.MEDIA_URL_TTL_SECONDS,
    maxFileBytes: env.MEDIA_MAX_FILE_BYTES,
    /** Used when found; without them video is measured by a built-in parser and gets a poster. */
    ffmpegPath: env.FFMPEG_PATH ?? 'ffmpeg',
    ffprobePath: env.FFPROBE_PATH ?? 'ffprobe',
  };
}

export type MediaStorageConfig =
  | { driver: 'local'; dir: string }
  | {
      driver: 's3';
      bucket: string;
      region: string;
      endpoint: string | undefined;
      credentials: { accessKeyId: string; secretAccessKey: string } | null;
      forcePathStyle: boolean;
    };

export interface MediaConfig {
  storage: MediaStorageConfig;
  tempDir: string;
  urlTtlSeconds: number;
  maxFileBytes: number;
  ffmpegPath: string;
  ffprobePath: string;
}

export type IdentityConfig =
  | {
      kind: 'google' | 'oidc';
      label: string;
      issuer: string;
      clientId: string;
      clientSecret: string;
    }
  | { kind: 'development'; label: string };

export type Config = z.output<typeof ConfigSchema>;

export class ConfigError extends Error {}

/**
 * Parses the environment once. The only place in the server that reads `process.env`, but for
 * db/pglite-spawn.ts: the built entry opens the embedded database before this module is loaded,
 * and reads HERALD_DATA_DIR and DATABASE_URL by the same rules.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) =>
      i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message,
    );
    throw new ConfigError(`Invalid configuration. ${lines.join(' ')}`);
  }
  return parsed.data;
}

/** Where Herald receives Google Business Profile's Pub/Sub pushes (`POST /webhooks/googlebusiness`, modules/inbox/webhooks.routes.ts). */
export const gbpPushEndpoint = (apiPublicUrl: string) => `${apiPublicUrl}/webhooks/googlebusiness`;

/** A Pub/Sub topic's full name: `projects/{project id}/topics/{topic id}`. */
const PUBSUB_TOPIC =
  /^projects\/[a-z][a-z0-9-]{4,28}[a-z0-9]\/topics\/[A-Za-z][A-Za-z0-9._~+%-]{2,254}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface GoogleBusinessPushConfig {
  /** The topic each Google account's notification setting names. */
  topic: string;
  /** The `aud` the push subscription's token carries (the subscription's audience). */
  audience: string;
  /** The `email` it carries: the service account the push subscription signs as. */
  serviceAccountEmail: string;
}

/**
 * The Pub/Sub push settings: all of them or none (then null), or the sentence that says what is
 * wrong, naming the variables. The audience defaults to the push endpoint's URL, as Pub/Sub's does.
 */
function googleBusinessPushConfig(
  env: {
    GOOGLE_BUSINESS_PUBSUB_TOPIC?: string;
    GOOGLE_BUSINESS_PUSH_AUDIENCE?: string;
    GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT?: string;
  },
  apiPublicUrl: string,
): GoogleBusinessPushConfig | null | string {
  const topic = env.GOOGLE_BUSINESS_PUBSUB_TOPIC?.trim();
  const audience = env.GOOGLE_BUSINESS_PUSH_AUDIENCE?.trim();
  const email = env.GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT?.trim();
  if (!topic) {
    if (audience || email)
      return `${audience ? 'GOOGLE_BUSINESS_PUSH_AUDIENCE' : 'GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT'} is read only with GOOGLE_BUSINESS_PUBSUB_TOPIC: set the topic Google Business Profile publishes review notifications to, or remove it.`;
    return null;
  }
  if (!PUBSUB_TOPIC.test(topic))
    return `GOOGLE_BUSINESS_PUBSUB_TOPIC must be a Pub/Sub topic's full name, projects/{project id}/topics/{topic id} (got "${topic.slice(0, 80)}").`;
  if (!email)
    return 'GOOGLE_BUSINESS_PUBSUB_TOPIC is set, so GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT must name the service account the push subscription authenticates as (its e-mail address): Herald accepts pushes signed for that account only.';
  if (!EMAIL.test(email))
    return `GOOGLE_BUSINESS_PUSH_SERVICE_ACCOUNT must be a service account's e-mail address, such as herald-push@my-project.iam.gserviceaccount.com (got "${email.slice(0, 80)}").`;
  return {
    topic,
    audience: audience || gbpPushEndpoint(apiPublicUrl),
    serviceAccountEmail: email.toLowerCase(),
  };
}
