import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { registerEmulatorAdmin } from '../kit/admin.js';
import { PUBLISHING_KNOBS } from '../kit/call-knobs.js';
import { CONNECTION_KNOBS, type SandboxAccount, SandboxOAuth } from '../kit/oauth-state.js';
import { randomDigits } from '../kit/secrets.js';
import { registerPinterestApiRoutes, type SandboxBoard } from './api.routes.js';
import { registerPinterestOAuthRoutes } from './oauth.routes.js';
import { pinterestId } from './responses.js';

/**
 * Knobs of the Pinterest emulator: the connection and publishing ones (`processing_ms`,
 * `processing_fails` for videos, `finalize_timeout` for pins) (docs/networks.md#scenario-knobs).
 */
export const PINTEREST_KNOBS = [...CONNECTION_KNOBS, ...PUBLISHING_KNOBS];

/** The board a new sandbox account starts with, as a person's first board on Pinterest. */
export const FIRST_BOARD = 'Ideas';

/**
 * The Pinterest emulator (docs/networks.md#pinterest-sandbox), mounted at `{api}/sandbox/pinterest`:
 * the consent page (www.pinterest.com/oauth/), API v5 with its token endpoint, and the storage
 * the video uploads go to. An app the sandbox treats as unaudited has Trial access.
 */
export function registerPinterestSandbox(scope: FastifyInstance, ctx: SandboxContext) {
  // Pinterest user ids are 18 digits.
  const oauth = new SandboxOAuth(ctx.store, () => randomDigits(18));
  registerEmulatorAdmin(scope, ctx, oauth, PINTEREST_KNOBS);
  async function signedIn(account: SandboxAccount) {
    const boards = await ctx.store.list<SandboxBoard>('board');
    if (boards.some((r) => r.data.accountId === account.id)) return;
    const board: SandboxBoard = {
      id: pinterestId(),
      accountId: account.id,
      name: FIRST_BOARD,
      description: '',
      privacy: 'PUBLIC',
      createdAt: await oauth.now(),
    };
    await ctx.store.put('board', board.id, board);
  }
  registerPinterestOAuthRoutes(scope, ctx, oauth, signedIn);
  registerPinterestApiRoutes(scope, oauth, ctx.store, ctx.publicBase, ctx.unaudited);
}
