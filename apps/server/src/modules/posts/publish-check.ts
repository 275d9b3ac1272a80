import {
  applyLinkTracking,
  constraintsForAccount,
  contentForAccount,
  fieldOfRule,
  mediaGoesTo,
  publishProblems,
  type PostValidationError,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import { contentOf } from './post-dto.js';
import { constraintsOf, labelTargets, throwValidation } from './post-rules.js';
import * as repo from './posts.repository.js';

/** Publications that will still be sent: not out, not on their way, not waiting on a check. */
const STILL_TO_SEND = ['QUEUED', 'FAILED'] as const;
/** Publish now on chosen accounts also sends again one whose last try is uncertain. */
const SENT_NOW = [...STILL_TO_SEND, 'UNCERTAIN'] as const;

/**
 * Every rule each network applies at publish time (`publishProblems`), for the accounts a stored
 * post has yet to go out on (docs/product.md#media-rules): its text for that account as it will
 * be sent (link tracking added), its files, its thread parts and first comment. `targetIds`
 * narrows it to some publications (Publish now on some accounts).
 */
export async function storedPostProblems(
  db: Db,
  organizationId: string,
  postId: string,
  targetIds?: readonly string[],
): Promise<PostValidationError[]> {
  const post = await repo.findPost(db, organizationId, postId);
  if (!post) return [];
  const [targets, files, followUps] = await Promise.all([
    repo.targetsToCheck(db, organizationId, postId, targetIds ? [...SENT_NOW] : [...STILL_TO_SEND]),
    repo.mediaOfPost(db, organizationId, postId),
    repo.followUpTextsOfPost(db, organizationId, postId),
  ]);
  const content = contentOf(post);
  const errors: PostValidationError[] = [];
  const labelled = labelTargets(
    targets.map((t) => ({ ...t, name: t.accountName, username: t.accountUsername })),
  );
  for (const target of labelled) {
    if (targetIds && !targetIds.includes(target.id)) continue;
    const own = followUps.filter((f) => f.targetId === target.id);
    const problems = publishProblems(
      target.platformName,
      {
        text: applyLinkTracking(
          contentForAccount(content, target),
          post.linkTracking,
          target.platformName,
        ),
        media: files
          .filter((f) => mediaGoesTo(f.platformIds, target))
          .map((f) => ({
            fileName: f.fileName,
            mimeType: f.mimeType,
            size: f.size,
            width: f.width,
            height: f.height,
            durationSec: f.durationSec,
          })),
        threadParts: own.filter((f) => f.kind === 'part').map((f) => f.text),
        firstComment: own.find((f) => f.kind === 'first_comment')?.text ?? null,
      },
      {
        constraints: constraintsForAccount(
          constraintsOf(target.mediaConstraints),
          target.textLimit,
        ),
        label: target.label,
      },
    );
    for (const p of problems) {
      errors.push({
        platformId: target.platformId,
        platformName: target.label,
        field: fieldOfRule(p.rule),
        message: p.message,
        rule: p.rule,
      });
    }
  }
  return errors;
}

/**
 * Refuses (400, each account's problems in `platformValidationErrors`) a stored post a network
 * would refuse when it goes out: run before it is scheduled, queued, approved or published now,
 * so a post never fails unattended over a rule Herald knew.
 */
export async function refuseUnpublishable(
  db: Db,
  organizationId: string,
  postId: string,
  targetIds?: readonly string[],
) {
  const errors = await storedPostProblems(db, organizationId, postId, targetIds);
  if (errors.length > 0) throwValidation(errors);
}
