import type { CreatePinterestBoard, PinterestBoard } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { TokenCipher } from '../../lib/token-crypto.js';
import { PlatformError } from '../../platforms/errors.js';
import type { NetworkRuntime } from '../../platforms/runtime.js';
import type { PlatformAdapter, StoredAccount } from '../../platforms/types.js';
import { toStoredAccount } from '../integrations/integrations.service.js';
import { findAccountWithNetwork } from './pinterest.repository.js';

export interface PinterestComposeDeps {
  db: Db;
  cipher: TokenCipher;
  networks: Map<string, NetworkRuntime>;
}

/** Pinterest's refusal of a board read or creation as a sentence the composer can show. */
function toAppError(err: unknown): unknown {
  if (!(err instanceof PlatformError)) return err;
  if (err.kind === 'reauth')
    return new AppError(
      'VALIDATION_FAILED',
      `Pinterest refused Herald's access to this account: ${err.message} Reconnect it in Settings.`,
    );
  if (err.kind === 'rate_limited')
    return new AppError('RATE_LIMITED', `Pinterest asks to slow down: ${err.message}`);
  if (err.kind === 'bad_request') return new AppError('VALIDATION_FAILED', err.message);
  return new AppError(
    'UNAVAILABLE',
    `Pinterest did not answer about this account's boards (${err.message}). Try again in a moment.`,
  );
}

/** The connected Pinterest account and its adapter, or the reason the composer cannot use it. */
async function accountOf(
  deps: PinterestComposeDeps,
  organizationId: string,
  integrationId: string,
): Promise<{ adapter: PlatformAdapter; account: StoredAccount }> {
  const row = await findAccountWithNetwork(deps.db, organizationId, integrationId);
  if (!row) throw new AppError('NOT_FOUND', 'This account is not connected to this organization.');
  const adapter = deps.networks.get(row.networkName.toLowerCase())?.adapter;
  if (!adapter?.boards || !adapter.createBoard)
    throw new AppError('VALIDATION_FAILED', `${row.networkName} has no boards.`);
  if (row.integration.status !== 'CONNECTED')
    throw new AppError(
      'VALIDATION_FAILED',
      'This Pinterest account needs reconnecting in Settings.',
    );
  return { adapter, account: toStoredAccount(deps.cipher, row.integration) };
}

/** The boards of a connected Pinterest account, read when it is chosen in the composer. */
export async function readBoards(
  deps: PinterestComposeDeps,
  organizationId: string,
  integrationId: string,
): Promise<PinterestBoard[]> {
  const { adapter, account } = await accountOf(deps, organizationId, integrationId);
  try {
    return await adapter.boards!(account);
  } catch (err) {
    throw toAppError(err);
  }
}

/** A new board of a connected Pinterest account, made from the composer. */
export async function createBoard(
  deps: PinterestComposeDeps,
  organizationId: string,
  integrationId: string,
  input: CreatePinterestBoard,
): Promise<PinterestBoard> {
  const { adapter, account } = await accountOf(deps, organizationId, integrationId);
  try {
    return await adapter.createBoard!(account, input);
  } catch (err) {
    throw toAppError(err);
  }
}
