import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { FetchRefused, guardedRequest } from '../../media/safe-fetch.js';
import type { FeedsDeps } from './feed-check.js';
import type { ParsedFeed } from './feed-parser.js';
import * as repo from './feeds.repository.js';

/*
 * WebSub (docs/feeds.md#websub-push): a feed that advertises a hub is subscribed to, so the hub
 * pushes new content to Herald's callback; polling goes on, slower, as the fallback.
 */

/** The lease asked of the hub (10 days); the hub may grant another. */
export const WEBSUB_LEASE_SECONDS = 10 * 24 * 3600;
/** The longest lease Herald takes from a hub: polling stays slow only as long as this. */
export const WEBSUB_MAX_LEASE_SECONDS = 30 * 24 * 3600;
/** A lease is renewed when it has less than this left (or a tenth of it, if the lease is short). */
const RENEW_BEFORE_MS = 24 * 3_600_000;
/** A subscription the hub has not verified within this is given up (polling as before). */
const PENDING_FOR_MS = 3_600_000;
/** After a refusal, subscribing is tried again no sooner than this. */
const RETRY_AFTER_FAILURE_MS = 24 * 3_600_000;
/** While pushes come, a poll still runs at least this often: a push can be lost. */
export const WEBSUB_POLL_INTERVAL_MS = 6 * 3_600_000;
/** A pushed body bigger than this is not read (as for a fetched feed). */
export const WEBSUB_MAX_BYTES = 5 * 1024 * 1024;

export interface WebSubOptions {
  /** `API_PUBLIC_URL/websub/feeds/`: the callback is this and the feed's id. */
  callbackBase: string;
  /** The key each subscription's secret is derived from (with its nonce). */
  secretKey: string;
}

/** The secret the hub signs pushes with: derived, so the database alone does not give it. */
export const secretOf = (key: string, nonce: string) =>
  createHmac('sha256', key).update(`websub:${nonce}`).digest('hex');

/**
 * Whether Herald may ask this hub to call it back: only with an https callback (a hub sends
 * content to it), or, in tests, a hub on an address the test allowance lets through.
 */
export function websubAllowed(deps: Pick<FeedsDeps, 'websub' | 'mediaImport'>, hub: string) {
  if (!deps.websub) return false;
  if (deps.websub.callbackBase.startsWith('https://')) return true;
  const host = new URL(hub).host;
  return deps.mediaImport.allowPrivate.includes(host);
}

const now = (deps: Pick<FeedsDeps, 'now'>) => deps.now().getTime();

/** Whether this feed should (re)subscribe now, after a check that read it as `parsed`. */
export function wantsSubscription(
  deps: Pick<FeedsDeps, 'websub' | 'mediaImport' | 'now'>,
  feed: repo.FeedRow,
  parsed: Pick<ParsedFeed, 'hub' | 'self'>,
  fetchedUrl: string,
): { hub: string; topic: string } | null {
  if (!parsed.hub || feed.paused || !websubAllowed(deps, parsed.hub)) return null;
  const topic = parsed.self ?? fetchedUrl;
  const same = feed.websubHub === parsed.hub && feed.websubTopic === topic;
  if (same && feed.websubState === 'pending') return null;
  if (same && feed.websubState === 'subscribed' && !leaseEndsSoon(deps, feed)) return null;
  if (
    same &&
    feed.websubState === 'failed' &&
    feed.websubRequestedAt &&
    now(deps) - feed.websubRequestedAt.getTime() < RETRY_AFTER_FAILURE_MS
  )
    return null;
  return { hub: parsed.hub, topic };
}

function leaseEndsSoon(deps: Pick<FeedsDeps, 'now'>, feed: repo.FeedRow) {
  if (!feed.websubLeaseExpiresAt || !feed.websubRequestedAt) return true;
  const lease = feed.websubLeaseExpiresAt.getTime() - feed.websubRequestedAt.getTime();
  const before = Math.min(RENEW_BEFORE_MS, Math.max(60_000, lease / 10));
  return feed.websubLeaseExpiresAt.getTime() - now(deps) <= before;
}

/** Whether the feed's pushes are live: verified, and its lease not over. */
export function pushing(deps: Pick<FeedsDeps, 'now'>, feed: repo.FeedRow) {
  return (
    feed.websubState === 'subscribed' &&
    !!feed.websubLeaseExpiresAt &&
    feed.websubLeaseExpiresAt.getTime() > now(deps)
  );
}

const hubWords = (status: number) =>
  `The feed's WebSub hub refused the subscription (HTTP ${status}); Herald checks the feed by polling.`;

/**
 * Asks the hub to subscribe Herald's callback to the topic (through the SSRF guard). The
 * subscription is `pending` until the hub verifies it at the callback; a refusal is kept in
 * plain words and polling goes on as before.
 */
export async function subscribe(
  deps: FeedsDeps,
  feed: repo.FeedRow,
  target: { hub: string; topic: string },
) {
  const websub = deps.websub!;
  // A renewal keeps the secret (pushes signed with it stay good while the hub verifies again).
  const renewing =
    feed.websubNonce && feed.websubHub === target.hub && feed.websubTopic === target.topic;
  const nonce = renewing ? feed.websubNonce! : randomBytes(18).toString('base64url');
  const form = new URLSearchParams({
    'hub.mode': 'subscribe',
    'hub.topic': target.topic,
    'hub.callback': `${websub.callbackBase}${feed.id}`,
    'hub.secret': secretOf(websub.secretKey, nonce),
    'hub.lease_seconds': String(WEBSUB_LEASE_SECONDS),
  });
  let error: string | null = null;
  try {
    const res = await guardedRequest(
      target.hub,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      },
      { allowPrivate: deps.mediaImport.allowPrivate, timeoutMs: 20_000, maxBytes: 64 * 1024 },
    );
    if (res.status < 200 || res.status >= 300) error = hubWords(res.status);
  } catch (caught) {
    if (!(caught instanceof FetchRefused)) throw caught;
    error = `The feed's WebSub hub ${caught.message} Herald checks the feed by polling.`;
  }
  await repo.updateFeed(deps.db, feed.organizationId, feed.id, {
    websubHub: target.hub,
    websubTopic: target.topic,
    websubNonce: nonce,
    websubRequestedAt: deps.now(),
    websubState: error ? 'failed' : 'pending',
    websubError: error,
    // A renewal keeps the lease it has until the hub confirms the new one.
    ...(error ? { websubLeaseExpiresAt: null } : {}),
  });
}

/**
 * The hub's verification of intent (`GET` on the callback): the challenge to echo when the
 * request is for the subscription Herald asked for (its topic, pending or live), else null (404).
 */
export async function verifyIntent(
  deps: FeedsDeps,
  feedId: string,
  query: Record<string, string | undefined>,
): Promise<string | null> {
  const feed = await repo.findFeedById(deps.db, feedId);
  const mode = query['hub.mode'];
  const challenge = query['hub.challenge'];
  if (!feed || !challenge || query['hub.topic'] !== feed.websubTopic) return null;
  if (mode === 'denied') {
    await repo.updateFeed(deps.db, feed.organizationId, feed.id, {
      websubState: 'failed',
      websubLeaseExpiresAt: null,
      websubError: `The feed's WebSub hub denied the subscription${query['hub.reason'] ? ` (${query['hub.reason']})` : ''}; Herald checks the feed by polling.`,
      nextCheckAt: deps.now(),
    });
    return challenge;
  }
  // Herald only unsubscribes from a feed it no longer has: a live feed refuses it. A subscription
  // is confirmed only while Herald asked for one (pending) or holds one (a renewal): a failed one
  // is asked again by Herald itself, not revived by whoever knows the feed's callback.
  if (mode !== 'subscribe' || feed.paused) return null;
  if (feed.websubState !== 'pending' && feed.websubState !== 'subscribed') return null;
  const asked = Number(query['hub.lease_seconds']);
  const seconds =
    Number.isInteger(asked) && asked > 0
      ? Math.min(asked, WEBSUB_MAX_LEASE_SECONDS)
      : WEBSUB_LEASE_SECONDS;
  await repo.updateFeed(deps.db, feed.organizationId, feed.id, {
    websubState: 'subscribed',
    websubError: null,
    websubRequestedAt: deps.now(),
    websubLeaseExpiresAt: new Date(now(deps) + seconds * 1000),
  });
  return challenge;
}

const ALGORITHMS: Record<string, string> = {
  sha1: 'sha1',
  sha256: 'sha256',
  sha384: 'sha384',
  sha512: 'sha512',
};

/** Whether `X-Hub-Signature` (`<algorithm>=<hex HMAC of the body>`) is the secret's. */
export function signatureMatches(header: string | undefined, secret: string, body: Buffer) {
  const match = /^(sha1|sha256|sha384|sha512)=([0-9a-f]+)$/i.exec(header?.trim() ?? '');
  if (!match) return false;
  const expected = createHmac(ALGORITHMS[match[1]!.toLowerCase()]!, secret).update(body).digest();
  const given = Buffer.from(match[2]!, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A push's feed, when it is signed with the subscription's secret; null otherwise (the hub is
 * still answered 2xx, as WebSub asks, and the body is ignored).
 */
export async function authenticPush(
  deps: FeedsDeps,
  feedId: string,
  body: Buffer,
  signature: string | undefined,
) {
  const feed = await repo.findFeedById(deps.db, feedId);
  if (!feed || !feed.websubNonce || !deps.websub || feed.paused) return null;
  // Pending: a renewal the hub has not verified yet, with the same secret.
  if (feed.websubState !== 'subscribed' && feed.websubState !== 'pending') return null;
  const secret = secretOf(deps.websub.secretKey, feed.websubNonce);
  return signatureMatches(signature, secret, body) ? feed : null;
}

/**
 * The cron's other work: renew leases that end soon, give up subscriptions the hub never
 * verified and leases that ran out (those feeds are polled at once, as before WebSub).
 */
export async function renewSubscriptions(deps: FeedsDeps, limit = 50) {
  const at = deps.now();
  let renewed = 0;
  for (const feed of await repo.websubFeeds(deps.db, limit)) {
    if (feed.paused || !feed.websubHub || !feed.websubTopic) continue;
    if (feed.websubState === 'pending') {
      if (
        feed.websubRequestedAt &&
        at.getTime() - feed.websubRequestedAt.getTime() > PENDING_FOR_MS
      )
        await repo.updateFeed(deps.db, feed.organizationId, feed.id, {
          websubState: 'failed',
          websubError:
            "The feed's WebSub hub did not confirm the subscription within an hour; Herald checks the feed by polling.",
          nextCheckAt: at,
        });
      continue;
    }
    if (feed.websubState !== 'subscribed') continue;
    if (!pushing(deps, feed)) {
      // The lease ran out unrenewed: polling takes over at once, and the next check subscribes.
      await repo.updateFeed(deps.db, feed.organizationId, feed.id, {
        websubState: 'failed',
        websubError: 'The WebSub subscription ended; Herald checks the feed by polling.',
        websubLeaseExpiresAt: null,
        nextCheckAt: at,
      });
      continue;
    }
    if (!leaseEndsSoon(deps, feed) || !websubAllowed(deps, feed.websubHub)) continue;
    await subscribe(deps, feed, { hub: feed.websubHub, topic: feed.websubTopic });
    renewed++;
  }
  return renewed;
}
