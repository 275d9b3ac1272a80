import {
  renderFeedTemplate,
  type CreateFeedRequestSchema,
  type Feed,
  type FeedItem,
  type FeedPreview,
  type PreviewFeedRequestSchema,
  type UpdateFeedRequestSchema,
} from '@herald/contract';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { FetchRefused, precheckUrl } from '../../media/safe-fetch.js';
import { accountLabel } from '../posts/post-accounts.js';
import * as postsRepo from '../posts/posts.lookups.js';
import { assertReachesAccounts, reachesAccount } from '../team/account-access.js';
import { checkFeed, readFeed, type FeedsDeps } from './feed-check.js';
import { FeedFetchFailed } from './feed-fetch.js';
import * as repo from './feeds.repository.js';

/** The member asking: who they are and the accounts they reach (null: every account). */
export interface FeedsMember {
  organizationId: string;
  userId: string;
  accountIds: string[] | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toFeedDto(row: repo.FeedRow): Feed {
  return {
    id: row.id,
    url: row.url,
    title: row.title,
    integrationIds: row.integrationIds,
    destination: row.destination,
    template: row.template,
    importLatest: row.importLatest,
    paused: row.paused,
    lastCheckedAt: iso(row.lastCheckedAt),
    lastSuccessAt: iso(row.lastSuccessAt),
    nextCheckAt: row.paused ? null : iso(row.nextCheckAt),
    lastError: row.lastError,
    errorCount: row.errorCount,
    createdAt: row.createdAt.toISOString(),
  };
}

const toItemDto = (row: repo.FeedItemRow): FeedItem => ({
  id: row.id,
  title: row.title,
  link: row.link,
  publishedAt: iso(row.publishedAt),
  outcome: row.outcome,
  postId: row.postId,
  error: row.error,
  attempts: row.attempts,
  createdAt: row.createdAt.toISOString(),
});

const notFound = () => new AppError('NOT_FOUND', 'This feed does not exist in this organization.');

/** A feed is the member's to see and change when its posts go only to accounts they reach. */
const reaches = (member: FeedsMember, feed: repo.FeedRow) =>
  feed.integrationIds.every((id) => reachesAccount(member, id));

async function findOwn(deps: FeedsDeps, member: FeedsMember, feedId: string) {
  const feed = await repo.findFeed(deps.db, member.organizationId, feedId);
  if (!feed || !reaches(member, feed)) throw notFound();
  return feed;
}

/** The accounts must be connected here and within the member's reach. */
async function checkAccounts(deps: FeedsDeps, member: FeedsMember, integrationIds: string[]) {
  const connected = await postsRepo.connectedAccounts(deps.db, member.organizationId);
  const chosen = integrationIds.map((id) => connected.find((a) => a.integrationId === id));
  if (chosen.some((a) => !a)) {
    throw new AppError(
      'VALIDATION_FAILED',
      'One of the chosen accounts is not connected to this organization.',
    );
  }
  assertReachesAccounts(
    member,
    chosen.map((a) => ({
      integrationId: a!.integrationId,
      label: accountLabel({ username: a!.username, name: a!.name, network: a!.platformName }),
    })),
  );
}

/** The address checked without the network (scheme, literal private address) as a 400. */
function checkUrl(deps: FeedsDeps, url: string) {
  try {
    precheckUrl(url, deps.mediaImport.allowPrivate);
  } catch (error) {
    if (error instanceof FetchRefused)
      throw new AppError('VALIDATION_FAILED', `The feed address ${error.message}`);
    throw error;
  }
}

/** Reads the feed once to be sure it is one; a 400 with the reason when it is not. */
async function readOrRefuse(deps: FeedsDeps, url: string) {
  try {
    return await readFeed(deps, { url, etag: null, lastModified: null, validatorsUrl: null });
  } catch (error) {
    if (error instanceof FeedFetchFailed) throw new AppError('VALIDATION_FAILED', error.message);
    throw error;
  }
}

export async function listFeeds(deps: FeedsDeps, member: FeedsMember) {
  const rows = await repo.listFeeds(deps.db, member.organizationId);
  return rows.filter((row) => reaches(member, row)).map(toFeedDto);
}

export async function getFeed(deps: FeedsDeps, member: FeedsMember, feedId: string) {
  const feed = await findOwn(deps, member, feedId);
  const items = await repo.recentItems(deps.db, member.organizationId, feed.id);
  return { feed: toFeedDto(feed), items: items.map(toItemDto) };
}

/**
 * Adds a feed: the address must answer a feed now (a 400 says why not), and the first check
 * runs at once: the `importLatest` newest items become posts, the others are remembered as seen.
 */
export async function createFeed(
  deps: FeedsDeps,
  member: FeedsMember,
  body: z.output<typeof CreateFeedRequestSchema>,
) {
  checkUrl(deps, body.url);
  await checkAccounts(deps, member, body.integrationIds);
  const read = await readOrRefuse(deps, body.url);
  const row = await repo.insertFeed(deps.db, {
    organizationId: member.organizationId,
    createdByUserId: member.userId,
    url: body.url,
    title: read.parsed?.title ?? null,
    integrationIds: body.integrationIds,
    destination: body.destination,
    template: body.template?.trim() ? body.template : null,
    importLatest: body.importLatest,
  });
  const check = await checkFeed(deps, row, read);
  const feed = await repo.findFeed(deps.db, member.organizationId, row.id);
  return { feed: toFeedDto(feed ?? row), check };
}

/** Edits, pauses or resumes a feed; its posts are made as the member who saved it last. */
export async function updateFeed(
  deps: FeedsDeps,
  member: FeedsMember,
  feedId: string,
  body: z.output<typeof UpdateFeedRequestSchema>,
) {
  const feed = await findOwn(deps, member, feedId);
  if (body.integrationIds) await checkAccounts(deps, member, body.integrationIds);
  const urlChanged = body.url !== undefined && body.url !== feed.url;
  if (urlChanged) {
    checkUrl(deps, body.url!);
    await readOrRefuse(deps, body.url!);
  }
  const resumed = body.paused === false && feed.paused;
  const updated = await repo.updateFeed(deps.db, member.organizationId, feedId, {
    createdByUserId: member.userId,
    ...(body.url !== undefined ? { url: body.url } : {}),
    ...(body.integrationIds ? { integrationIds: body.integrationIds } : {}),
    ...(body.destination ? { destination: body.destination } : {}),
    ...(body.template !== undefined
      ? { template: body.template?.trim() ? body.template : null }
      : {}),
    ...(body.paused !== undefined ? { paused: body.paused } : {}),
    // A new address has its own validators; a resumed feed is checked at the next run.
    ...(urlChanged ? { etag: null, lastModified: null, validatorsUrl: null } : {}),
    ...(urlChanged || resumed ? { nextCheckAt: deps.now(), errorCount: 0 } : {}),
  });
  if (!updated) throw notFound();
  return toFeedDto(updated);
}

export async function deleteFeed(deps: FeedsDeps, member: FeedsMember, feedId: string) {
  await findOwn(deps, member, feedId);
  await repo.deleteFeed(deps.db, member.organizationId, feedId);
}

/** "Check now": one check at once, whatever its schedule (a paused feed too). */
export async function checkNow(deps: FeedsDeps, member: FeedsMember, feedId: string) {
  const feed = await findOwn(deps, member, feedId);
  const check = await checkFeed(deps, feed);
  const after = await repo.findFeed(deps.db, member.organizationId, feedId);
  return { feed: toFeedDto(after ?? feed), check };
}

/** The add form's preview: the feed read now, its newest item through the template. */
export async function previewFeed(
  deps: FeedsDeps,
  body: z.output<typeof PreviewFeedRequestSchema>,
): Promise<FeedPreview> {
  checkUrl(deps, body.url);
  const { parsed } = await readOrRefuse(deps, body.url);
  const first = parsed?.items[0];
  const title = parsed?.title ?? null;
  return {
    title,
    itemCount: parsed?.items.length ?? 0,
    firstItem: first
      ? {
          title: first.title,
          link: first.link,
          text: renderFeedTemplate(body.template?.trim() ? body.template : null, {
            title: first.title,
            link: first.link ?? '',
            summary: first.summary,
            author: first.author,
            feed: title ?? body.url,
          }),
        }
      : null,
  };
}
