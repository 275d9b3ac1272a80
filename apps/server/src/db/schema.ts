/**
 * Every table, one file per domain under `schema/`. Code imports tables from here; drizzle-kit
 * reads the folder (drizzle.config.ts).
 */
export * from './schema/users.js';
export * from './schema/organizations.js';
export * from './schema/identity.js';
export * from './schema/billing.js';
export * from './schema/notifications.js';
export * from './schema/platforms.js';
export * from './schema/posts.js';
export * from './schema/publishing.js';
export * from './schema/audit.js';
export * from './schema/system.js';
export * from './schema/analytics.js';
export * from './schema/queue.js';
export * from './schema/inbox.js';
export * from './schema/composer.js';
export * from './schema/reports.js';
export * from './schema/webhooks.js';
export * from './schema/api-keys.js';
export * from './schema/feeds.js';
export * from './schema/evergreen.js';
export * from './schema/short-links.js';
