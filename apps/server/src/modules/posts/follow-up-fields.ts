import {
  followUpProblems,
  type FollowUpsByAccount,
  type FollowUpsInput,
  type MediaConstraints,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { replaceFollowUps } from '../publishing/follow-ups.js';
import { targetStatuses } from './posts.repository.js';

/** One account of a post whose thread parts and first comment may be set. */
export interface FollowUpTarget {
  integrationId: string;
  /** The network's own name ("X"), which decides what it supports. */
  networkName: string;
  /** The account's label in sentences ("X", "Facebook (Harbor Cafe)"). */
  label: string;
  constraints: MediaConstraints | null;
}

/**
 * Checks `followUps` of a create or edit payload (docs/product.md#threads-and-first-comments)
 * against the accounts that can still take them: each part and first comment by the shared text
 * rules, refused with the part's number; a thread or first comment where the network has none,
 * refused with a sentence. Returns each account's input.
 */
export function settleFollowUps(
  targets: FollowUpTarget[],
  chosen: FollowUpsByAccount | undefined,
  alreadyOut: ReadonlySet<string> = new Set(),
): Map<string, FollowUpsInput> {
  const settled = new Map<string, FollowUpsInput>();
  const problems: string[] = [];
  for (const [id, input] of Object.entries(chosen ?? {})) {
    if (alreadyOut.has(id)) continue;
    const target = targets.find((t) => t.integrationId === id);
    if (!target) {
      throw new AppError(
        'VALIDATION_FAILED',
        'followUps names an account that is not one of the accounts this post goes to.',
      );
    }
    problems.push(...followUpProblems(target, input));
    settled.set(id, input);
  }
  if (problems.length > 0) throw new AppError('VALIDATION_FAILED', problems.join(' '));
  return settled;
}

/** Writes each not-yet-published account's parts and first comment (inside the post's transaction). */
export async function storeFollowUps(
  tx: Db,
  organizationId: string,
  postId: string,
  settled: Map<string, FollowUpsInput>,
  keep: (status: string) => boolean,
) {
  const targets = await targetStatuses(tx, organizationId, postId);
  for (const target of targets) {
    if (!target.integrationId || keep(target.status)) continue;
    await replaceFollowUps(tx, organizationId, target.id, settled.get(target.integrationId));
  }
}
