import { NOTIFICATION_TYPE_LABELS } from '@herald/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { TokenCipher } from '../../lib/token-crypto.js';
import { FetchRefused, precheckUrl, safePostJson } from '../../media/safe-fetch.js';
import * as repo from './notifications.repository.js';

export interface WebhookDeps {
  db: Db;
  cipher: TokenCipher;
  /** "host:port" pairs that may be private: for tests only (their server listens on loopback). */
  allowPrivate: readonly string[];
  log: FastifyBaseLogger;
  now?: () => Date;
}

const BATCH = 200;

/** What an admin sees of the saved URL: where it goes, and its last characters. */
function hintOf(url: URL) {
  const rest = `${url.pathname}${url.search}`;
  return `${url.origin}/…${rest.slice(-4)}`;
}

/** The organization's webhook as the settings show it (never the whole URL). */
export async function readWebhook(db: Db, organizationId: string) {
  const row = await repo.readWebhook(db, organizationId);
  return { configured: row !== null, urlHint: row?.urlHint ?? null };
}

/**
 * Saves the URL an admin gave: https (a test's loopback server aside), no user name or password,
 * not an address of Herald's own network; sealed like account tokens.
 */
export async function saveWebhook(deps: WebhookDeps, organizationId: string, raw: string) {
  let parsed: URL;
  try {
    parsed = new URL(raw.trim());
  } catch {
    throw new AppError('VALIDATION_FAILED', 'The webhook URL is not a valid URL.');
  }
  const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
  const testServer =
    parsed.protocol === 'http:' && deps.allowPrivate.includes(`${parsed.hostname}:${port}`);
  if (parsed.protocol !== 'https:' && !testServer)
    throw new AppError(
      'VALIDATION_FAILED',
      'The webhook URL must start with https:// (Slack and Teams give one that does).',
    );
  let url: URL;
  try {
    url = precheckUrl(parsed.toString(), deps.allowPrivate);
  } catch (err) {
    if (err instanceof FetchRefused)
      throw new AppError('VALIDATION_FAILED', `The webhook URL ${err.message}`);
    throw err;
  }
  await repo.saveWebhook(deps.db, organizationId, deps.cipher.encrypt(url.toString()), hintOf(url));
  return readWebhook(deps.db, organizationId);
}

export const deleteWebhook = (db: Db, organizationId: string) =>
  repo.deleteWebhook(db, organizationId);

/** Slack and Teams (its incoming webhooks and Workflows) both show `text`. */
const payloadOf = (type: keyof typeof NOTIFICATION_TYPE_LABELS, message: string) => ({
  text: `${NOTIFICATION_TYPE_LABELS[type]}: ${message}`,
});

async function post(deps: WebhookDeps, sealed: string, body: unknown) {
  await safePostJson(deps.cipher.decrypt(sealed), body, { allowPrivate: deps.allowPrivate });
}

/** "Send test": posts a sample now and says whether the webhook took it. */
export async function testWebhook(deps: WebhookDeps, organizationId: string) {
  const row = await repo.readWebhook(deps.db, organizationId);
  if (!row) throw new AppError('NOT_FOUND', 'Save a webhook URL first, then send a test.');
  try {
    await post(deps, row.urlSealed, {
      text: 'Herald test: publishing failures and approvals of this organization will appear here.',
    });
    return { delivered: true, message: 'The webhook accepted the test message.' };
  } catch (err) {
    if (!(err instanceof FetchRefused)) throw err;
    return { delivered: false, message: `The webhook URL ${err.message}` };
  }
}

/** For the job: posts what waits to each organization's webhook; answers how many went. */
export async function sendWebhooks(deps: WebhookDeps) {
  const now = deps.now?.() ?? new Date();
  let sent = 0;
  for (;;) {
    const rows = await repo.takeWebhookDeliveries(deps.db, now, BATCH);
    if (rows.length === 0) return sent;
    const hooks = new Map<string, string | null>();
    for (const row of rows) {
      if (!hooks.has(row.organizationId))
        hooks.set(
          row.organizationId,
          (await repo.readWebhook(deps.db, row.organizationId))?.urlSealed ?? null,
        );
      const sealed = hooks.get(row.organizationId);
      if (!sealed) continue;
      try {
        await post(deps, sealed, payloadOf(row.type, row.message));
        sent += 1;
      } catch (err) {
        // Taken out already: a webhook that refuses is not tried forever.
        deps.log.warn(
          { err: (err as Error).message, organizationId: row.organizationId },
          'a notification could not be posted to the organization webhook',
        );
      }
    }
  }
}
