import { PlatformError } from './errors.js';
import type { PlatformHttp } from './types.js';

/**
 * Wraps a network's visible call (a post, a comment): a timeout, a 5xx or a lost connection
 * leaves the outcome unknown — the post may exist — so it is reported as `unknown_outcome`,
 * never as a plain transient error that invites a blind retry (docs/networks.md#adapter-contract).
 */
export function visibleCallOf(network: string) {
  return async function visibleCall<T>(
    what: string,
    timeoutMs: number,
    call: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(
          new PlatformError(
            'unknown_outcome',
            `${network} did not answer within ${Math.round(timeoutMs / 1000)} s, so ${what} may or may not have been published.`,
            { code: 'timeout' },
          ),
        );
      }, timeoutMs);
    });
    try {
      return await Promise.race([call(controller.signal), timeout]);
    } catch (err) {
      if (err instanceof PlatformError && err.kind === 'transient')
        throw new PlatformError(
          'unknown_outcome',
          `${err.message} ${network} may or may not have published ${what}.`,
          err.details,
        );
      throw err;
    } finally {
      clearTimeout(timer);
    }
  };
}

/** fetch that gives up after `ms`, whether or not the transport honours the abort signal. */
export function timeLimited(http: PlatformHttp, ms: number): PlatformHttp {
  return async (url, init = {}) => {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new Error(`no answer within ${ms} ms`));
      }, ms);
    });
    try {
      return await Promise.race([http(url, { ...init, signal: controller.signal }), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
}
