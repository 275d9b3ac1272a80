import {
  coversOrganization,
  POSTS_LIST_CAP,
  type AllClientsView,
  type Client,
} from '@herald/contract';
import type { Db } from '../../db/client.js';
import { approvalQueue } from '../approvals/approvals.service.js';
import type { InboxDeps } from '../inbox/inbox-context.js';
import { listConversations } from '../inbox/inbox.service.js';
import { withReachableTargets } from '../posts/post-dto.js';
import { listPosts, type PostsDeps } from '../posts/posts.service.js';
import { listActiveMembershipsOfUser, toMembershipContext } from '../team/membership.js';

/** The newest open conversations taken from each organization. */
export const INBOX_PER_CLIENT = 20;
/** The most conversations the view lists, newest first. */
export const INBOX_MAX = 100;

export type AllClientsDeps = PostsDeps & InboxDeps;

/**
 * The organizations a view covers for a user: their active memberships whose permissions open
 * the matching organization view (the same table the organization routes enforce), by name.
 */
export async function clientsFor(db: Db, userId: string, view: AllClientsView): Promise<Client[]> {
  return (await membershipsFor(db, userId, view)).map((m) => ({
    id: m.organizationId,
    name: m.organizationName,
  }));
}

/** The memberships behind `clientsFor`: each also says which accounts the user reaches there. */
async function membershipsFor(db: Db, userId: string, view: AllClientsView) {
  const rows = await listActiveMembershipsOfUser(db, userId);
  return rows.map(toMembershipContext).filter((m) => coversOrganization(view, m.permissions));
}

const clientOf = (m: { organizationId: string; organizationName: string }): Client => ({
  id: m.organizationId,
  name: m.organizationName,
});

export async function allClientsCalendar(
  deps: AllClientsDeps,
  userId: string,
  range: { from: Date; to: Date },
) {
  const memberships = await membershipsFor(deps.db, userId, 'calendar');
  const clients = memberships.map(clientOf);
  const truncated: string[] = [];
  const perClient = await Promise.all(
    memberships.map(async (member) => {
      const client = member.organizationId;
      const { posts, meta } = await listPosts(
        deps,
        client,
        { ...range, reachable: member.accountIds ?? undefined },
        POSTS_LIST_CAP,
      );
      if (meta.totalCount > posts.length) truncated.push(client);
      return posts.map((post) => withReachableTargets(post, member));
    }),
  );
  const posts = perClient
    .flat()
    .sort((a, b) => (a.scheduledAt ?? '').localeCompare(b.scheduledAt ?? ''));
  return { clients, posts, truncated };
}

export async function allClientsApprovals(deps: AllClientsDeps, userId: string) {
  const memberships = await membershipsFor(deps.db, userId, 'approvals');
  const clients = memberships.map(clientOf);
  const queues = await Promise.all(
    memberships.map((member) => approvalQueue(deps, member.organizationId, member)),
  );
  return {
    clients: clients.map((client, i) => ({ ...client, waiting: queues[i]!.count })),
    posts: queues
      .flatMap((queue) => queue.posts)
      .sort((a, b) => (a.scheduledAt ?? '').localeCompare(b.scheduledAt ?? '')),
  };
}

export async function allClientsInbox(deps: AllClientsDeps, userId: string) {
  const memberships = await membershipsFor(deps.db, userId, 'inbox');
  const clients = memberships.map(clientOf);
  const pages = await Promise.all(
    memberships.map((member) =>
      listConversations(
        deps,
        member.organizationId,
        userId,
        { tab: 'all', status: 'open', labels: [], limit: INBOX_PER_CLIENT },
        member,
      ),
    ),
  );
  const conversations = pages
    .flatMap((page, i) =>
      page.conversations.map((conversation) => ({
        organizationId: clients[i]!.id,
        conversation,
      })),
    )
    .sort((a, b) => b.conversation.lastMessageAt.localeCompare(a.conversation.lastMessageAt))
    .slice(0, INBOX_MAX);
  return { clients, conversations };
}
