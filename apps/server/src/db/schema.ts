import { sql } from 'drizzle-orm';
import type { AuditAction, AuditTargetType } from '@herald/contract';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  bigint,
  boolean,
  doublePrecision,
  integer,
  numeric,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    displayName: text('display_name'),
    avatarUrl: text('avatar_url'),
    timezone: text('timezone'),
    isAdmin: boolean('is_admin').notNull().default(false),
    /** Whether the identity provider vouched for the email at the last sign-in. */
    emailVerified: boolean('email_verified').notNull().default(false),
    oidcIssuer: text('oidc_issuer'),
    oidcSubject: text('oidc_subject'),
    /** The organization the user last worked in; sign-in returns there. */
    currentOrganizationId: uuid('current_organization_id').references(
      (): AnyPgColumn => organizations.id,
      {
        onDelete: 'set null',
      },
    ),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_oidc_identity_key').on(t.oidcIssuer, t.oidcSubject),
  ],
);

export const organizations = pgTable(
  'organizations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** Who created it: plan limits on the number of organizations count per owner. */
    ownerUserId: uuid('owner_user_id').references((): AnyPgColumn => users.id, {
      onDelete: 'set null',
    }),
    /** IANA zone for per-day limits; UTC unless set. */
    timezone: text('timezone').notNull().default('UTC'),
    defaultTimeZone: text('default_time_zone'),
    createdAt: createdAt(),
  },
  (t) => [index('organizations_owner_idx').on(t.ownerUserId)],
);

/** Roles are per organization; the four defaults of spec §6 are created with it. */
export const roles = pgTable(
  'roles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    /** The Admin role: always every permission, never edited or deleted. */
    isAdmin: boolean('is_admin').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('roles_org_name_key').on(t.organizationId, sql`lower(${t.name})`)],
);

export const rolePermissions = pgTable(
  'role_permissions',
  {
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    permission: text('permission').notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.permission] })],
);

/**
 * A person's place in an organization. An invitation is a PENDING member holding a hashed,
 * single-use token; accepting makes it ACTIVE. DECLINED rows are kept (and hidden) so a declined
 * invitation never comes back by itself.
 */
export const members = pgTable(
  'members',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    roleId: uuid('role_id').references(() => roles.id, { onDelete: 'restrict' }),
    /** Narrowed permissions chosen at invitation; null means the role's own. */
    permissions: text('permissions').array(),
    status: text('status', { enum: ['ACTIVE', 'PENDING', 'INACTIVE', 'DECLINED'] })
      .notNull()
      .default('ACTIVE'),
    joinedAt: timestamp('joined_at', { withTimezone: true }),
    invitedByUserId: uuid('invited_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    invitedAt: timestamp('invited_at', { withTimezone: true }),
    inviteTokenHash: text('invite_token_hash'),
    inviteExpiresAt: timestamp('invite_expires_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('members_user_idx').on(t.userId),
    index('members_role_idx').on(t.roleId),
    uniqueIndex('members_org_email_key').on(t.organizationId, sql`lower(${t.email})`),
    uniqueIndex('members_invite_token_key').on(t.inviteTokenHash),
  ],
);

/** One sign-in: a family of refresh tokens. Revoking it ends every token of the family. */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason', { enum: ['logout', 'reuse', 'expired'] }),
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [
    index('auth_sessions_user_idx').on(t.userId),
    index('auth_sessions_expires_idx').on(t.expiresAt),
  ],
);

/** Refresh tokens are stored only as SHA-256 hashes; `usedAt` marks a rotated (spent) token. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => authSessions.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash),
    index('refresh_tokens_session_idx').on(t.sessionId),
  ],
);

/** Storage of the built-in development identity provider (oidc-provider's adapter models). */
export const oidcPayloads = pgTable(
  'oidc_payloads',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('oidc_payloads_grant_idx').on(t.grantId),
    index('oidc_payloads_uid_idx').on(t.uid),
    index('oidc_payloads_expires_idx').on(t.expiresAt),
  ],
);

/** People known to the development identity provider (email is the subject). */
export const devAccounts = pgTable('dev_accounts', {
  email: text('email').primaryKey(),
  name: text('name'),
  createdAt: createdAt(),
});

/** Secrets generated on first start when none are configured (embedded and single-server shapes). */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

export interface PlanFeaturesColumn {
  invites: number;
  postsPerDay: number;
  organizations: number;
  connectedPlatforms: number;
  prioritySupport: boolean;
}

export const plans = pgTable('plans', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  /** Monthly price in the currency's main unit, two decimals. */
  price: numeric('price', { precision: 10, scale: 2, mode: 'number' }).notNull(),
  billingCycle: text('billing_cycle', { enum: ['MONTHLY', 'YEARLY'] })
    .notNull()
    .default('MONTHLY'),
  stripePriceId: text('stripe_price_id'),
  providerMetadata: jsonb('provider_metadata').$type<{ planType?: string }>(),
  features: jsonb('features').$type<PlanFeaturesColumn>().notNull(),
  status: text('status', { enum: ['ACTIVE', 'INACTIVE'] })
    .notNull()
    .default('ACTIVE'),
  popular: boolean('popular').notNull().default(false),
  trialEligible: boolean('trial_eligible').notNull().default(true),
  sortOrder: integer('sort_order').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const SUBSCRIPTION_STATUSES = [
  'TRIALING',
  'ACTIVE',
  'PAST_DUE',
  'CANCELED',
  'EXPIRED',
] as const;

/** One per organization, updated in place through its life (so "one trial ever" is a column). */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'restrict' }),
    status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull(),
    provider: text('provider', { enum: ['none', 'stripe'] }).notNull(),
    trialUsed: boolean('trial_used').notNull().default(false),
    trialStart: timestamp('trial_start', { withTimezone: true }),
    trialEnd: timestamp('trial_end', { withTimezone: true }),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('subscriptions_org_key').on(t.organizationId),
    index('subscriptions_status_idx').on(t.status, t.trialEnd),
    uniqueIndex('subscriptions_stripe_customer_key').on(t.stripeCustomerId),
  ],
);

/** Stripe events already processed: a replayed event changes nothing. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

export const NOTIFICATION_TYPES = [
  'POST_PUBLISHED',
  'POST_FAILED',
  'SUBSCRIPTION_UPDATE',
  'ORGANIZATION_INVITE',
  'PAYMENT_ISSUE',
  'PLATFORM_DISCONNECTED',
] as const;

/** One row per recipient (spec §3 Notification). */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: NOTIFICATION_TYPES }).notNull(),
    priority: text('priority', { enum: ['HIGH', 'MEDIUM', 'LOW'] }).notNull(),
    message: text('message').notNull(),
    read: boolean('read').notNull().default(false),
    postId: uuid('post_id'),
    createdAt: createdAt(),
  },
  (t) => [index('notifications_user_org_idx').on(t.userId, t.organizationId, t.createdAt)],
);

/** The networks Herald supports (spec §3 Platform); seeded, and editable by operators. */
export const platforms = pgTable(
  'platforms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    mediaConstraints: jsonb('media_constraints')
      .$type<Record<string, unknown>>()
      .notNull()
      .default({}),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('platforms_name_key').on(sql`lower(${t.name})`)],
);

/**
 * A connected social account of an organization. Tokens are AES-256-GCM ciphertexts; nothing
 * else here is secret. Reconnecting the same account updates the row in place.
 */
export const integrations = pgTable(
  'integrations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    platformId: uuid('platform_id')
      .notNull()
      .references(() => platforms.id, { onDelete: 'restrict' }),
    platformAccountId: text('platform_account_id').notNull(),
    status: text('status', { enum: ['CONNECTED', 'DISCONNECTED', 'REFRESH_FAILED'] }).notNull(),
    username: text('username'),
    name: text('name'),
    pictureUrl: text('picture_url'),
    accessTokenEnc: text('access_token_enc'),
    refreshTokenEnc: text('refresh_token_enc'),
    /** Other secrets an adapter keeps (a Page's user token…), encrypted as one JSON document. */
    secretsEnc: text('secrets_enc'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scopes: text('scopes').array(),
    /** Non-secret adapter data (ids of the linked Page, the API version used…). */
    extra: jsonb('extra').$type<Record<string, unknown>>().notNull().default({}),
    sandbox: boolean('sandbox').notNull().default(false),
    lastError: text('last_error'),
    connectedByUserId: uuid('connected_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    connectedAt: timestamp('connected_at', { withTimezone: true }).notNull().defaultNow(),
    lastRefreshedAt: timestamp('last_refreshed_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('integrations_account_key').on(t.organizationId, t.platformId, t.platformAccountId),
    index('integrations_expiry_idx').on(t.status, t.accessTokenExpiresAt),
  ],
);

/** Accounts offered by one sign-in at a network, waiting for the user to pick (encrypted, short-lived). */
export const pendingConnections = pgTable('pending_connections', {
  id: uuid('id').primaryKey().defaultRandom(),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  platformId: uuid('platform_id')
    .notNull()
    .references(() => platforms.id, { onDelete: 'cascade' }),
  accountsEnc: text('accounts_enc').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

/** State of the local network emulators (sandbox accounts, codes, tokens), kept across restarts. */
export const sandboxRecords = pgTable(
  'sandbox_records',
  {
    network: text('network').notNull(),
    kind: text('kind').notNull(),
    id: text('id').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.network, t.kind, t.id] })],
);

/** Post statuses as stored (contract POST_STATUSES). */
export const POST_STATUSES = ['draft', 'scheduled', 'publishing', 'published', 'failed'] as const;

/** A post of an organization: its text and when it goes out (spec §3 Post). */
export const posts = pgTable(
  'posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    title: text('title'),
    status: text('status', { enum: POST_STATUSES }).notNull(),
    /** The shared text (the `default` entry when customized per platform). */
    content: text('content').notNull().default(''),
    /** Per-platform texts keyed by platform id, when the author customized them. */
    contentByPlatform: jsonb('content_by_platform').$type<Record<string, string>>(),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('posts_org_created_idx').on(t.organizationId, t.createdAt),
    index('posts_org_scheduled_idx').on(t.organizationId, t.scheduledAt),
    index('posts_org_status_idx').on(t.organizationId, t.status),
  ],
);

/** A stored file of a post, measured when it was uploaded. */
export const postMedia = pgTable(
  'post_media',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    storageKey: text('storage_key').notNull(),
    thumbnailKey: text('thumbnail_key'),
    fileName: text('file_name').notNull(),
    mimeType: text('mime_type').notNull(),
    kind: text('kind', { enum: ['image', 'video'] }).notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    width: integer('width'),
    height: integer('height'),
    durationSec: doublePrecision('duration_sec'),
    sha256: text('sha256').notNull(),
    /** Platform ids this file is for; null when it is shared by every platform of the post. */
    platformIds: jsonb('platform_ids').$type<string[]>(),
    createdAt: createdAt(),
  },
  (t) => [index('post_media_post_idx').on(t.postId, t.position)],
);

export const TARGET_STATUSES = [
  'QUEUED',
  'PREPARING',
  'READY',
  'PUBLISHING',
  'PUBLISHED',
  'FAILED',
  'UNCERTAIN',
] as const;

/** One post on one network: what the publishing engine moves from QUEUED to PUBLISHED. */
export const postTargets = pgTable(
  'post_targets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    postId: uuid('post_id')
      .notNull()
      .references(() => posts.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    platformId: uuid('platform_id')
      .notNull()
      .references(() => platforms.id, { onDelete: 'restrict' }),
    integrationId: uuid('integration_id').references(() => integrations.id, {
      onDelete: 'set null',
    }),
    status: text('status', { enum: TARGET_STATUSES }).notNull().default('QUEUED'),
    externalId: text('external_id'),
    permalink: text('permalink'),
    error: text('error'),
    attemptId: uuid('attempt_id'),
    attempts: integer('attempts').notNull().default(0),
    /** What the adapter's prepare made at the network (container ids…), kept across restarts. */
    publishState: jsonb('publish_state').$type<Record<string, unknown>>().notNull().default({}),
    /** When it should go out; the queued job starts after it. */
    dueAt: timestamp('due_at', { withTimezone: true }),
    /** The pg-boss job that will run this target next. */
    jobId: uuid('job_id'),
    /** publishedAt − dueAt, for the lateness the scheduler promises to keep small. */
    latenessMs: integer('lateness_ms'),
    /** Extra the embeds need (Instagram shortcode, TikTok username…). */
    embed: jsonb('embed').$type<Record<string, unknown>>(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('post_targets_post_platform_key').on(t.postId, t.platformId),
    index('post_targets_status_idx').on(t.status, t.updatedAt),
  ],
);

/**
 * What platform operators did in the back-office: who, what, when, and the changed fields
 * before and after. Rows are only ever added; the actor's email is copied so an entry still
 * says who after their account changes or goes.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null for the command line (`herald admin grant|revoke`) or once the account is deleted. */
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email'),
    action: text('action').$type<AuditAction>().notNull(),
    targetType: text('target_type').$type<AuditTargetType>().notNull(),
    /** No foreign key: the entry outlives what it is about. */
    targetId: uuid('target_id'),
    targetLabel: text('target_label').notNull(),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    /** The clock, not the transaction's start: entries of one transaction keep their order. */
    createdAt: timestamp('created_at', { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt),
    index('audit_log_target_idx').on(t.targetType, t.targetId),
  ],
);
