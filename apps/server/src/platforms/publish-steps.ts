import type {
  PublishingAdapter,
  PublishRequest,
  PublishResult,
  PublishState,
  StoredAccount,
} from './types.js';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs the three phases in one go: prepare, check until ready, finalize. The engine persists
 * the state between phases instead; this is for adapter tests and tools.
 */
export async function publishInOneGo(
  adapter: PublishingAdapter,
  account: StoredAccount,
  request: PublishRequest,
  options: { maxChecks?: number; maxWaitMs?: number } = {},
): Promise<PublishResult & { state: PublishState; checks: number }> {
  let state = await adapter.prepare(account, request);
  let checks = 0;
  for (;;) {
    const result = await adapter.check(account, state, request);
    checks += 1;
    if (result.state) state = { ...state, ...result.state };
    if (result.status === 'ready') break;
    if (checks >= (options.maxChecks ?? 100)) throw new Error('media still processing');
    await wait(Math.min(result.retryAfterMs, options.maxWaitMs ?? 50));
  }
  const published = await adapter.finalize(account, request, state);
  return { ...published, state, checks };
}
