import { afterAll, beforeAll, expect } from 'vitest';
import { PlatformError } from '../platforms/errors.js';

/**
 * The preamble of a network's test file: starts a harness (sandbox-harness.ts or
 * graph-harness.ts) before the file's tests and closes it after. Returns a stand-in that reads
 * the live harness, so the tests use it like the harness itself.
 */
export function useHarness<H extends { close(): Promise<void> }>(start: () => Promise<H>): H {
  let harness: H | undefined;
  beforeAll(async () => {
    harness = await start();
  });
  afterAll(async () => {
    await harness?.close();
  });
  return new Proxy({} as H, {
    get(_target, key) {
      if (!harness) throw new Error('The harness starts in beforeAll: use it inside a test.');
      return Reflect.get(harness, key);
    },
  });
}

/** Awaits a call that must fail and returns its PlatformError (failing the test otherwise). */
export async function expectPlatformError(promise: Promise<unknown>): Promise<PlatformError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PlatformError);
  return err as PlatformError;
}
