/** Organizations, their roles and their members (invitations are pending members). */
import { MEMBER_STATUSES, type LinkTracking } from '@herald/contract';
import { sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  boolean,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './users.js';

/** The API's member statuses, and DECLINED: kept so a declined invitation never comes back by itself. */
const STORED_MEMBER_STATUSES = [...MEMBER_STATUSES, 'DECLINED'] as const;

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
    /** Posts of members without post:approve wait for an approver before they are scheduled. */
    requirePostApproval: boolean('require_post_approval').notNull().default(false),
    /**
     * When approval is on, the roles (by id, so renaming a role keeps it chosen) whose members
     * need it; null or empty means every member without post:approve.
     */
    postApprovalRoleIds: uuid('post_approval_role_ids').array(),
    /** The organization's default link tracking (UTM parameters) for new posts; null: none saved. */
    linkTracking: jsonb('link_tracking').$type<LinkTracking>(),
    /**
     * The organization's logo: the key of the file in the media store (local folder or S3; the
     * bytes never go in the database). Null: no logo.
     */
    brandLogoKey: text('brand_logo_key'),
    /** Its brand colour, `#rrggbb`; null: none chosen. */
    brandColor: text('brand_color'),
    createdAt: createdAt(),
  },
  (t) => [index('organizations_owner_idx').on(t.ownerUserId)],
);

/** Roles are per organization; the four defaults of docs/product.md#roles-and-permissions are created with it. */
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
    /**
     * Whether the member reaches only the accounts listed in member_accounts (none left when
     * those were all disconnected) rather than every account of the organization.
     */
    accountsLimited: boolean('accounts_limited').notNull().default(false),
    status: text('status', { enum: STORED_MEMBER_STATUSES }).notNull().default('ACTIVE'),
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
