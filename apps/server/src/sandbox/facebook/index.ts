import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { registerGraphEmulator } from '../meta/index.js';

/** The Facebook Pages sandbox: the shared Graph emulator, mounted at /sandbox/facebook. */
export function registerFacebookSandbox(scope: FastifyInstance, ctx: SandboxContext) {
  registerGraphEmulator(scope, ctx, { network: 'Facebook', instagramField: false });
}
