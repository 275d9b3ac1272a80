/** Organization API keys (docs/api.md). */
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { organizations } from './organizations.js';
import { users } from './users.js';

/**
 * A key that acts for one organization with chosen permissions, never more than its creator
 * holds there at the time of each request. Only the SHA-256 of the key is kept (the key is 256
 * random bits, so a fast hash cannot be reversed by guessing); `prefix` is its visible start.
 * A revoked key keeps its row (revokedAt set) so the audit log's entries still point at it.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** `hrld_<8 hex>`: shown in the list and in logs, never enough to use the key. */
    prefix: text('prefix').notNull(),
    /** Hex SHA-256 of the whole key; the one way a request finds its key. */
    keyHash: text('key_hash').notNull(),
    permissions: text('permissions').array().notNull(),
    /** The key acts as its creator: it goes with their account. */
    createdByUserId: uuid('created_by_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    /** Written at most once a minute per key (api-keys.service.ts). */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('api_keys_hash_key').on(t.keyHash),
    index('api_keys_org_idx').on(t.organizationId),
  ],
);
