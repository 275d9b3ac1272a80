import { reachesAccount } from '../team/account-access.js';
import type { PostStatus } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { csvLine } from '../../lib/csv.js';
import * as repo from './post-import.repository.js';

const PAGE = 500;

export const EXPORT_HEADER = [
  'post_id',
  'status',
  'title',
  'date',
  'scheduled_at',
  'published_at',
  'created_at',
  'text',
  'accounts',
  'networks',
  'account_statuses',
  'permalinks',
];

/**
 * The posts of [from, to) as CSV lines (docs/queue-and-import.md#csv-export), a page at a time
 * so memory stays flat however many there are. A post's date is when it went out, else when it
 * is scheduled, else when it was created (as on the calendar). One line per post; the accounts,
 * their networks, statuses and permalinks are listed in the same order, separated by "; ".
 */
export async function* exportPostsCsv(
  db: Db,
  organizationId: string,
  query: { from: string; to: string; status?: PostStatus[] },
  member: { accountIds: string[] | null } = { accountIds: null },
): AsyncGenerator<string> {
  yield csvLine(EXPORT_HEADER);
  let after: { date: Date; id: string } | null = null;
  for (;;) {
    const page = await repo.exportPage(db, organizationId, query, after, PAGE, member.accountIds);
    if (page.length === 0) return;
    const targets = await repo.targetsOfPosts(
      db,
      organizationId,
      page.map((p) => p.id),
    );
    const lines: string[] = [];
    for (const post of page) {
      // A member limited to some accounts gets those accounts' lines only.
      const own = targets.filter(
        (t) => t.postId === post.id && reachesAccount(member, t.integrationId),
      );
      lines.push(
        csvLine([
          post.id,
          post.status,
          post.title,
          post.date.toISOString(),
          post.scheduledAt?.toISOString(),
          post.publishedAt?.toISOString(),
          post.createdAt.toISOString(),
          post.content,
          own
            .map((t) => (t.accountUsername ? `@${t.accountUsername}` : (t.accountName ?? '')))
            .join('; '),
          own.map((t) => t.network).join('; '),
          own.map((t) => t.status).join('; '),
          own.map((t) => t.permalink ?? '').join('; '),
        ]),
      );
    }
    yield lines.join('');
    const last = page[page.length - 1]!;
    after = { date: last.date, id: last.id };
    if (page.length < PAGE) return;
  }
}
