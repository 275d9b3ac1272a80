import { defaultContent } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { lockPosts, type PostRow } from './posts.repository.js';

/*
 * What every bulk action shares (docs/product.md#bulk-actions): the chosen posts locked in one
 * transaction, 404 when one is not the organization's, and one 409 naming every post that
 * cannot take the action. The action itself is the one-post code, run on each locked row.
 */

/** How a post is named in a sentence: its title, else the start of its text. */
export function postLabel(post: Pick<PostRow, 'title' | 'content'>): string {
  const words = (post.title?.trim() || defaultContent(post.content).trim()).replace(/\s+/g, ' ');
  if (!words) return 'an untitled post';
  return `'${words.length > 40 ? `${words.slice(0, 39)}…` : words}'`;
}

/** "'A', 'B' and 3 more": at most five posts named. */
export function listLabels(rows: readonly PostRow[]): string {
  const shown = rows.slice(0, 5).map(postLabel);
  const more = rows.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

/**
 * Locks the organization's posts among `postIds` (each once) and answers them in the order they
 * were asked for; 404 naming how many are missing when one is not a post of this organization.
 */
export async function lockChosenPosts(
  tx: Db,
  organizationId: string,
  postIds: readonly string[],
): Promise<PostRow[]> {
  const ids = [...new Set(postIds)];
  const rows = await lockPosts(tx, organizationId, ids);
  const missing = ids.length - rows.length;
  if (missing > 0) {
    const found = new Set(rows.map((row) => row.id));
    throw new AppError(
      'NOT_FOUND',
      missing === 1
        ? 'One of the chosen posts does not exist in this organization (it may have been deleted). Reload the list and try again.'
        : `${missing} of the chosen posts do not exist in this organization (they may have been deleted). Reload the list and try again.`,
      { postIds: ids.filter((id) => !found.has(id)) },
    );
  }
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)!);
}

/** Posts refused for one reason: `says(labels, one)` ends the sentence after their names. */
export interface Refused {
  rows: PostRow[];
  /** "is already published and cannot be rescheduled" (one) or the plural, after the names. */
  says: (one: boolean) => string;
}

/**
 * One 409 for every post that cannot take the action, a sentence per reason, or null when all
 * can. `details.postIds` lists them, so a screen can point at them.
 */
export function bulkRefusal(
  refused: readonly Refused[],
  extra: Record<string, unknown> = {},
): AppError | null {
  const groups = refused.filter((group) => group.rows.length > 0);
  if (groups.length === 0) return null;
  const sentences = groups.map(
    (group) => `${listLabels(group.rows)} ${group.says(group.rows.length === 1)}.`,
  );
  sentences.push('Nothing was changed: unselect them and try again.');
  return new AppError('CONFLICT', sentences.join(' '), {
    ...extra,
    postIds: groups.flatMap((group) => group.rows.map((row) => row.id)),
  });
}

/** The rows whose status is one of `statuses`. */
export const withStatus = (rows: readonly PostRow[], ...statuses: PostRow['status'][]) =>
  rows.filter((row) => statuses.includes(row.status));

/**
 * Runs the one-post action on each row; a refusal of the one-post code (a rule a network
 * applies, no free slot) names the post it is about, and nothing of the request is kept.
 */
export async function eachPost<T>(
  rows: readonly PostRow[],
  act: (row: PostRow) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  for (const row of rows) {
    try {
      results.push(await act(row));
    } catch (error) {
      if (!(error instanceof AppError) || rows.length === 1) throw error;
      const details =
        typeof error.details === 'object' && error.details !== null ? error.details : {};
      throw new AppError(
        error.code,
        `${postLabel(row)}: ${error.message} Nothing was changed: fix or unselect it and try again.`,
        { ...details, postIds: [row.id] },
      );
    }
  }
  return results;
}

/** A post as a bulk action answers it. */
export const changedPost = (row: PostRow) => ({
  id: row.id,
  status: row.status,
  scheduledAt: row.scheduledAt?.toISOString() ?? null,
});
