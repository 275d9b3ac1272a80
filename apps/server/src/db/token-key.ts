import { randomBytes } from 'node:crypto';
import { eq, isNotNull, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { ConfigError } from '../config.js';
import {
  parseTokenKey,
  readDataFolderTokenKey,
  TokenCipher,
  TokenDecryptError,
  tokenKeyId,
} from '../lib/token-crypto.js';
import type { Db } from './client.js';
import { appSecrets, integrations, pendingConnections } from './schema.js';
import { readOrCreateSecret, readSecret } from './secrets.js';

/** The key generated outside production when none is configured, shared through the database. */
const GENERATED_KEY = 'token_key';
/** tokenKeyId of the key the stored tokens are sealed with, set by the first process to start. */
const KEY_CHECK = 'token_key_check';

export const KEY_MISMATCH =
  'TOKEN_ENCRYPTION_KEY does not match the key that encrypted the stored tokens. Set it to that key in every process, or, to change keys, set the new key in TOKEN_ENCRYPTION_KEY and the old one in TOKEN_ENCRYPTION_KEY_PREVIOUS.';
export const KEY_MISSING =
  'TOKEN_ENCRYPTION_KEY is not set, but the stored tokens were encrypted with a configured key. Set TOKEN_ENCRYPTION_KEY to that key in every process.';

export interface TokenKeyOptions {
  /** TOKEN_ENCRYPTION_KEY (base64). */
  configured: string | undefined;
  /** TOKEN_ENCRYPTION_KEY_PREVIOUS (base64): the key being replaced. */
  previous: string | undefined;
  dataDir: string;
  isProduction: boolean;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
}

/**
 * The cipher of this process, with the key every process sharing the database uses. Refuses
 * (ConfigError, one line) when that key cannot read the stored tokens; when the stored tokens are
 * sealed with TOKEN_ENCRYPTION_KEY_PREVIOUS, or with the generated key a configured one replaces,
 * seals them again under the new key first.
 */
export async function loadTokenCipher(db: Db, options: TokenKeyOptions): Promise<TokenCipher> {
  const key = await currentKey(db, options);
  const id = tokenKeyId(key);
  // Two processes starting together on a fresh database: the first check stored wins.
  const check = await readOrCreateSecret(db, KEY_CHECK, () => id);
  const previous = options.previous ? parseTokenKey(options.previous) : null;
  if (check !== id) await sealAgain(db, key, previous, options);
  return new TokenCipher(key, previous ? [previous] : []);
}

async function currentKey(db: Db, options: TokenKeyOptions): Promise<Buffer> {
  if (options.configured) return parseTokenKey(options.configured);
  // The configuration refuses this already; kept so no path generates a key in production.
  if (options.isProduction) throw new ConfigError('In production set TOKEN_ENCRYPTION_KEY.');
  const stored = await readSecret(db, GENERATED_KEY);
  // A configured key sealed the tokens: a key generated now could read none of them.
  if (stored === undefined && (await readSecret(db, KEY_CHECK)) !== undefined)
    throw new ConfigError(KEY_MISSING);
  const inFolder = readDataFolderTokenKey(options.dataDir);
  // An install from before the key was shared: its data folder's key sealed its tokens.
  const value =
    stored ??
    (await readOrCreateSecret(db, GENERATED_KEY, () =>
      (inFolder ?? randomBytes(32)).toString('base64'),
    ));
  const key = Buffer.from(value, 'base64');
  if (inFolder && !inFolder.equals(key))
    options.log.warn(
      'the token key in this data folder (secrets/token.key) differs from the one shared in the database and is not used: accounts whose tokens it encrypted must be reconnected',
    );
  return key;
}

/**
 * Seals every stored token again under `key`, from the key the check names: the previous key,
 * or the generated one a configured key replaces. One process does it (the check row is locked);
 * the others find the check already moved. A value neither key opens is left as it is: its
 * account is asked to reconnect when it is used.
 */
async function sealAgain(
  db: Db,
  key: Buffer,
  previous: Buffer | null,
  options: TokenKeyOptions,
): Promise<void> {
  const generated = options.configured ? await readSecret(db, GENERATED_KEY) : undefined;
  const candidates = [previous, generated ? Buffer.from(generated, 'base64') : null].filter(
    (k): k is Buffer => k !== null && k.length === 32,
  );
  const id = tokenKeyId(key);
  const counts = await db.transaction(async (tx) => {
    const [check] = await tx
      .select()
      .from(appSecrets)
      .where(eq(appSecrets.name, KEY_CHECK))
      .for('update');
    if (check?.value === id) return null;
    const old = candidates.find((k) => tokenKeyId(k) === check?.value);
    if (!old) throw new ConfigError(options.configured ? KEY_MISMATCH : KEY_MISSING);
    const from = new TokenCipher(old);
    const to = new TokenCipher(key);
    let unreadable = 0;
    const reseal = (sealed: string | null) => {
      if (sealed === null) return null;
      try {
        return to.encrypt(from.decrypt(sealed));
      } catch (err) {
        if (!(err instanceof TokenDecryptError)) throw err;
        unreadable += 1;
        return sealed;
      }
    };
    const rows = await tx
      .select({
        id: integrations.id,
        accessTokenEnc: integrations.accessTokenEnc,
        refreshTokenEnc: integrations.refreshTokenEnc,
        secretsEnc: integrations.secretsEnc,
      })
      .from(integrations)
      .where(
        or(
          isNotNull(integrations.accessTokenEnc),
          isNotNull(integrations.refreshTokenEnc),
          isNotNull(integrations.secretsEnc),
        ),
      );
    for (const row of rows) {
      await tx
        .update(integrations)
        .set({
          accessTokenEnc: reseal(row.accessTokenEnc),
          refreshTokenEnc: reseal(row.refreshTokenEnc),
          secretsEnc: reseal(row.secretsEnc),
        })
        .where(eq(integrations.id, row.id));
    }
    const pending = await tx
      .select({ id: pendingConnections.id, accountsEnc: pendingConnections.accountsEnc })
      .from(pendingConnections);
    for (const row of pending) {
      await tx
        .update(pendingConnections)
        .set({ accountsEnc: reseal(row.accountsEnc)! })
        .where(eq(pendingConnections.id, row.id));
    }
    await tx.update(appSecrets).set({ value: id }).where(eq(appSecrets.name, KEY_CHECK));
    // A configured key replaces the generated one for good: nothing is left sealed with it.
    if (options.configured) await tx.delete(appSecrets).where(eq(appSecrets.name, GENERATED_KEY));
    return { accounts: rows.length, pending: pending.length, unreadable };
  });
  if (counts)
    options.log.info(counts, 'stored tokens encrypted again with the new TOKEN_ENCRYPTION_KEY');
}
