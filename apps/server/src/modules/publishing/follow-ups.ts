import { randomUUID } from 'node:crypto';
import { followUpLabel, webUrlOrNull, type FollowUp, type FollowUpsInput } from '@herald/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { PlatformError } from '../../platforms/errors.js';
import type {
  NetworkComment,
  PublishingAdapter,
  PublishResult,
  StoredAccount,
} from '../../platforms/types.js';
import type { PublishQueue } from './publish-queue.js';
import { backoffMs, MAX_ATTEMPTS, rateLimitBackoffMs } from './retry-policy.js';
import {
  followUpsOf,
  followUpsOfTargets,
  replaceFollowUpRows,
  transitionFollowUp,
  type FollowUpRow,
  type NewFollowUp,
} from './follow-ups.repository.js';

/*
 * Thread parts and first comments (docs/product.md#threads-and-first-comments): what follows a
 * publication once it is out, one row each, published in order by the same engine rules as the
 * post itself — the row is PUBLISHING (with the attempt's id) before the visible call and
 * PUBLISHED with the network's id before the next one starts.
 */

export type { FollowUpRow };

/** The follow-ups of several targets (post details), by target id. */
export async function followUpsByTarget(db: Db, organizationId: string, targetIds: string[]) {
  const byTarget = new Map<string, FollowUpRow[]>();
  if (targetIds.length === 0) return byTarget;
  const rows = await followUpsOfTargets(db, organizationId, targetIds);
  for (const row of rows) byTarget.set(row.targetId, [...(byTarget.get(row.targetId) ?? []), row]);
  return byTarget;
}

export const followUpDto = (row: FollowUpRow): FollowUp => ({
  id: row.id,
  kind: row.kind,
  position: row.position,
  text: row.text,
  status: row.status,
  externalId: row.externalId,
  permalink: webUrlOrNull(row.permalink),
  error: row.error,
  publishedAt: row.publishedAt?.toISOString() ?? null,
});

/** The rows one account's parts and first comment become (part 2 onward, then the comment). */
function rowsOf(organizationId: string, targetId: string, input: FollowUpsInput | undefined) {
  const parts = input?.parts ?? [];
  const rows: NewFollowUp[] = parts.map((text, i) => ({
    organizationId,
    targetId,
    kind: 'part' as const,
    position: i + 2,
    text,
  }));
  const comment = input?.firstComment;
  if (comment !== undefined && comment.trim() !== '') {
    rows.push({
      organizationId,
      targetId,
      kind: 'first_comment' as const,
      position: parts.length + 2,
      text: comment,
    });
  }
  return rows;
}

/**
 * Sets what follows a publication that has not gone out yet (create, edit). A target already out
 * keeps its follow-ups as they are: they are history, or on their way (ADR 11).
 */
export async function replaceFollowUps(
  tx: Db,
  organizationId: string,
  targetId: string,
  input: FollowUpsInput | undefined,
) {
  await replaceFollowUpRows(tx, targetId, rowsOf(organizationId, targetId, input));
}

/** Every comment of a thread, nested replies included, flattened. */
function flatten(comments: NetworkComment[]): NetworkComment[] {
  return comments.flatMap((c) => [c, ...flatten(c.replies)]);
}

/**
 * Looks for a follow-up at the network after an unknown outcome: the account's own comment or
 * reply under the post with the same text. Null when it is not there; throws when the network
 * cannot be read (or the adapter cannot list comments).
 */
export async function findFollowUp(
  publishing: PublishingAdapter,
  account: StoredAccount,
  postId: string,
  text: string,
): Promise<PublishResult | null> {
  if (!publishing.listComments) {
    throw new PlatformError('unknown_outcome', 'This network cannot be asked for its replies.');
  }
  const want = text.trim();
  const page = await publishing.listComments(account, postId, { limit: 100 });
  const found = flatten(page.comments).find((c) => c.isOwn && c.message.trim() === want);
  return found ? { externalId: found.id, permalink: null } : null;
}

export interface FollowUpRunDeps {
  db: Db;
  queue: PublishQueue;
  log: FastifyBaseLogger;
  now: () => Date;
}

export type FollowUpsOutcome = 'DONE' | 'FAILED' | 'UNCERTAIN' | 'RETRY_LATER' | 'BUSY';

interface FollowUpTarget {
  id: string;
  externalId: string | null;
  platformName: string;
}

/**
 * Publishes a published target's waiting parts and first comment, in order, each part replying
 * to the one before. Stops at the first one that is not done: a failed or uncertain part holds
 * back those after it (they would reply to the wrong post), and a retry starts from it.
 */
export async function publishFollowUps(
  deps: FollowUpRunDeps,
  publishing: PublishingAdapter,
  withAccess: <T>(call: (account: StoredAccount) => Promise<T>) => Promise<T>,
  target: FollowUpTarget,
): Promise<FollowUpsOutcome> {
  const rows = await followUpsOf(deps.db, target.id);
  if (rows.length === 0) return 'DONE';
  const postId = target.externalId;
  const network = target.platformName;
  const partCount = rows.filter((r) => r.kind === 'part').length + 1;
  if (!postId || !publishing.followUp) {
    for (const row of rows.filter((r) => r.status === 'QUEUED')) {
      await transitionFollowUp(deps.db, row.id, ['QUEUED'], 'FAILED', {
        error: `${followUpLabel(row, partCount)} failed: ${network} publishing in Herald cannot add parts or comments.`,
      });
    }
    return 'FAILED';
  }
  const followUp = publishing.followUp.bind(publishing);
  let previous = postId;
  for (const row of rows) {
    const label = followUpLabel(row, partCount);
    if (row.status === 'PUBLISHED') {
      if (row.kind === 'part' && row.externalId) previous = row.externalId;
      continue;
    }
    if (row.status === 'FAILED') return 'FAILED';
    if (row.status === 'UNCERTAIN') return 'UNCERTAIN';
    // Another run holds it, or a stopped worker left it: the watchdog looks it up.
    if (row.status === 'PUBLISHING') return 'BUSY';
    const attemptId = randomUUID();
    const claimed = await transitionFollowUp(deps.db, row.id, ['QUEUED'], 'PUBLISHING', {
      attemptId,
      attempts: row.attempts + 1,
    });
    if (!claimed) return 'BUSY';
    const input = {
      kind: row.kind,
      postId,
      replyTo: row.kind === 'part' ? previous : postId,
      text: row.text,
    };
    let result: PublishResult;
    try {
      result = await withAccess((a) => followUp(a, input));
    } catch (err) {
      const settled = await settleError(deps, publishing, withAccess, claimed, {
        label,
        network,
        postId,
        err,
      });
      if (!settled) return 'RETRY_LATER';
      if (settled !== 'PUBLISHED') return settled;
      const [fresh] = (await followUpsOf(deps.db, target.id)).filter((r) => r.id === row.id);
      if (row.kind === 'part' && fresh?.externalId) previous = fresh.externalId;
      continue;
    }
    const done = await transitionFollowUp(
      deps.db,
      row.id,
      ['PUBLISHING'],
      'PUBLISHED',
      {
        externalId: result.externalId,
        permalink: result.permalink,
        error: null,
        publishedAt: deps.now(),
      },
      attemptId,
    );
    if (!done) return 'BUSY';
    if (row.kind === 'part') previous = result.externalId;
  }
  return 'DONE';
}

/**
 * After a follow-up's visible call threw: FAILED for a refusal; back to QUEUED (with a retry
 * scheduled, null returned) for a rate limit or an outage the network reported before acting;
 * for an unknown outcome, the network is asked first — found, PUBLISHED; not there after a call
 * this run waited out, tried again later; not answerable, UNCERTAIN.
 */
async function settleError(
  deps: FollowUpRunDeps,
  publishing: PublishingAdapter,
  withAccess: <T>(call: (account: StoredAccount) => Promise<T>) => Promise<T>,
  row: FollowUpRow,
  about: { label: string; network: string; postId: string; err: unknown },
): Promise<'PUBLISHED' | 'FAILED' | 'UNCERTAIN' | null> {
  const { db } = deps;
  const { label, network, postId, err } = about;
  const attemptId = row.attemptId ?? undefined;
  const message = err instanceof Error ? err.message : String(err);
  const kind = err instanceof PlatformError ? err.kind : 'unknown_outcome';
  const retryLater = async (ms: number) => {
    if (row.attempts >= MAX_ATTEMPTS) {
      await transitionFollowUp(
        db,
        row.id,
        ['PUBLISHING'],
        'FAILED',
        { error: `${label} failed: ${network} kept failing (${message}).` },
        attemptId,
      );
      return 'FAILED' as const;
    }
    await transitionFollowUp(db, row.id, ['PUBLISHING'], 'QUEUED', { error: message }, attemptId);
    await deps.queue.retryAt(row.targetId, new Date(deps.now().getTime() + ms));
    return null;
  };
  if (kind === 'bad_request' || kind === 'reauth') {
    const hint =
      kind === 'reauth' ? ' Reconnect the account in Settings, then retry the failed part.' : '';
    await transitionFollowUp(
      db,
      row.id,
      ['PUBLISHING'],
      'FAILED',
      { error: `${label} failed: ${message}${hint}` },
      attemptId,
    );
    return 'FAILED';
  }
  if (kind === 'rate_limited') {
    const seconds = err instanceof PlatformError ? err.details.retryAfterSeconds : undefined;
    return retryLater(seconds !== undefined ? seconds * 1000 : rateLimitBackoffMs(row.attempts));
  }
  if (kind === 'transient') return retryLater(backoffMs(row.attempts));
  // It may have gone out: look before anything else.
  try {
    const found = await withAccess((a) => findFollowUp(publishing, a, postId, row.text));
    if (found) {
      await transitionFollowUp(
        db,
        row.id,
        ['PUBLISHING'],
        'PUBLISHED',
        {
          externalId: found.externalId,
          permalink: found.permalink,
          error: null,
          publishedAt: deps.now(),
        },
        attemptId,
      );
      return 'PUBLISHED';
    }
    return retryLater(backoffMs(row.attempts));
  } catch (lookupErr) {
    deps.log.warn({ err: lookupErr, followUpId: row.id }, 'could not look up a thread part');
  }
  await transitionFollowUp(
    db,
    row.id,
    ['PUBLISHING'],
    'UNCERTAIN',
    {
      error: `${label}: Herald could not confirm whether ${network} published it (${message}). Check ${network}, then mark it as published or retry.`,
    },
    attemptId,
  );
  return 'UNCERTAIN';
}
