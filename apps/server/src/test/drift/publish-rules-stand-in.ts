/*
 * TEMPORARY: a stand-in for `publishProblems` of @herald/contract (packages/contract/src/publish-rules.ts),
 * which does not exist yet. Same signature; it wraps today's validatePostTargets with each
 * network's constraints, and today's follow-up rules. Delete this file and import the real one
 * when it lands.
 */
import {
  countText,
  firstCommentLimitOf,
  MAX_THREAD_PARTS,
  type MediaConstraints,
  type MediaFacts,
  validatePostTargets,
} from '@herald/contract';
import { FACEBOOK_MEDIA_CONSTRAINTS } from '../../platforms/facebook/limits.js';
import { INSTAGRAM_MEDIA_CONSTRAINTS } from '../../platforms/instagram/limits.js';
import { LINKEDIN_MEDIA_CONSTRAINTS } from '../../platforms/linkedin/limits.js';
import { THREADS_MEDIA_CONSTRAINTS } from '../../platforms/threads/limits.js';
import { TIKTOK_MEDIA_CONSTRAINTS } from '../../platforms/tiktok/limits.js';
import { X_MEDIA_CONSTRAINTS } from '../../platforms/x/limits.js';

export interface PostShape {
  text: string;
  media: MediaFacts[];
  threadParts: string[];
  firstComment: string | null;
}
export interface RuleProblem {
  rule: string;
  message: string;
}

const CONSTRAINTS: Record<string, MediaConstraints> = {
  X: X_MEDIA_CONSTRAINTS,
  Instagram: INSTAGRAM_MEDIA_CONSTRAINTS,
  Facebook: FACEBOOK_MEDIA_CONSTRAINTS,
  Threads: THREADS_MEDIA_CONSTRAINTS,
  TikTok: TIKTOK_MEDIA_CONSTRAINTS,
  LinkedIn: LINKEDIN_MEDIA_CONSTRAINTS,
};

export function publishProblems(
  network: string,
  shape: PostShape,
  account?: { textLimit?: number | null },
): RuleProblem[] {
  const base = CONSTRAINTS[network]!;
  const constraints =
    account?.textLimit && base.text
      ? { ...base, text: { ...base.text, maxLength: account.textLimit } }
      : base;
  const target = { platformId: network, platformName: network, constraints };
  const problems: RuleProblem[] = validatePostTargets([
    { ...target, text: shape.text, media: shape.media },
  ]).map((e) => ({ rule: e.field, message: e.message }));
  if (shape.threadParts.length + 1 > MAX_THREAD_PARTS)
    problems.push({ rule: 'thread', message: 'Too many parts.' });
  for (const part of shape.threadParts)
    for (const e of validatePostTargets([{ ...target, text: part, media: [] }]))
      if (e.field === 'content') problems.push({ rule: 'thread', message: e.message });
  const commentLimit = firstCommentLimitOf(network, constraints);
  if (shape.firstComment !== null && commentLimit) {
    const used = countText(shape.firstComment, commentLimit.counting);
    if (used > commentLimit.max)
      problems.push({ rule: 'first-comment', message: `${used} of ${commentLimit.max}` });
  }
  return problems;
}
