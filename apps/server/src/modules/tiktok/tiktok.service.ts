import { webUrlOrNull, type TikTokCreatorInfo, platformSlug } from '@herald/contract';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { TokenCipher } from '../../lib/token-crypto.js';
import { PlatformError } from '../../platforms/errors.js';
import type { NetworkRuntime } from '../../platforms/runtime.js';
import { toStoredAccount } from '../integrations/integrations.service.js';
import { findAccountWithNetwork } from './tiktok.repository.js';

export interface TikTokComposeDeps {
  db: Db;
  cipher: TokenCipher;
  networks: Map<string, NetworkRuntime>;
}

/** TikTok's refusal of a creator_info read as a sentence the composer can show. */
function toAppError(err: unknown): unknown {
  if (!(err instanceof PlatformError)) return err;
  if (err.kind === 'reauth')
    return new AppError(
      'VALIDATION_FAILED',
      `TikTok refused Herald's access to this account: ${err.message} Reconnect it in Settings.`,
    );
  if (err.kind === 'rate_limited')
    return new AppError('RATE_LIMITED', `TikTok asks to slow down: ${err.message}`);
  if (err.kind === 'bad_request') return new AppError('VALIDATION_FAILED', err.message);
  return new AppError(
    'UNAVAILABLE',
    `TikTok did not say what this account may post (${err.message}). Try again in a moment.`,
  );
}

/**
 * What TikTok lets this connected TikTok account post now (creator_info), read when the account
 * is chosen in the composer and again when a post is saved (docs/networks.md#tiktok-conformance).
 */
export async function readCreatorInfo(
  deps: TikTokComposeDeps,
  organizationId: string,
  integrationId: string,
): Promise<TikTokCreatorInfo> {
  const row = await findAccountWithNetwork(deps.db, organizationId, integrationId);
  if (!row) throw new AppError('NOT_FOUND', 'This account is not connected to this organization.');
  const adapter = deps.networks.get(platformSlug(row.networkName))?.adapter;
  if (!adapter?.creatorInfo)
    throw new AppError('VALIDATION_FAILED', `${row.networkName} has no creator settings to read.`);
  if (row.integration.status !== 'CONNECTED')
    throw new AppError('VALIDATION_FAILED', 'This TikTok account needs reconnecting in Settings.');
  try {
    const info = await adapter.creatorInfo(toStoredAccount(deps.cipher, row.integration));
    // The creator's avatar is shown as an image: only a web address is kept.
    return { ...info, avatarUrl: webUrlOrNull(info.avatarUrl) };
  } catch (err) {
    throw toAppError(err);
  }
}
