/**
 * Timing Herald uses with every Meta Graph host (docs/networks.md#adapter-contract, #sandbox-rules, rule 4). Tests
 * pass smaller values through `MetaPublishingOptions`.
 */
export interface MetaTiming {
  /** Any call but the visible one: past this it fails as transient, safe to repeat. */
  requestTimeoutMs: number;
  /**
   * The visible call (`media_publish`, `/feed`, `/photos`, `/videos`). Instagram and Facebook
   * fetch photos by URL inside the call, so it gets longer; past this the outcome is unknown.
   */
  finalizeTimeoutMs: number;
  /**
   * The slowest upload Herald waits out, in bytes a second: a Resumable Upload request gets
   * `requestTimeoutMs` plus the time its bytes take at this pace. Past it the upload counts as
   * interrupted and goes on from the offset Meta reports.
   */
  uploadMinBytesPerSecond: number;
  /** First wait between Instagram container checks: images are quick, videos take minutes. */
  imagePollMs: number;
  videoPollMs: number;
  /** Waits double with each check up to this. */
  maxPollMs: number;
  /**
   * Reconciling looks for the post among those published since the attempt began, less this
   * margin for clocks that disagree.
   */
  reconcileSlackMs: number;
}

export const META_TIMING: MetaTiming = {
  requestTimeoutMs: 30_000,
  finalizeTimeoutMs: 120_000,
  uploadMinBytesPerSecond: 256 * 1024,
  imagePollMs: 1_000,
  videoPollMs: 5_000,
  maxPollMs: 60_000,
  reconcileSlackMs: 10 * 60_000,
};

/** Adapter options beyond the settings: timing overrides, mostly for tests. */
export type MetaPublishingOptions = Partial<MetaTiming>;

/** Posts read back when reconciling an unknown outcome (docs/networks.md#instagram-idempotency, #facebook-idempotency). */
export const META_RECONCILE_LOOKBACK = 25;

/** Comments asked for per page of a thread. */
export const META_COMMENTS_PAGE_MAX = 50;
