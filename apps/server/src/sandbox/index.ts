import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client.js';
import type { SandboxContext } from './context.js';
import { SANDBOXES } from './catalog.js';
import {
  heraldClientDocumentsOnly,
  heraldMediaOnly,
  receiversOnly,
} from './kit/herald-receiver.js';
import { type ResolveSigner, type ResolveTenant, scopeEmuRoutes } from './kit/tenant.js';
import { createSandboxStore } from './store.js';

export { SANDBOXES };

export interface MountSandboxOptions {
  db: Db;
  /** Where the API is mounted (`/api`): emulators go under `{apiBasePath}/sandbox/{slug}`. */
  apiBasePath: string;
  /** The public base URL of a network's emulator ({api}/sandbox/{slug}). */
  publicBase(slug: string): string;
  /** Herald's public API URL, where its webhook receivers are (SandboxContext.heraldApi). */
  heraldApi: string;
  clientId: string;
  /** The secret of a network's sandbox app: each network's its own (platforms/runtime.ts). */
  clientSecret(slug: string): string;
  /** Who a `/_emu/` request of a network's emulator acts for (kit/tenant.ts). */
  tenantOf(slug: string): ResolveTenant;
  /** Who is on a network's consent page (kit/tenant.ts). */
  signerOf(slug: string): ResolveSigner;
  /** Networks whose app is not audited yet (`unauditedNetworks` of platforms/runtime.ts). */
  unauditedNetworks?: readonly string[];
  /** See SandboxContext.runsLocally; false unless said. */
  runsLocally?: boolean;
  /** How Herald's receivers are reached (SandboxContext.deliver); the global fetch unless said. */
  deliver?: SandboxContext['deliver'];
  /** How Herald's media route is reached (SandboxContext.fetchMedia); the global fetch unless said. */
  fetchMedia?: SandboxContext['deliver'];
  /** Who is told that a network's emulator clock moved forward (SandboxContext.clockMoved). */
  clockMoved?(slug: string): SandboxContext['clockMoved'];
}

/**
 * Registers one network's emulator in `scope` (mounted at `ctx.mountPath`): the form parser the
 * networks' OAuth posts need, the tenant of every `/_emu/` route, then the emulator's routes.
 */
export async function registerSandbox(
  scope: FastifyInstance,
  slug: string,
  ctx: SandboxContext,
): Promise<void> {
  const register = SANDBOXES[slug];
  if (!register) throw new Error(`No sandbox for the network '${slug}'.`);
  // Networks take form posts for OAuth; JSON stays parsed by the app's parser.
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
  scopeEmuRoutes(scope, ctx.tenantOf);
  await register(scope, ctx);
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
    if (!SANDBOXES[slug]) throw new Error(`No sandbox for the network '${slug}'.`);
    const mountPath = `${opts.apiBasePath}/sandbox/${slug}`;
    const ctx: SandboxContext = {
      publicBase: opts.publicBase(slug),
      mountPath,
      clientId: opts.clientId,
      clientSecret: opts.clientSecret(slug),
      unaudited: opts.unauditedNetworks?.includes(slug) ?? false,
      store: createSandboxStore(opts.db, slug),
      runsLocally: opts.runsLocally ?? false,
      heraldApi: opts.heraldApi,
      deliver: receiversOnly(opts.heraldApi, opts.deliver ?? ((url, init) => fetch(url, init))),
      fetchMedia: heraldMediaOnly(
        opts.heraldApi,
        opts.fetchMedia ?? ((url, init) => fetch(url, init)),
      ),
      fetchClientDocument: heraldClientDocumentsOnly(
        opts.heraldApi,
        opts.deliver ?? ((url, init) => fetch(url, init)),
      ),
      tenantOf: opts.tenantOf(slug),
      signerOf: opts.signerOf(slug),
      clockMoved: opts.clockMoved?.(slug),
    };
    await app.register((scope) => registerSandbox(scope, slug, ctx), { prefix: mountPath });
  }
}
