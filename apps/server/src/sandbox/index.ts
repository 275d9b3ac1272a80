import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client.js';
import type { SandboxContext } from './context.js';
import { registerFacebookSandbox } from './facebook/index.js';
import { registerInstagramSandbox } from './instagram/index.js';
import { registerLinkedInSandbox } from './linkedin/index.js';
import { createSandboxStore } from './store.js';
import { registerThreadsSandbox } from './threads/index.js';
import { registerTikTokSandbox } from './tiktok/index.js';
import { registerXSandbox } from './x/index.js';

/** Registers one emulator's routes, relative to its mount path. */
export type RegisterSandbox = (scope: FastifyInstance, ctx: SandboxContext) => Promise<void> | void;

/** Each network's emulator by slug (the slugs of `platforms/catalog.ts`). */
export const SANDBOXES: Readonly<Record<string, RegisterSandbox>> = {
  x: registerXSandbox,
  facebook: registerFacebookSandbox,
  instagram: registerInstagramSandbox,
  linkedin: registerLinkedInSandbox,
  threads: registerThreadsSandbox,
  tiktok: registerTikTokSandbox,
};

export interface MountSandboxOptions {
  db: Db;
  /** Where the API is mounted (`/api`): emulators go under `{apiBasePath}/sandbox/{slug}`. */
  apiBasePath: string;
  /** The public base URL of a network's emulator ({api}/sandbox/{slug}). */
  publicBase(slug: string): string;
  clientId: string;
  clientSecret: string;
  /** Networks whose app is not audited yet (config `unauditedNetworks`). */
  unauditedNetworks?: readonly string[];
  /** See SandboxContext.runsLocally; false unless said. */
  runsLocally?: boolean;
  /** See SandboxContext.deliver; the global fetch unless said. */
  deliver?: SandboxContext['deliver'];
}

/**
 * Mounts the emulators of `slugs` under {api}/sandbox/{slug}. Their routes are the networks'
 * own public endpoints (the access check exempts the prefix).
 */
export async function mountSandboxes(
  app: FastifyInstance,
  slugs: Iterable<string>,
  opts: MountSandboxOptions,
) {
  for (const slug of slugs) {
    const register = SANDBOXES[slug];
    if (!register) throw new Error(`No sandbox for the network '${slug}'.`);
    const mountPath = `${opts.apiBasePath}/sandbox/${slug}`;
    const ctx: SandboxContext = {
      publicBase: opts.publicBase(slug),
      mountPath,
      clientId: opts.clientId,
      clientSecret: opts.clientSecret,
      unaudited: opts.unauditedNetworks?.includes(slug) ?? false,
      store: createSandboxStore(opts.db, slug),
      runsLocally: opts.runsLocally ?? false,
      deliver: opts.deliver ?? ((url, init) => fetch(url, init)),
    };
    await app.register(
      async (scope) => {
        // Networks take form posts for OAuth; JSON stays parsed by the app's parser.
        scope.addContentTypeParser(
          'application/x-www-form-urlencoded',
          { parseAs: 'string' },
          (_req, body, done) => {
            done(null, Object.fromEntries(new URLSearchParams(body as string)));
          },
        );
        await register(scope, ctx);
      },
      { prefix: mountPath },
    );
  }
}
