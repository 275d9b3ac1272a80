import type { Post } from '@herald/contract';

/** One account as people know it: its name, else its @handle, else its network. */
export function accountName(account: Post['accounts'][number]): string {
  return account.name ?? (account.username ? `@${account.username}` : account.platformName);
}

/** "Harbor Cafe (Facebook), @harbor_x (X)": which accounts a post goes out from. */
export function accountsLine(post: Pick<Post, 'accounts'>): string {
  return (post.accounts ?? [])
    .map((account) => `${accountName(account)} (${account.platformName})`)
    .join(', ');
}
