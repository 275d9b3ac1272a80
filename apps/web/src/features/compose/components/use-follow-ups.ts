import {
  followUpProblems,
  supportsFirstComment,
  supportsThread,
  type FollowUpsByAccount,
  type Post,
} from '@herald/contract';
import { useState } from 'react';
import type { ComposePlatform } from '../utils/compose-platforms';

/** One account's further parts (part 2 onward) and first comment, as typed. */
export interface AccountFollowUps {
  parts: string[];
  firstComment: string;
}

export const emptyFollowUps = (): AccountFollowUps => ({ parts: [], firstComment: '' });

/** Whether the composer offers parts or a first comment for this account's network. */
export const takesFollowUps = (p: ComposePlatform) =>
  supportsThread(p.name) || supportsFirstComment(p.name);

/** What a stored post had, per account: its parts in order and its first comment. */
function fromPost(post: Post | undefined): Record<string, AccountFollowUps> {
  const out: Record<string, AccountFollowUps> = {};
  for (const target of post?.platformPosts ?? []) {
    if (!target.integrationId || !target.followUps?.length) continue;
    out[target.integrationId] = {
      parts: target.followUps.filter((f) => f.kind === 'part').map((f) => f.text),
      firstComment: target.followUps.find((f) => f.kind === 'first_comment')?.text ?? '',
    };
  }
  return out;
}

/** The sentences that keep an account's parts and first comment from being sent (empty: none). */
export function followUpIssues(platform: ComposePlatform, value: AccountFollowUps | undefined) {
  if (!value) return [];
  return followUpProblems(
    { networkName: platform.name, label: platform.label, constraints: platform.constraints },
    { parts: value.parts, firstComment: value.firstComment },
  );
}

/**
 * The composer's thread parts and first comments per account: started from the post when
 * editing (so Save Changes keeps them), kept while the form is open.
 */
export function useFollowUps(editable: readonly ComposePlatform[], post: Post | undefined) {
  const [values, setValues] = useState<Record<string, AccountFollowUps>>(() => fromPost(post));
  const offered = editable.filter(takesFollowUps);
  return {
    values,
    offered,
    change: (integrationId: string, next: AccountFollowUps) =>
      setValues((all) => ({ ...all, [integrationId]: next })),
    /** Every selected account's problems, by account id. */
    issues: () =>
      Object.fromEntries(
        offered.flatMap((p) => {
          const found = followUpIssues(p, values[p.id]);
          return found.length ? [[p.id, found]] : [];
        }),
      ) as Record<string, string[]>,
    /** What is sent: the selected accounts' parts (where the network has threads) and comments. */
    forDraft: (): FollowUpsByAccount =>
      Object.fromEntries(
        offered.flatMap((p) => {
          const value = values[p.id];
          if (!value) return [];
          const parts = supportsThread(p.name) ? value.parts : [];
          const firstComment = supportsFirstComment(p.name) ? value.firstComment.trim() : '';
          if (parts.length === 0 && !firstComment) return [];
          return [
            [
              p.id,
              {
                ...(parts.length ? { parts } : {}),
                ...(firstComment ? { firstComment: value.firstComment } : {}),
              },
            ],
          ];
        }),
      ),
  };
}
