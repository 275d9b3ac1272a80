import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { registerGraphEmulator } from '../meta/index.js';

/**
 * The Instagram (Facebook Login) sandbox: the shared Graph emulator, mounted at
 * /sandbox/instagram, whose consent page also names the Instagram accounts linked to the Pages.
 */
export function registerInstagramSandbox(scope: FastifyInstance, ctx: SandboxContext) {
  registerGraphEmulator(scope, ctx, { network: 'Instagram', instagramField: true });
}
