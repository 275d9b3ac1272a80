/**
 * X numbers Herald relies on (docs/networks.md#x). Kept here, not in code paths, because X
 * changes them; re-check against a live account before launch.
 */

/**
 * Publishing plus `offline.access`, without which X issues no refresh token (docs/networks.md#x-oauth),
 * and the inbox's (docs/inbox.md#x): reading and sending DMs, hiding replies. No `like.write`:
 * X removed liking from its self-serve API on 2026-04-20 (docs/networks.md#x-what-changed-in-2026).
 */
export const X_SCOPES = [
  'tweet.read',
  'tweet.write',
  'users.read',
  'media.write',
  'offline.access',
  'dm.read',
  'dm.write',
  'tweet.moderate.write',
] as const;

/** Fields read for the connected account (docs/networks.md#x-oauth, #account-identity). */
export const X_USER_FIELDS = [
  'id',
  'name',
  'username',
  'profile_image_url',
  'verified',
  'verified_type',
  'subscription_type',
  'public_metrics',
] as const;

/**
 * The weighted length X takes from an X Premium subscriber (docs/networks.md#x-limits): 25,000.
 * ⚠ Only third-party documentation states the number; X's own "Counting characters" page names
 * only the 280 of everyone else. Re-check against a live Premium account before launch.
 */
export const X_LONG_POST_LENGTH = 25_000;

/**
 * The `subscription_type` values (X's SDK reference: Basic | Premium | PremiumPlus | None) that
 * earn long posts. Basic is left out: no documentation Herald found says Basic subscribers may
 * post more than 280, and a limit Herald widens wrongly makes X refuse posts at publish time.
 */
export const X_LONG_POST_SUBSCRIPTIONS: readonly string[] = ['Premium', 'PremiumPlus'];

/**
 * The account's own text limit from `GET /2/users/me`: X_LONG_POST_LENGTH for Premium and
 * Premium+ subscribers, null (the network's 280) for everyone else. Without `subscription_type`
 * in the answer, the blue check mark (`verified_type: blue`, which only Premium and Premium+
 * subscribers get) stands for the subscription.
 */
export function xTextLimitOf(user: { subscription_type?: string; verified_type?: string }) {
  if (user.subscription_type !== undefined)
    return X_LONG_POST_SUBSCRIPTIONS.includes(user.subscription_type) ? X_LONG_POST_LENGTH : null;
  return user.verified_type === 'blue' ? X_LONG_POST_LENGTH : null;
}

/** Access tokens live 2 h; X answers `expires_in` and that wins. */
export const X_ACCESS_TOKEN_SECONDS = 7200;
/** Authorization codes must be exchanged within 30 s. */
export const X_AUTH_CODE_SECONDS = 30;
/** `state` may be at most 500 characters. */
export const X_STATE_MAX_LENGTH = 500;
/** `GET /2/users/me`: 75 requests per 15 min per user. */
export const X_USERS_ME_RATE = { requests: 75, windowSeconds: 900 } as const;

/**
 * Publishing pace (docs/networks.md#x-limits). `POST /2/tweets` allows 100 posts per 15 min per user (⚠ another X
 * page says 200) and 10,000 per 24 h per app; replies count too; a 429 makes the engine wait.
 * `concurrency` is how many publications one worker runs at once (read by the engine's
 * caps.ts): 32 keeps a burst of due posts from waiting on slots (bench/scheduler.mjs).
 */
export const X_PUBLISH_LIMITS = {
  postsPerWindow: 100,
  windowSeconds: 900,
  postsPerDayPerApp: 10_000,
  concurrency: 32,
} as const;

/**
 * What a post may carry: the numbers live in the contract (network-constraints.ts), where the
 * composer, the server's checks and this adapter read the same ones (docs/networks.md#composer-limits).
 */
export { X_MEDIA_CONSTRAINTS } from '@herald/contract';

/** Chunk size of media uploads (1 MB, as in X's sample and the peer; X takes up to 5 MB). */
export const X_MEDIA_CHUNK_BYTES = 1024 * 1024;

/**
 * How long `POST /2/tweets` may take before Herald stops waiting and reports an unknown
 * outcome (then reconciles rather than posting again).
 */
export const X_FINALIZE_TIMEOUT_MS = 20_000;

/**
 * Recent posts read when reconciling an unknown outcome (`GET /2/users/{id}/tweets`): X's
 * largest page. A worker runs up to 32 X publications at once, so when it dies (and the
 * watchdog reconciles what it left) as many as 31 posts may have gone out after the one looked
 * for; 20 could miss it and post it twice.
 */
export const X_RECONCILE_LOOKBACK = 100;

/** Recent search takes 10–100 results per page (docs/networks.md#x-comments). */
export const X_SEARCH_PAGE = { min: 10, max: 100 } as const;

/** Fields asked for when reading replies (docs/networks.md#x-comments). */
export const X_REPLY_TWEET_FIELDS = [
  'author_id',
  'created_at',
  'conversation_id',
  'in_reply_to_user_id',
  'referenced_tweets',
  'public_metrics',
] as const;
