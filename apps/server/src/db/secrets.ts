import { createHmac, generateKeyPairSync, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from './client.js';
import { appSecrets } from './schema.js';

/**
 * Reads a generated secret, creating it on first use. Stored in the database so that every
 * process of one deployment (api ×N, worker ×M) agrees on it without configuration. `create`
 * runs only when the secret is missing (an RSA key took a sizeable part of every start); when
 * two processes create it at once, the first stored wins and both read that one.
 */
export async function readOrCreateSecret(
  db: Db,
  name: string,
  create: () => string,
): Promise<string> {
  const read = () => readSecret(db, name);
  const stored = await read();
  if (stored !== undefined) return stored;
  await db.insert(appSecrets).values({ name, value: create() }).onConflictDoNothing();
  const value = await read();
  if (value === undefined) throw new Error(`Secret ${name} could not be stored.`);
  return value;
}

/** A stored secret, or undefined. */
export async function readSecret(db: Db, name: string): Promise<string | undefined> {
  return (await db.select().from(appSecrets).where(eq(appSecrets.name, name)))[0]?.value;
}

export interface Secrets {
  /** Signs access tokens and cookies. */
  sessionSecret: string;
  /** RS256 private JWK of the development identity provider. */
  devIdpJwk: Record<string, unknown>;
  /** Derives a purpose-bound key from the session secret. */
  derive(purpose: string): string;
}

export async function loadSecrets(db: Db, configured: string | undefined): Promise<Secrets> {
  const sessionSecret =
    configured ??
    (await readOrCreateSecret(db, 'session_secret', () => randomBytes(48).toString('base64url')));
  const jwkJson = await readOrCreateSecret(db, 'dev_idp_jwk', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return JSON.stringify({
      ...privateKey.export({ format: 'jwk' }),
      kid: randomBytes(8).toString('hex'),
      alg: 'RS256',
      use: 'sig',
    });
  });
  return {
    sessionSecret,
    devIdpJwk: JSON.parse(jwkJson) as Record<string, unknown>,
    derive: (purpose) => createHmac('sha256', sessionSecret).update(purpose).digest('base64url'),
  };
}
