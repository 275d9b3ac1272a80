/**
 * The idempotency keys' storage, for the HTTP layer that replays answers and for the sessions
 * sweep. The module is storage only, so its surface is the repository's own operations.
 */
export {
  claimKey,
  type Claim,
  purgeExpiredKeys,
  recordAnswer,
  releaseKey,
} from './idempotency.repository.js';
