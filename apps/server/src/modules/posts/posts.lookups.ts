/**
 * The posts' storage that other modules work with (approvals, duplication, the CSV import): each
 * runs inside the caller's transaction, so a module that writes posts of its own keeps the
 * posts module's locks and rules. Other modules (and the app, which forgets the cached totals
 * after a change) import these from here, never the repository.
 */
export {
  connectedAccounts,
  countPostsCreatedSince,
  findPost,
  forgetPostTotals,
  insertPost,
  lockPost,
  mediaOfPost,
  reachablePost,
  targetAccountsOfPosts,
  updatePost,
} from './posts.repository.js';
export type { ConnectedAccount, NewTarget, PostRow } from './posts.repository.js';
