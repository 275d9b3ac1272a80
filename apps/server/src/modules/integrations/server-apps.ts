import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { TokenCipher } from '../../lib/token-crypto.js';
import type { NetworkRuntime } from '../../platforms/runtime.js';
import type { ServerApp } from '../../platforms/types.js';
import { findServerApp, insertServerApp } from './integrations.repository.js';

/**
 * Herald's app on one server of a network made of many servers (Mastodon), registered the first
 * time someone connects there and kept (client id and secret encrypted) for everyone after.
 */
export async function serverAppFor(
  deps: { db: Db; cipher: TokenCipher },
  network: NetworkRuntime,
  typed: string | undefined,
  redirectUri: string,
): Promise<ServerApp> {
  const { adapter } = network;
  if (!adapter.serverOf || !adapter.registerServerApp)
    throw new AppError('VALIDATION_FAILED', `${network.name} accounts connect without a server.`);
  const instance = typed ? adapter.serverOf(typed) : null;
  if (!instance)
    throw new AppError(
      'VALIDATION_FAILED',
      `Type the ${network.name} server your account is on, such as mastodon.social.`,
    );
  const key = { network: network.slug, instance, redirectUri };
  const open = (row: { clientIdEnc: string; clientSecretEnc: string }): ServerApp => ({
    instance,
    clientId: deps.cipher.decrypt(row.clientIdEnc),
    clientSecret: deps.cipher.decrypt(row.clientSecretEnc),
  });
  const stored = await findServerApp(deps.db, key);
  if (stored) return open(stored);
  const app = await adapter.registerServerApp(instance, redirectUri);
  // Two first sign-ins on one server at once both register; the first app stored is kept.
  await insertServerApp(deps.db, {
    ...key,
    clientIdEnc: deps.cipher.encrypt(app.clientId),
    clientSecretEnc: deps.cipher.encrypt(app.clientSecret),
  });
  const kept = await findServerApp(deps.db, key);
  return kept ? open(kept) : { instance, ...app };
}
