import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { createTestDatabase } from '../../test/database.js';
import { signInWithIdentity } from './users.service.js';

let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await createTestDatabase());
});
afterAll(() => drop());

const identity = (over: Partial<Parameters<typeof signInWithIdentity>[1]>) => ({
  issuer: 'https://id.example',
  subject: 'sub-1',
  email: 'person@example.com',
  emailVerified: true as boolean | undefined,
  name: 'Person',
  picture: undefined,
  ...over,
});

describe('signing in with an identity', () => {
  it('lets only a verified address claim an existing account', async () => {
    const first = await signInWithIdentity(database.db, identity({}), []);
    await expect(
      signInWithIdentity(
        database.db,
        identity({ issuer: 'https://other.example', subject: 'x', emailVerified: undefined }),
        [],
      ),
    ).rejects.toThrow(/did not confirm your email address/);
    const linked = await signInWithIdentity(
      database.db,
      identity({ issuer: 'https://other.example', subject: 'x', emailVerified: true }),
      [],
    );
    expect(linked.id).toBe(first.id);
  });

  it('grants operator rights from ADMIN_EMAILS only to a verified address', async () => {
    const unverified = await signInWithIdentity(
      database.db,
      identity({ subject: 'ops-1', email: 'ops@example.com', emailVerified: false }),
      ['ops@example.com'],
    );
    expect(unverified.isAdmin).toBe(false);
    expect(unverified.emailVerified).toBe(false);
    const verified = await signInWithIdentity(
      database.db,
      identity({ subject: 'ops-1', email: 'ops@example.com', emailVerified: true }),
      ['ops@example.com'],
    );
    expect(verified.isAdmin).toBe(true);
  });
});
