/** People who sign in to Herald. */
import { sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { boolean, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { organizations } from './organizations.js';

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
