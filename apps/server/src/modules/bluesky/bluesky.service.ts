import type { BlueskyVideoLimits } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { TokenCipher } from '../../lib/token-crypto.js';
import { PlatformError } from '../../platforms/errors.js';
import type { NetworkRuntime } from '../../platforms/runtime.js';
import { toStoredAccount } from '../integrations/integrations.service.js';
import { findAccountWithNetwork } from './bluesky.repository.js';

export interface BlueskyComposeDeps {
  db: Db;
  cipher: TokenCipher;
  networks: Map<string, NetworkRuntime>;
}

/** Bluesky's refusal of the read as a sentence the composer can show. */
function toAppError(err: unknown): unknown {
  if (!(err instanceof PlatformError)) return err;
  if (err.kind === 'reauth')
    return new AppError(
      'VALIDATION_FAILED',
      `Bluesky refused Herald's access to this account: ${err.message} Reconnect it in Settings.`,
    );
  if (err.kind === 'rate_limited')
    return new AppError('RATE_LIMITED', `Bluesky asks to slow down: ${err.message}`);
  if (err.kind === 'bad_request') return new AppError('VALIDATION_FAILED', err.message);
  return new AppError(
    'UNAVAILABLE',
    `Bluesky's video service did not say what this account may upload today (${err.message}). Try again in a moment.`,
  );
}

/**
 * The videos and bytes Bluesky's video service lets this connected Bluesky account upload today
 * (docs/networks.md#bluesky-limits), read when the composer has a Bluesky account and a video.
 */
export async function readVideoLimits(
  deps: BlueskyComposeDeps,
  organizationId: string,
  integrationId: string,
): Promise<BlueskyVideoLimits> {
  const row = await findAccountWithNetwork(deps.db, organizationId, integrationId);
  if (!row) throw new AppError('NOT_FOUND', 'This account is not connected to this organization.');
  const adapter = deps.networks.get(row.networkName.toLowerCase())?.adapter;
  if (!adapter?.videoLimits)
    throw new AppError(
      'VALIDATION_FAILED',
      `${row.networkName} has no daily video allowance to read.`,
    );
  if (row.integration.status !== 'CONNECTED')
    throw new AppError('VALIDATION_FAILED', 'This Bluesky account needs reconnecting in Settings.');
  try {
    return await adapter.videoLimits(toStoredAccount(deps.cipher, row.integration));
  } catch (err) {
    throw toAppError(err);
  }
}
