import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { PlatformError } from '../platforms/errors.js';
import { type Actor, signIn } from './factories.js';

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

/** One signed-in developer per app, for the emulators' control routes. */
const developers = new WeakMap<FastifyInstance, Promise<Actor>>();

/**
 * Calls an emulator's control route (`/api/sandbox/{slug}/_emu/{path}`) inside the app, as a
 * signed-in user: the app refuses anonymous callers there.
 */
export async function emuInject(
  app: FastifyInstance,
  slug: string,
  method: 'GET' | 'POST',
  path: string,
  payload?: object,
): Promise<LightMyRequestResponse> {
  let developer = developers.get(app);
  if (!developer) developers.set(app, (developer = signIn(app, 'emulator.developer@sandbox.test')));
  return app.inject({
    method,
    url: `/api/sandbox/${slug}/_emu/${path}`,
    headers: { cookie: (await developer).jar.header() },
    ...(payload !== undefined ? { payload } : {}),
  });
}
