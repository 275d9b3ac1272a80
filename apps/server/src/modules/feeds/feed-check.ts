import {
  FEED_ITEM_MAX_ATTEMPTS,
  constraintsForAccount,
  fitFeedText,
  renderFeedTemplate,
  textLimitOf,
  type FeedCheck,
  type PostContent,
} from '@herald/contract';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/app-error.js';
import type { IngestedMedia } from '../../media/media-store.js';
import { FetchRefused, safeFetch } from '../../media/safe-fetch.js';
import { recordSubmission } from '../approvals/approval-rule.js';
import { constraintsOf } from '../posts/post-rules.js';
import * as postsRepo from '../posts/posts.lookups.js';
import { createPost, type Caller, type PostsDeps } from '../posts/posts.service.js';
import { keysOf } from '../posts/posts.upload.js';
import { markQueued, nextFreeSlot } from '../queue/queue.service.js';
import { loadMembership } from '../team/membership.js';
import { fetchFeed, FeedFetchFailed } from './feed-fetch.js';
import { NotAFeed, parseFeed, type ParsedFeed, type ParsedItem } from './feed-parser.js';
import * as repo from './feeds.repository.js';
import {
  pushing,
  renewSubscriptions,
  subscribe,
  wantsSubscription,
  WEBSUB_POLL_INTERVAL_MS,
  type WebSubOptions,
} from './websub.js';

export interface FeedsDeps extends PostsDeps {
  mediaImport: { maxBytes: number; allowPrivate: readonly string[] };
  /** WebSub's callback and secrets (docs/feeds.md#websub-push); absent: feeds are only polled. */
  websub?: WebSubOptions | null;
  /** The shortest wait between two checks of a feed (FEED_MIN_INTERVAL_MINUTES). */
  minIntervalMs: number;
  log: FastifyBaseLogger;
}

/** Posts one check makes at most; more new items wait for the next check. */
export const FEED_MAX_POSTS_PER_CHECK = 10;
/** The longest wait after failures, however many in a row. */
const MAX_BACKOFF_MS = 24 * 3_600_000;

/** The member the feed's posts are written as: the one who last added or edited it. */
async function callerOf(deps: Pick<FeedsDeps, 'db'>, feed: repo.FeedRow): Promise<Caller> {
  const member = feed.createdByUserId
    ? await loadMembership(deps.db, feed.organizationId, feed.createdByUserId)
    : null;
  if (!member || !member.permissions.includes('post:create')) {
    throw new FeedFetchFailed(
      'The member who added this feed can no longer create posts here. Edit the feed (save it again) to make its posts as you.',
    );
  }
  return {
    organizationId: feed.organizationId,
    userId: feed.createdByUserId!,
    canApprove: member.permissions.includes('post:approve'),
    accountIds: member.accountIds,
  };
}

/** The item's text per account: the template, cut to each network's limit without cutting a link. */
function contentFor(text: string, accounts: postsRepo.ConnectedAccount[]): PostContent {
  const own: Record<string, string> = {};
  for (const a of accounts) {
    const limit = textLimitOf(
      constraintsForAccount(constraintsOf(a.mediaConstraints), a.textLimit),
    );
    if (!limit) continue;
    const fitted = fitFeedText(text, limit.max, limit.counting);
    if (fitted !== text) own[a.integrationId] = fitted;
  }
  return Object.keys(own).length > 0 ? { default: text, ...own } : text;
}

/** The item's picture, fetched through the media import's guard; none when it cannot be had. */
async function fetchImage(
  deps: FeedsDeps,
  organizationId: string,
  url: string | null,
): Promise<IngestedMedia[]> {
  if (!url) return [];
  try {
    const fetched = await safeFetch(url, {
      maxBytes: deps.mediaImport.maxBytes,
      allowPrivate: deps.mediaImport.allowPrivate,
      acceptTypes: ['image/'],
    });
    return [await deps.media.ingest(fetched.body, { organizationId, fileName: fetched.fileName })];
  } catch (error) {
    // A missing picture does not keep the item from being posted: the text and link still go.
    if (error instanceof FetchRefused || error instanceof AppError) {
      deps.log.info({ url, reason: error.message }, 'feed item image not attached');
      return [];
    }
    throw error;
  }
}

const itemValues = (feed: repo.FeedRow, item: ParsedItem) => ({
  organizationId: feed.organizationId,
  feedId: feed.id,
  guid: item.guid,
  link: item.link,
  title: item.title.slice(0, 500) || null,
  publishedAt: item.publishedAt,
});

/** An item a check takes: new, or failed before and tried again (`retryOf`: its row). */
type TakenItem = ParsedItem & { retryOf: string | null };

/**
 * Makes one item a post, exactly once: the item is recorded in the post's own transaction, so
 * a second check holding the same item waits on the unique index (or, for an item tried again,
 * on its row) and then finds it taken. Answers 'posted', 'known' (another check had it), or the
 * sentence of why no post was made.
 */
async function postItem(
  deps: FeedsDeps,
  feed: repo.FeedRow,
  feedName: string,
  caller: Caller,
  accounts: postsRepo.ConnectedAccount[],
  item: TakenItem,
): Promise<'posted' | 'known' | { error: string }> {
  const text = renderFeedTemplate(feed.template, {
    title: item.title,
    link: item.link ?? '',
    summary: item.summary,
    author: item.author,
    feed: feedName,
  });
  const files = await fetchImage(deps, feed.organizationId, item.imageUrl);
  const Known = new Error('known');
  try {
    await deps.db.transaction(async (tx) => {
      const claimed = item.retryOf
        ? await repo.claimRetry(tx, item.retryOf, FEED_ITEM_MAX_ATTEMPTS)
        : await repo.claimItem(tx, { ...itemValues(feed, item), outcome: 'posted' });
      if (!claimed) throw Known;
      const post = await createPost(
        { ...deps, db: tx },
        caller,
        {
          integrationIds: feed.integrationIds,
          content: contentFor(text, accounts),
          action: feed.destination === 'queue' ? 'queue' : 'draft',
        },
        files,
      );
      const source = { kind: 'feed' as const, feedId: feed.id, name: feedName, itemUrl: item.link };
      if (feed.destination === 'approval') {
        // Submitted for approval at the accounts' next free queue slot, or with no time (the
        // approver then publishes it now or gives it one).
        const slot = await nextFreeSlot(tx, feed.organizationId, feed.integrationIds, deps.now());
        const row = await postsRepo.updatePost(tx, feed.organizationId, post.id, {
          status: 'pending_approval',
          scheduledAt: slot,
          source,
        });
        if (slot) await markQueued(tx, feed.organizationId, post.id, slot);
        await recordSubmission(tx, caller, row!);
      } else {
        await postsRepo.updatePost(tx, feed.organizationId, post.id, { source });
      }
      await repo.setItemPost(tx, claimed.id, post.id);
    });
    return 'posted';
  } catch (error) {
    await deps.media.remove(keysOf(files));
    if (error === Known) return 'known';
    if (error instanceof AppError && error.statusCode < 500) {
      // Recorded as failed with its reason; the next checks try it again, up to the cap (a queue
      // that was full, an account reconnected in the meantime).
      if (item.retryOf) await repo.recordRetryFailure(deps.db, item.retryOf, error.message);
      else
        await repo.claimItem(deps.db, {
          ...itemValues(feed, item),
          outcome: 'failed',
          error: error.message,
        });
      return { error: error.message };
    }
    throw error;
  }
}

/**
 * The items of a parsed feed that become posts now, oldest first (the queue fills in the feed's
 * order). At the first check only the `importLatest` newest are taken; every other item is
 * recorded as seen, so a new feed never floods the accounts with its history.
 */
async function takeItems(
  deps: FeedsDeps,
  feed: repo.FeedRow,
  parsed: ParsedFeed,
): Promise<TakenItem[]> {
  const known = await repo.knownKeys(deps.db, feed.id, FEED_ITEM_MAX_ATTEMPTS);
  const retryOf = (i: ParsedItem) =>
    (i.guid ? known.retry.get(`guid:${i.guid}`) : undefined) ??
    (i.link ? known.retry.get(`link:${i.link}`) : undefined) ??
    null;
  const fresh = parsed.items
    .map((i) => ({ ...i, retryOf: retryOf(i) }))
    .filter(
      (i) =>
        i.retryOf !== null ||
        (!(i.guid && known.guids.has(i.guid)) && !(i.link && known.links.has(i.link))),
    );
  if (feed.primedAt) return fresh.slice(0, FEED_MAX_POSTS_PER_CHECK).reverse();
  const take = fresh.slice(0, feed.importLatest);
  for (const item of fresh.slice(feed.importLatest)) {
    await repo.claimItem(deps.db, { ...itemValues(feed, item), outcome: 'seen' });
  }
  return take.reverse();
}

/**
 * When to check again after a good check: the minimum interval, or longer when the feed's ttl
 * or its `Cache-Control: max-age` asks for it (an answer is fresh until then, so an earlier check
 * would read the same). A max-age longer than a day counts as a day: new items still come daily.
 */
const nextAfterSuccess = (
  deps: FeedsDeps,
  ttlMinutes: number | null,
  now: Date,
  maxAgeMs: number | null = null,
) =>
  new Date(
    now.getTime() +
      Math.max(
        deps.minIntervalMs,
        (ttlMinutes ?? 0) * 60_000,
        Math.min(maxAgeMs ?? 0, MAX_BACKOFF_MS),
      ),
  );

/** The first time from `at` outside the feed's skipHours and skipDays (GMT), to the hour. */
export function afterSkips(at: Date, skip: Pick<ParsedFeed, 'skipHours' | 'skipDays'>): Date {
  let next = at;
  // A week of hours at most: a feed that skips every hour is read a week later.
  for (let i = 0; i < 7 * 24; i++) {
    if (!skip.skipHours.includes(next.getUTCHours()) && !skip.skipDays.includes(next.getUTCDay()))
      return next;
    next = new Date(Math.floor(next.getTime() / 3_600_000 + 1) * 3_600_000);
  }
  return next;
}

/** After `count` failures in a row: the interval doubled per failure, up to a day. */
const nextAfterFailure = (deps: FeedsDeps, count: number, now: Date, asked: number | null) =>
  new Date(
    now.getTime() +
      Math.max(asked ?? 0, Math.min(MAX_BACKOFF_MS, deps.minIntervalMs * 2 ** (count - 1))),
  );

/** Reads the feed at `url`; throws FeedFetchFailed (fetch or format) with a sentence. */
export async function readFeed(
  deps: FeedsDeps,
  feed: Pick<repo.FeedRow, 'url' | 'etag' | 'lastModified' | 'validatorsUrl'>,
) {
  const fetched = await fetchFeed(
    feed.url,
    { etag: feed.etag, lastModified: feed.lastModified, url: feed.validatorsUrl },
    deps.mediaImport.allowPrivate,
    deps.now,
  );
  if (fetched.kind === 'unchanged') return { fetched, parsed: null };
  try {
    return { fetched, parsed: parseFeed(fetched.body, fetched.contentType) };
  } catch (error) {
    if (error instanceof NotAFeed) throw new FeedFetchFailed(error.message);
    throw error;
  }
}

/**
 * One check of a feed: fetch (conditionally), read, make posts of its new items, and record
 * when to check next (its ttl respected; failures back off). Failures are stored on the feed in
 * plain words; nothing is thrown for them.
 */
export async function checkFeed(
  deps: FeedsDeps,
  feed: repo.FeedRow,
  alreadyRead?: Awaited<ReturnType<typeof readFeed>>,
): Promise<FeedCheck> {
  const now = deps.now();
  let parsed: ParsedFeed | null;
  let validators;
  let maxAgeMs: number | null;
  let fetchedUrl: string;
  let caller: Caller;
  try {
    caller = await callerOf(deps, feed);
    const read = alreadyRead ?? (await readFeed(deps, feed));
    parsed = read.parsed;
    validators = read.fetched.kind === 'body' ? read.fetched.validators : null;
    maxAgeMs = read.fetched.maxAgeMs;
    fetchedUrl = read.fetched.finalUrl;
  } catch (error) {
    if (!(error instanceof FeedFetchFailed)) throw error;
    const errorCount = feed.errorCount + 1;
    await repo.updateFeed(deps.db, feed.organizationId, feed.id, {
      lastCheckedAt: now,
      lastError: error.message,
      errorCount,
      nextCheckAt: nextAfterFailure(deps, errorCount, now, error.retryAfterMs),
    });
    return { changed: false, itemCount: 0, posted: 0, failed: 0 };
  }
  const success = {
    lastCheckedAt: now,
    lastSuccessAt: now,
    lastError: null,
    errorCount: 0,
  };
  // While the hub pushes, polling is the fallback: slower, in case a push is lost.
  const pushed = pushing(deps, feed) ? WEBSUB_POLL_INTERVAL_MS : null;
  const lowerBound = Math.max(maxAgeMs ?? 0, pushed ?? 0) || null;
  if (!parsed) {
    await repo.updateFeed(deps.db, feed.organizationId, feed.id, {
      ...success,
      nextCheckAt: nextAfterSuccess(deps, feed.ttlMinutes, now, lowerBound),
    });
    return { changed: false, itemCount: 0, posted: 0, failed: 0 };
  }
  const feedName = parsed.title ?? feed.title ?? feed.url;
  const accounts = (await postsRepo.connectedAccounts(deps.db, feed.organizationId)).filter((a) =>
    feed.integrationIds.includes(a.integrationId),
  );
  let posted = 0;
  let failed = 0;
  for (const item of await takeItems(deps, feed, parsed)) {
    const outcome = await postItem(deps, feed, feedName, caller, accounts, item);
    if (outcome === 'posted') posted++;
    else if (outcome !== 'known') failed++;
  }
  await repo.updateFeed(deps.db, feed.organizationId, feed.id, {
    ...success,
    title: parsed.title ?? feed.title,
    ttlMinutes: parsed.ttlMinutes,
    primedAt: feed.primedAt ?? now,
    etag: validators?.etag ?? null,
    lastModified: validators?.lastModified ?? null,
    validatorsUrl: validators?.url ?? null,
    nextCheckAt: afterSkips(nextAfterSuccess(deps, parsed.ttlMinutes, now, lowerBound), parsed),
  });
  const hub = wantsSubscription(deps, feed, parsed, fetchedUrl);
  if (hub) {
    try {
      await subscribe(deps, feed, hub);
    } catch (error) {
      // Polling goes on whatever happens with the hub.
      deps.log.warn({ err: error, feedId: feed.id }, 'websub subscription failed');
    }
  }
  return { changed: true, itemCount: parsed.items.length, posted, failed };
}

/** The cron's work: every due feed, one after another. Answers how many were checked. */
export async function checkDueFeeds(deps: FeedsDeps, limit = 50): Promise<number> {
  try {
    await renewSubscriptions(deps, limit);
  } catch (error) {
    deps.log.error({ err: error }, 'websub renewals failed');
  }
  const due = await repo.dueFeeds(deps.db, deps.now(), limit);
  for (const feed of due) {
    try {
      await checkFeed(deps, feed);
    } catch (error) {
      deps.log.error({ err: error, feedId: feed.id }, 'feed check failed');
    }
  }
  return due.length;
}
