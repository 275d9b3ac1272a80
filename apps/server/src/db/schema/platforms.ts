/** Supported networks and the accounts organizations connect on them. */
import { INTEGRATION_STATUSES } from '@herald/contract';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { members, organizations } from './organizations.js';
import { users } from './users.js';

/** The networks Herald supports (docs/product.md#platform-entity); seeded, and editable by operators. */
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
    status: text('status', { enum: INTEGRATION_STATUSES }).notNull(),
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
    /**
     * The account's own text limit when it differs from its network's rule (an X Premium
     * subscriber's long posts), read from the network at connect and on refresh; null: the network's.
     */
    textLimit: integer('text_limit'),
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

/**
 * The connected accounts a member limited to some (members.accounts_limited) reaches: posting,
 * inbox, comments, analytics. Rows go with the member or the account.
 */
export const memberAccounts = pgTable(
  'member_accounts',
  {
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.memberId, t.integrationId] }),
    index('member_accounts_integration_idx').on(t.integrationId),
  ],
);

/**
 * Herald's app on each server of a network made of many servers (Mastodon): registered once per
 * server and redirect URI the first time someone connects there, then reused by everyone who
 * connects on it. Not per organization: the app is Herald's, as a single network's developer app
 * is. Its client id and secret are AES-256-GCM ciphertexts, as tokens are.
 */
export const networkInstanceApps = pgTable(
  'network_instance_apps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The network's slug (`mastodon`). */
    network: text('network').notNull(),
    /** The server's host, lowercase (`mastodon.social`). */
    instance: text('instance').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    clientIdEnc: text('client_id_enc').notNull(),
    clientSecretEnc: text('client_secret_enc').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('network_instance_apps_key').on(t.network, t.instance, t.redirectUri)],
);

/**
 * What Herald's API project spent of a network's daily quota (YouTube: units, and uploads in
 * their own bucket), per network day (YouTube's days end at midnight Pacific time). Not per
 * organization: the quota is the project's, shared by every organization of this Herald.
 */
export const networkQuotaUsage = pgTable(
  'network_quota_usage',
  {
    /** The network's slug (`youtube`). */
    network: text('network').notNull(),
    /** The network's day, `YYYY-MM-DD` in the network's time zone. */
    day: text('day').notNull(),
    /** `units` or `uploads`. */
    bucket: text('bucket').notNull(),
    used: integer('used').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.network, t.day, t.bucket] })],
);

/**
 * The record writes an account made on a network that limits them per account by points
 * (Bluesky: 5,000 points an hour and 35,000 a day per DID, a created record costing 3), counted
 * as they are made by every process: a write that would go over waits instead of tripping the
 * network's limit (docs/networks.md#bluesky-limits). Rows older than the longest window go.
 */
export const accountWritePoints = pgTable(
  'account_write_points',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The network's slug (`bluesky`). */
    network: text('network').notNull(),
    /** The account as the network limits it (Bluesky: its DID), whichever organization has it. */
    account: text('account').notNull(),
    points: integer('points').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('account_write_points_account_at').on(t.network, t.account, t.at)],
);

/** Until when a network told an account to stop writing (a 429 with its reset time). */
export const accountWritePauses = pgTable(
  'account_write_pauses',
  {
    network: text('network').notNull(),
    account: text('account').notNull(),
    until: timestamp('until', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.network, t.account] })],
);
