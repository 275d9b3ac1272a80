import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createSecretKey,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** A sealed value this key cannot open: another key sealed it, or it was altered. */
export class TokenDecryptError extends Error {
  constructor(message = 'The encrypted value cannot be read with this key.') {
    super(message);
    this.name = 'TokenDecryptError';
  }
}

/**
 * AES-256-GCM for the tokens of connected accounts. Ciphertext format: `v1.<iv>.<tag>.<data>`
 * (base64url), so the key or the scheme can change later without guessing.
 */
export class TokenCipher {
  /** Made once: a Buffer key is imported again by every cipher (~4× the cost of a decrypt). */
  private readonly key: KeyObject;
  /**
   * Keys that only read: while the key changes, a process still running with the old one may
   * seal a token after the stored ones were sealed again under the new key.
   */
  private readonly readOnly: KeyObject[];

  constructor(key: Buffer, previous: Buffer[] = []) {
    for (const k of [key, ...previous])
      if (k.length !== 32) throw new Error('The token encryption key must be 32 bytes.');
    this.key = createSecretKey(key);
    this.readOnly = previous.map((k) => createSecretKey(k));
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

  /** Throws TokenDecryptError when this key cannot open `sealed` (never a bare crypto error). */
  decrypt(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined)
      throw new TokenDecryptError('Unreadable encrypted token.');
    for (const key of [this.key, ...this.readOnly]) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([
          decipher.update(Buffer.from(data, 'base64url')),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        // GCM's tag refuses a value another key sealed: try the next key.
      }
    }
    throw new TokenDecryptError();
  }

  encryptNullable(plain: string | null | undefined) {
    return plain ? this.encrypt(plain) : null;
  }

  decryptNullable(sealed: string | null | undefined) {
    return sealed ? this.decrypt(sealed) : null;
  }
}

/** A key from the environment: 32 bytes in base64 (checked by the configuration already). */
export function parseTokenKey(base64: string): Buffer {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== 32) throw new Error('The token encryption key must be 32 bytes in base64.');
  return key;
}

/**
 * Which key sealed the stored tokens, without revealing it: an HMAC of a fixed label under the
 * key. Stored beside the tokens, it lets a process tell at start whether its key can read them.
 */
export function tokenKeyId(key: Buffer): string {
  return createHmac('sha256', key).update('herald token key check v1').digest('base64url');
}

/**
 * The key earlier versions generated into the data folder (`secrets/token.key`) when no
 * TOKEN_ENCRYPTION_KEY was set, or null. Read once, so an install upgraded with tokens sealed
 * under it moves that key into the database instead of losing them.
 */
export function readDataFolderTokenKey(dataDir: string): Buffer | null {
  const file = join(resolve(dataDir), 'secrets', 'token.key');
  if (!existsSync(file)) return null;
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  return key.length === 32 ? key : null;
}
