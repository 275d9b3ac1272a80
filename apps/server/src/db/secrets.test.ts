import * as crypto from 'node:crypto';
import type * as NodeCrypto from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { useMigratedPglite } from '../test/database.js';
import { loadSecrets } from './secrets.js';

vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof NodeCrypto>();
  return { ...original, generateKeyPairSync: vi.fn(original.generateKeyPairSync) };
});

const database = useMigratedPglite();

describe('loadSecrets', () => {
  it('makes the secrets once and reads the stored ones at every later start', async () => {
    const keygen = vi.mocked(crypto.generateKeyPairSync);
    const first = await loadSecrets(database().db, undefined);
    expect(keygen).toHaveBeenCalledTimes(1);

    const again = await loadSecrets(database().db, undefined);
    // No second RSA key is generated (and thrown away) when one is stored.
    expect(keygen).toHaveBeenCalledTimes(1);
    expect(again.sessionSecret).toBe(first.sessionSecret);
    expect(again.devIdpJwk).toEqual(first.devIdpJwk);
    expect(again.derive('cookie-signing')).toBe(first.derive('cookie-signing'));
  });

  it('uses a configured session secret and still keeps the stored key', async () => {
    const first = await loadSecrets(database().db, undefined);
    const configured = await loadSecrets(database().db, 'a configured secret of enough length');
    expect(configured.sessionSecret).toBe('a configured secret of enough length');
    expect(configured.devIdpJwk).toEqual(first.devIdpJwk);
  });
});
