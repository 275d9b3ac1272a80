import {
  youtubeUploadsAhead,
  type PublishNowResponse,
  type ResolveTargetRequest,
} from '@herald/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { PostLifecycle } from '../posts/posts.service.js';
import type { PublishQueue } from './publish-queue.js';
import type { Publisher } from './publisher.js';
import * as repo from './targets.repository.js';
import { resolvePostFailures } from '../notifications/notifications.service.js';
import { refuseUnpublishable } from '../posts/publish-check.js';
import { emitWebhookEvent } from '../outgoing-webhooks/outgoing-webhooks.events.js';

/** Jobs follow the post: scheduling creates or moves them, draft and delete cancel them. */
export function publishingLifecycle(
  queue: PublishQueue,
  now: () => Date = () => new Date(),
): PostLifecycle {
  return {
    async scheduled(tx, post) {
      if (!post.scheduledAt) return;
      const at = post.scheduledAt;
      const targets = await repo.requeueForPost(tx, post.id, at);
      const ahead = await repo.aheadTargetsOfPost(tx, post.id);
      const startNow = now();
      // A video YouTube publishes at the post's time is uploaded now (docs/networks.md#youtube-publishing).
      const early = new Set(
        at > startNow
          ? ahead
              .filter((t) => t.status === 'QUEUED' && youtubeUploadsAhead(t.settings))
              .map((t) => t.id)
          : [],
      );
      for (const target of targets) {
        const dueAt = early.has(target.id) ? startNow : at;
        if (early.has(target.id)) await repo.setDue(tx, target.id, dueAt);
        const jobId = await queue.schedule(tx, target.id, dueAt);
        if (jobId) await repo.setJobId(tx, target.id, jobId);
      }
      // Uploaded already: its run now moves the time at the network, or replaces what changed.
      for (const target of ahead.filter((t) => t.status === 'UPLOADED')) {
        await repo.setDue(tx, target.id, at);
        const jobId = await queue.schedule(tx, target.id, startNow);
        if (jobId) await repo.setJobId(tx, target.id, jobId);
      }
      // What already went out stays out: the post reads partially published, not scheduled.
      await repo.settleIfPartlyOut(tx, post.id, now());
      // Scheduled again (after an edit, or a retry of what failed): the failure was dealt with.
      await resolvePostFailures(tx, post.organizationId, post.id, now());
      await emitWebhookEvent(
        tx,
        post.organizationId,
        'post.scheduled',
        { postId: post.id, scheduledAt: post.scheduledAt.toISOString() },
        now(),
      );
    },
    async changed(tx, post) {
      for (const target of await repo.uploadedTargetsOf(tx, post.organizationId, [post.id])) {
        const jobId = await queue.schedule(tx, target.id, now());
        if (jobId) await repo.setJobId(tx, target.id, jobId);
      }
    },
    async unscheduled(tx, post) {
      await queue.cancel(tx, await repo.clearDue(tx, post.id));
      // Uploaded ahead: its run takes the video back from the network, as the post no longer
      // goes out then (a deleted post's were taken back before: withdrawUploaded).
      for (const target of await repo.uploadedTargetsOf(tx, post.organizationId, [post.id])) {
        const jobId = await queue.schedule(tx, target.id, now());
        if (jobId) await repo.setJobId(tx, target.id, jobId);
      }
    },
  };
}

/** Longest "Publish now" waits before answering; what is still working shows as pending. */
const PUBLISH_NOW_BUDGET_MS = 90_000;

async function postTargetsByName(db: Db, organizationId: string, postId: string) {
  const post = await repo.postOfOrganization(db, organizationId, postId);
  if (!post) throw new AppError('NOT_FOUND', 'This post does not exist in this organization.');
  const rows = await repo.targetsWithNetwork(db, postId);
  // A network's name alone, or "Facebook (Page name)" where the post goes to several of its accounts.
  const targets = rows.map((row) => {
    const shared = rows.filter((o) => o.target.platformId === row.target.platformId).length > 1;
    const account =
      row.target.accountName ??
      (row.target.accountUsername ? `@${row.target.accountUsername}` : null);
    return { ...row, name: shared && account ? `${row.network} (${account})` : row.network };
  });
  return { post, targets };
}

/**
 * docs/product.md#api-calls "publish": runs the engine now for the named networks and answers per network. The
 * same guarded steps as the scheduled path run, so a click racing the scheduled job cannot
 * publish twice.
 */
export async function publishNow(
  deps: {
    db: Db;
    publisher: Publisher;
    queue: PublishQueue;
    now: () => Date;
    log: FastifyBaseLogger;
  },
  organizationId: string,
  postId: string,
  names: string[],
): Promise<PublishNowResponse> {
  const { post, targets } = await postTargetsByName(deps.db, organizationId, postId);
  // A network's name picks every account of it the post goes to; an account id just that one.
  const matches = (name: string) => {
    const key = name.toLowerCase();
    return targets.filter(
      (t) =>
        t.network.toLowerCase() === key ||
        t.name.toLowerCase() === key ||
        t.target.integrationId === name,
    );
  };
  const unknown = names.filter((name) => matches(name).length === 0);
  if (unknown.length > 0) {
    throw new AppError(
      'VALIDATION_FAILED',
      `This post does not go to ${unknown.join(', ')}. Choose among: ${targets.map((t) => t.name).join(', ')}.`,
    );
  }
  const chosen = [...new Map(names.flatMap(matches).map((t) => [t.target.id, t])).values()];
  // Refused before anything is sent, with each account's reasons, rather than failing at the network.
  await refuseUnpublishable(
    deps.db,
    organizationId,
    postId,
    chosen.map(({ target }) => target.id),
  );
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    for (const { target } of chosen) {
      // Out now: YouTube is no longer asked to publish it at the post's later time.
      if (youtubeUploadsAhead(target.settings) && target.status !== 'PUBLISHED')
        await repo.setTargetSettings(tx, target.id, {
          ...target.settings,
          scheduleOnYouTube: false,
        });
      if (target.status === 'FAILED' || target.status === 'UNCERTAIN') {
        await repo.transition(tx, target.id, [target.status], 'QUEUED', {
          error: null,
          attempts: 0,
          dueAt: now,
        });
      } else if (['QUEUED', 'READY', 'UPLOADED'].includes(target.status)) {
        await repo.setDue(tx, target.id, now);
      }
    }
    if (post.status !== 'published') await repo.setPostPublishing(tx, post.id, now);
  });

  const runs = Promise.all(
    chosen.map(({ target }) =>
      // A crash mid-run leaves the target to the watchdog; the answer reports it as pending.
      deps.publisher.run(target.id).catch((err: unknown) => {
        deps.log.error({ err, targetId: target.id }, 'publish now failed unexpectedly');
        return 'BUSY' as const;
      }),
    ),
  );
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    runs,
    new Promise((resolve) => {
      timer = setTimeout(resolve, PUBLISH_NOW_BUDGET_MS);
    }),
  ]);
  clearTimeout(timer);
  // Every path ends with the post's status derived from its targets (also when nothing ran:
  // a network chosen again after it was already out).
  await repo.settlePostStatus(deps.db, postId, deps.now());

  const after = await postTargetsByName(deps.db, organizationId, postId);
  const results: PublishNowResponse['results'] = {};
  for (const { name, target: before } of chosen) {
    const { target } = after.targets.find((t) => t.target.id === before.id)!;
    results[name] =
      target.status === 'PUBLISHED'
        ? { status: 'success', error: null }
        : target.status === 'FAILED' || target.status === 'UNCERTAIN'
          ? { status: 'failed', error: target.error ?? 'Publishing failed' }
          : { status: 'pending', error: null };
  }
  const entries = Object.entries(results);
  const succeeded = entries.filter(([, r]) => r.status === 'success').map(([n]) => n);
  const failed = entries.filter(([, r]) => r.status === 'failed').map(([n]) => n);
  const pending = entries.filter(([, r]) => r.status === 'pending').map(([n]) => n);
  const parts = [
    succeeded.length ? `Published to: ${succeeded.join(', ')}.` : '',
    failed.length ? `Failed for: ${failed.join(', ')}. Check details.` : '',
    pending.length ? `Still publishing to: ${pending.join(', ')}.` : '',
  ].filter(Boolean);
  const status =
    succeeded.length === entries.length
      ? 'success'
      : succeeded.length > 0
        ? 'partial_success'
        : 'failed';
  return {
    status,
    results,
    message:
      succeeded.length === 0 && pending.length === 0
        ? 'Failed to publish to any platform.'
        : parts.join(' '),
  };
}

/** The user's answer to an UNCERTAIN publication: it did go out, or try again. */
export async function resolveTarget(
  deps: { db: Db; queue: PublishQueue; now: () => Date },
  organizationId: string,
  postId: string,
  targetId: string,
  body: ResolveTargetRequest,
) {
  const { targets } = await postTargetsByName(deps.db, organizationId, postId);
  const found = targets.find((t) => t.target.id === targetId);
  if (!found) throw new AppError('NOT_FOUND', 'This publication does not exist on this post.');
  if (found.target.status !== 'UNCERTAIN' && found.target.status !== 'FAILED') {
    throw new AppError(
      'CONFLICT',
      `This publication is ${found.target.status.toLowerCase()}; only uncertain or failed ones can be resolved.`,
    );
  }
  const now = deps.now();
  if (body.outcome === 'published') {
    await repo.transition(deps.db, targetId, ['UNCERTAIN', 'FAILED'], 'PUBLISHED', {
      error: null,
      publishedAt: now,
      permalink: body.permalink ?? found.target.permalink,
    });
  } else {
    await deps.db.transaction(async (tx) => {
      await repo.transition(tx, targetId, ['UNCERTAIN', 'FAILED'], 'QUEUED', {
        error: null,
        attempts: 0,
        dueAt: now,
      });
      await repo.setPostPublishing(tx, postId, now);
      await deps.queue.schedule(tx, targetId, now);
    });
  }
  const settled = await repo.settlePostStatus(deps.db, postId, deps.now());
  // Marked as published with nothing else failed: the post's failure notices are dealt with (a
  // retry's own outcome says how it went).
  if (body.outcome === 'published' && settled?.status === 'published')
    await resolvePostFailures(deps.db, organizationId, postId, deps.now());
}
