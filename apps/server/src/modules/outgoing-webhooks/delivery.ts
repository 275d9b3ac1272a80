import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import type { TokenCipher } from '../../lib/token-crypto.js';
import { FetchRefused, safePostRaw } from '../../media/safe-fetch.js';
import { notifyOrganizationAdmins } from '../notifications/notifications.service.js';
import * as repo from './outgoing-webhooks.repository.js';
import { signedHeaders } from './signing.js';

export interface DeliveryDeps {
  db: Db;
  cipher: TokenCipher;
  /** "host:port" pairs that may be private: for tests only (their receiver listens on loopback). */
  allowPrivate: readonly string[];
  log: FastifyBaseLogger;
  now?: () => Date;
  /** How long an endpoint may fail every attempt before it is turned off. */
  disableAfterMs: number;
  /** A number in [0, 1) drawing each wait's jitter (Math.random; tests fix it). */
  random?: () => number;
}

/**
 * Seconds to wait after each failed attempt, Standard Webhooks' example schedule: 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h — ten attempts over about three days.
 */
export const RETRY_DELAYS_SECONDS = [
  5,
  5 * 60,
  30 * 60,
  2 * 3600,
  5 * 3600,
  10 * 3600,
  14 * 3600,
  20 * 3600,
  24 * 3600,
] as const;

/**
 * Each wait is drawn within ±20 % of the schedule's, so that the deliveries of receivers that
 * failed together (an outage) do not all come back in the same second.
 */
export const RETRY_JITTER = 0.2;

/**
 * The seconds a `Retry-After` header asks for: delay-seconds, or an HTTP date (RFC 9110 §10.2.3).
 * Null when it says neither.
 */
export function retryAfterSeconds(value: string | undefined, now: Date): number | null {
  const v = value?.trim();
  if (!v) return null;
  if (/^\d+$/.test(v)) return Number(v);
  // An HTTP date names its month ("Wed, 21 Oct 2015 07:28:00 GMT"): "-5" is no date here.
  if (!/[a-z]{3}/i.test(v)) return null;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

const FIRST_WAIT = RETRY_DELAYS_SECONDS[0];
const LONGEST_WAIT = RETRY_DELAYS_SECONDS[RETRY_DELAYS_SECONDS.length - 1]!;

/**
 * How long to wait after failed attempt `attemptCount` (seconds), or undefined when it was the
 * last. A receiver that answered 429 or 503 with `Retry-After` gets the wait it asked for, kept
 * within the schedule's shortest and longest; otherwise the schedule's, with jitter.
 */
export function nextWaitSeconds(
  attemptCount: number,
  answer: { statusCode: number | null; retryAfter?: string },
  now: Date,
  random: () => number = Math.random,
): number | undefined {
  const scheduled = RETRY_DELAYS_SECONDS[attemptCount - 1];
  if (scheduled === undefined) return undefined;
  if (answer.statusCode === 429 || answer.statusCode === 503) {
    const asked = retryAfterSeconds(answer.retryAfter, now);
    if (asked !== null) return Math.min(Math.max(asked, FIRST_WAIT), LONGEST_WAIT);
  }
  return scheduled * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random());
}

const BATCH = 50;
/** Longer than an attempt can take (15 s timeout): a claimed delivery is not sent twice at once. */
const LEASE_MS = 2 * 60_000;

export interface AttemptResult {
  succeeded: boolean;
  statusCode: number | null;
  retryAfter?: string;
}

/** Signs and sends one delivery now, and logs the attempt. */
async function attempt(
  deps: DeliveryDeps,
  endpoint: repo.EndpointRow,
  delivery: repo.DeliveryRow,
): Promise<AttemptResult & { gone: boolean }> {
  const now = deps.now?.() ?? new Date();
  const secrets = [deps.cipher.decrypt(endpoint.secretSealed)];
  if (
    endpoint.previousSecretSealed &&
    endpoint.previousSecretExpiresAt &&
    endpoint.previousSecretExpiresAt > now
  )
    secrets.push(deps.cipher.decrypt(endpoint.previousSecretSealed));
  // The timestamp is this attempt's, the id the event's (the receiver dedupes on it).
  const timestamp = Math.floor(now.getTime() / 1000);
  const headers = signedHeaders(secrets, delivery.messageId, timestamp, delivery.body);
  const started = performance.now();
  let statusCode: number | null = null;
  let retryAfter: string | undefined;
  let excerpt: string | null = null;
  let error: string | null = null;
  try {
    const answer = await safePostRaw(endpoint.url, delivery.body, headers, {
      allowPrivate: deps.allowPrivate,
    });
    statusCode = answer.statusCode;
    retryAfter = answer.retryAfter;
    excerpt = answer.excerpt || null;
    if (statusCode < 200 || statusCode >= 300)
      error =
        statusCode >= 300 && statusCode < 400
          ? `The endpoint redirected (HTTP ${statusCode}); Herald follows no redirects, give the final address.`
          : `The endpoint answered HTTP ${statusCode}.`;
  } catch (err) {
    if (!(err instanceof FetchRefused)) throw err;
    error = `The endpoint ${err.message}`;
  }
  const succeeded = error === null;
  await repo.insertAttempt(deps.db, {
    deliveryId: delivery.id,
    attemptedAt: now,
    statusCode,
    durationMs: Math.round(performance.now() - started),
    responseExcerpt: excerpt,
    error,
    succeeded,
  });
  return { succeeded, statusCode, retryAfter, gone: statusCode === 410 };
}

const days = (ms: number) => Math.round(ms / 86_400_000);

/** Turns an endpoint off and tells the organization's Admins why. */
async function disable(deps: DeliveryDeps, endpoint: repo.EndpointRow, reason: string) {
  if (!(await repo.disableEndpoint(deps.db, endpoint.id, reason))) return;
  await repo.giveUpPending(deps.db, endpoint.id);
  await notifyOrganizationAdmins(deps.db, endpoint.organizationId, {
    type: 'WEBHOOK_DISABLED',
    priority: 'HIGH',
    message: `The webhook to ${endpoint.url} was turned off: ${reason} Fix the receiver, then enable it again in Settings.`,
  });
  deps.log.warn({ endpointId: endpoint.id, reason }, 'webhook endpoint disabled');
}

/** After any attempt: success clears the failing streak; a long streak or 410 turns it off. */
async function judgeEndpoint(
  deps: DeliveryDeps,
  endpoint: repo.EndpointRow,
  result: AttemptResult & { gone: boolean },
) {
  if (result.succeeded) return repo.markAnswering(deps.db, endpoint.id);
  const now = deps.now?.() ?? new Date();
  if (result.gone)
    return disable(deps, endpoint, 'it answered 410 Gone, which asks senders to stop.');
  const marked = await repo.markFailing(deps.db, endpoint.id, now);
  const since = marked?.failingSince;
  if (since && now.getTime() - since.getTime() >= deps.disableAfterMs)
    await disable(
      deps,
      endpoint,
      `every delivery has failed for ${days(now.getTime() - since.getTime())} days.`,
    );
}

/** One scheduled attempt: success ends the delivery; a failure waits its turn or gives up. */
async function sendScheduled(
  deps: DeliveryDeps,
  endpoint: repo.EndpointRow,
  delivery: repo.DeliveryRow,
) {
  const result = await attempt(deps, endpoint, delivery);
  const attemptCount = delivery.attemptCount + 1;
  const now = deps.now?.() ?? new Date();
  const wait = result.succeeded
    ? undefined
    : nextWaitSeconds(attemptCount, result, now, deps.random);
  await repo.settleDelivery(deps.db, delivery.id, {
    attemptCount,
    status: result.succeeded ? 'SUCCEEDED' : wait === undefined ? 'FAILED' : 'PENDING',
    nextAttemptAt: wait === undefined ? null : new Date(now.getTime() + Math.round(wait * 1000)),
  });
  await judgeEndpoint(deps, endpoint, result);
  return result.succeeded;
}

/** For the job: sends every due delivery; answers how many succeeded. */
export async function deliverDue(deps: DeliveryDeps) {
  let sent = 0;
  for (;;) {
    const now = deps.now?.() ?? new Date();
    const claimed = await repo.claimDue(deps.db, now, new Date(now.getTime() + LEASE_MS), BATCH);
    if (claimed.length === 0) return sent;
    for (const delivery of claimed) {
      const endpoint = await repo.findEndpointById(deps.db, delivery.endpointId);
      if (!endpoint?.enabled) continue;
      if (await sendScheduled(deps, endpoint, delivery)) sent += 1;
    }
    if (claimed.length < BATCH) return sent;
  }
}

/**
 * A person's "Send test event" or "Redeliver": one attempt now, logged like the others. Success
 * ends the delivery; a failure leaves its automatic retries as they were (a test has none).
 */
export async function sendNow(
  deps: DeliveryDeps,
  endpoint: repo.EndpointRow,
  delivery: repo.DeliveryRow,
) {
  const result = await attempt(deps, endpoint, delivery);
  // A test event waits for no retry: it fails at once. A redelivery keeps the delivery's own.
  const isTest = delivery.status === 'PENDING' && delivery.nextAttemptAt === null;
  await repo.settleDelivery(deps.db, delivery.id, {
    attemptCount: delivery.attemptCount + 1,
    status: result.succeeded ? 'SUCCEEDED' : isTest ? 'FAILED' : delivery.status,
    nextAttemptAt: result.succeeded || isTest ? null : delivery.nextAttemptAt,
  });
  await judgeEndpoint(deps, endpoint, result);
  return result;
}
