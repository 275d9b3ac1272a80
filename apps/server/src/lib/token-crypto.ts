import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * AES-256-GCM for the tokens of connected accounts. Ciphertext format: `v1.<iv>.<tag>.<data>`
 * (base64url), so the key or the scheme can change later without guessing.
 */
export class TokenCipher {
  /** Made once: a Buffer key is imported again by every cipher (~4× the cost of a decrypt). */
  private readonly key: KeyObject;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('The token encryption key must be 32 bytes.');
    this.key = createSecretKey(key);
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [
      'v1',
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      data.toString('base64url'),
    ].join('.');
  }

  decrypt(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined)
      throw new Error('Unreadable encrypted token.');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(data, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }

  encryptNullable(plain: string | null | undefined) {
    return plain ? this.encrypt(plain) : null;
  }

  decryptNullable(sealed: string | null | undefined) {
    return sealed ? this.decrypt(sealed) : null;
  }
}

/**
 * The key: TOKEN_ENCRYPTION_KEY (32 bytes, base64) when configured; otherwise, outside
 * production, one generated once into the data folder (`secrets/token.key`, mode 0600).
 */
export function loadTokenKey(
  configured: string | undefined,
  dataDir: string,
  isProduction: boolean,
): Buffer {
  if (configured) {
    const key = Buffer.from(configured, 'base64');
    if (key.length !== 32)
      throw new Error(
        'TOKEN_ENCRYPTION_KEY must be 32 bytes encoded in base64 (e.g. `openssl rand -base64 32`).',
      );
    return key;
  }
  if (isProduction) throw new Error('Set TOKEN_ENCRYPTION_KEY in production (32 bytes in base64).');
  const file = join(resolve(dataDir), 'secrets', 'token.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  mkdirSync(dirname(file), { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return key;
}
