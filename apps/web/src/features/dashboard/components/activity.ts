import type { Integration } from '@herald/contract';
import type { Dashboard } from '../api/dashboard';

type DashboardPost = Dashboard['posts'][number];

export interface ActivityItem {
  id: string;
  kind: 'post' | 'integration';
  text: string;
  at: string;
}

/** docs/product.md#constants: the 2 most recently created posts and 2 most recent integrations… */
const PER_SOURCE = 2;
/** …and of those, the 4 newest. */
export const ACTIVITY_LIMIT = 4;

const newestFirst = <T>(items: readonly T[], at: (item: T) => string) =>
  [...items].sort((a, b) => Date.parse(at(b)) - Date.parse(at(a)));

function excerpt(content: string | null): string {
  const text = content?.replace(/\s+/g, ' ').trim();
  if (!text) return '';
  return `: "${text.length > 60 ? `${text.slice(0, 57)}…` : text}"`;
}

const POST_VERBS: Record<string, string> = {
  published: 'Published a post',
  posted: 'Published a post',
  scheduled: 'Scheduled a post',
  publishing: 'Publishing a post',
  partially_published: 'Published a post to some of its networks',
  failed: 'A post failed to publish',
  draft: 'Drafted a post',
};

export function postActivity(post: DashboardPost): ActivityItem {
  const verb = POST_VERBS[post.status.toLowerCase()] ?? 'Created a post';
  return {
    id: `post-${post.id}`,
    kind: 'post',
    text: `${verb}${excerpt(post.content)}`,
    at: post.createdAt,
  };
}

export function integrationActivity(integration: Integration): ActivityItem {
  const { username, name } = integration.metadata;
  const who = username ? `@${username.replace(/^@/, '')}` : name || integration.platformAccountId;
  return {
    id: `integration-${integration.id}`,
    kind: 'integration',
    text: `Connected ${integration.platform.name} account ${who}`,
    at: integration.connectedAt,
  };
}

/** The Recent Activity list, newest first. */
export function recentActivity(
  posts: readonly DashboardPost[],
  integrations: readonly Integration[],
): ActivityItem[] {
  const items = [
    ...newestFirst(posts, (p) => p.createdAt)
      .slice(0, PER_SOURCE)
      .map(postActivity),
    ...newestFirst(integrations, (i) => i.connectedAt)
      .slice(0, PER_SOURCE)
      .map(integrationActivity),
  ];
  return newestFirst(items, (item) => item.at).slice(0, ACTIVITY_LIMIT);
}
