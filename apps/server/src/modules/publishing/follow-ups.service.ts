import type { ResolveFollowUpRequest } from '@herald/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import {
  followUpsOf,
  requeueFailedFollowUps,
  transitionFollowUp,
} from './follow-ups.repository.js';
import type { Publisher } from './publisher.js';
import { targetOfPost } from './targets.repository.js';

interface Deps {
  db: Db;
  publisher: Publisher;
  now: () => Date;
  log: FastifyBaseLogger;
}

/** The publication, checked to belong to this post of this organization. */
async function targetOf(db: Db, organizationId: string, postId: string, targetId: string) {
  const target = await targetOfPost(db, organizationId, postId, targetId);
  if (!target) throw new AppError('NOT_FOUND', 'This publication does not exist on this post.');
  return target;
}

/** Runs the target's follow-ups now; a crash is left to the watchdog, never shown as a 500. */
async function runNow(deps: Deps, targetId: string) {
  await deps.publisher.runFollowUps(targetId).catch((err: unknown) => {
    deps.log.error({ err, targetId }, 'publishing the parts of a post failed unexpectedly');
  });
}

/**
 * "Retry" in the publish panel: the failed part (and everything after it, which waited for it)
 * goes again, replying to the last part that is out; parts already out are never sent again.
 */
export async function retryFollowUps(
  deps: Deps,
  organizationId: string,
  postId: string,
  targetId: string,
) {
  const target = await targetOf(deps.db, organizationId, postId, targetId);
  if (target.status !== 'PUBLISHED') {
    throw new AppError(
      'CONFLICT',
      'The post itself is not out on this account yet; its parts and first comment follow it once it is.',
    );
  }
  const rows = await followUpsOf(deps.db, targetId);
  if (rows.some((r) => r.status === 'UNCERTAIN')) {
    throw new AppError(
      'CONFLICT',
      'Herald could not confirm whether a part went out. Check the network and say whether it was published before retrying.',
    );
  }
  const failed = rows.filter((r) => r.status === 'FAILED').map((r) => r.id);
  if (failed.length === 0 && !rows.some((r) => r.status === 'QUEUED')) {
    throw new AppError('CONFLICT', 'Nothing of this publication is waiting or failed.');
  }
  if (failed.length > 0) await requeueFailedFollowUps(deps.db, failed, deps.now());
  await runNow(deps, targetId);
}

/** After an UNCERTAIN part or first comment: it did go out (the next parts follow it), or send it again. */
export async function resolveFollowUp(
  deps: Deps,
  ids: { orgId: string; postId: string; targetId: string; followUpId: string },
  body: ResolveFollowUpRequest,
) {
  await targetOf(deps.db, ids.orgId, ids.postId, ids.targetId);
  const rows = await followUpsOf(deps.db, ids.targetId);
  const row = rows.find((r) => r.id === ids.followUpId);
  if (!row) throw new AppError('NOT_FOUND', 'This part does not exist on this publication.');
  if (row.status !== 'UNCERTAIN' && row.status !== 'FAILED') {
    throw new AppError(
      'CONFLICT',
      `This part is ${row.status.toLowerCase()}; only uncertain or failed ones can be resolved.`,
    );
  }
  if (body.outcome === 'published') {
    await transitionFollowUp(deps.db, row.id, ['UNCERTAIN', 'FAILED'], 'PUBLISHED', {
      error: null,
      publishedAt: deps.now(),
    });
  } else {
    await transitionFollowUp(deps.db, row.id, ['UNCERTAIN', 'FAILED'], 'QUEUED', {
      error: null,
      attempts: 0,
    });
  }
  await runNow(deps, ids.targetId);
}
