import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TokenCipher, TokenDecryptError, tokenKeyId } from './token-crypto.js';

describe('TokenCipher', () => {
  it('refuses what another key sealed with TokenDecryptError, not a crypto error', () => {
    const sealed = new TokenCipher(randomBytes(32)).encrypt('a token');
    expect(() => new TokenCipher(randomBytes(32)).decrypt(sealed)).toThrow(TokenDecryptError);
    expect(() => new TokenCipher(randomBytes(32)).decrypt('v1.x')).toThrow(TokenDecryptError);
  });

  it('reads with the previous key too, and seals with the current one only', () => {
    const previous = randomBytes(32);
    const current = randomBytes(32);
    const both = new TokenCipher(current, [previous]);
    expect(both.decrypt(new TokenCipher(previous).encrypt('old'))).toBe('old');
    const sealed = both.encrypt('new');
    expect(new TokenCipher(current).decrypt(sealed)).toBe('new');
    expect(() => new TokenCipher(previous).decrypt(sealed)).toThrow(TokenDecryptError);
  });

  it('names a key by a check that differs between keys and reveals neither', () => {
    const key = randomBytes(32);
    expect(tokenKeyId(key)).toBe(tokenKeyId(Buffer.from(key)));
    expect(tokenKeyId(key)).not.toBe(tokenKeyId(randomBytes(32)));
    expect(tokenKeyId(key)).not.toContain(key.toString('base64url'));
  });
});
