import type { PlatformName } from '@herald/contract';
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../sandbox/context.js';
import type { AdapterSettings, PlatformAdapter } from './types.js';

/**
 * Everything Herald knows about one network, exported as `network` from
 * `src/platforms/<slug>/index.ts`: its real URLs, the same URLs on the local sandbox, the
 * adapter, and the sandbox's routes.
 */
export interface NetworkModule<Urls = Record<string, string>> {
  name: PlatformName;
  /** lowercase name: /auth/{slug}, /{slug}/disconnect/{orgId}, /sandbox/{slug}. */
  slug: string;
  productionUrls: Urls;
  /** The same URL set pointing at the emulator mounted at `base` ({api}/sandbox/{slug}). */
  sandboxUrls(base: string): Urls;
  createAdapter(settings: AdapterSettings<Urls>): PlatformAdapter;
  /** Registers the emulator's routes, relative to its mount path. */
  registerSandbox(scope: FastifyInstance, ctx: SandboxContext): Promise<void> | void;
}
