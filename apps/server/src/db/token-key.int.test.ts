import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../config.js';
import { TokenCipher } from '../lib/token-crypto.js';
import { toStoredAccount } from '../modules/integrations/integrations.service.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../test/app.js';
import { createTestDatabase } from '../test/database.js';
import { createOrg } from '../test/factories.js';
import { connectThroughSandbox } from '../test/networks.js';
import { openPostgres, type Database } from './client.js';
import { appSecrets, integrations } from './schema.js';

/**
 * The token key is one per database, not one per process: every API and worker sharing a
 * database seals and reads the tokens of connected accounts with the same key, and a process
 * whose key cannot read them refuses to start.
 */

const opened: Array<() => Promise<unknown>> = [];
const folders: string[] = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close().catch(() => {});
});
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

const newKey = () => randomBytes(32).toString('base64');

function dataFolder() {
  const dir = mkdtempSync(join(tmpdir(), 'herald-token-key-'));
  folders.push(dir);
  return dir;
}

async function freshDatabase() {
  const { database, drop } = await createTestDatabase();
  opened.push(drop);
  return database;
}

/**
 * One more process on `database`: its own data folder and, on PostgreSQL, its own connection
 * pool, as a second `herald api` or `herald worker` has.
 */
async function startProcess(database: Database, env: Record<string, string> = {}) {
  const own = database.kind === 'postgres' ? await openPostgres(database.url, 2) : database;
  if (own !== database) opened.push(() => own.close());
  const app = await createTestApp({ HERALD_DATA_DIR: dataFolder(), ...env }, { database: own });
  opened.push(() => app.close());
  return app;
}

/** Connects an X sandbox account through `app` and answers its stored row. */
async function connectX(app: TestApp, email: string, account: string) {
  const { owner, orgId } = await createOrg(app.app, email, `${account} Co`);
  const done = await connectThroughSandbox(app.app, owner, 'x', orgId, { account });
  expect(done).toContain('connected');
  const [row] = await app.database.db
    .select()
    .from(integrations)
    .where(eq(integrations.organizationId, orgId));
  return { owner, orgId, row: row! };
}

const rowOf = async (database: Database, id: string) =>
  (await database.db.select().from(integrations).where(eq(integrations.id, id)))[0]!;

async function refusal(start: Promise<unknown>) {
  const err = await start.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  const message = (err as Error).message;
  // `herald` prints a ConfigError as one line.
  expect(message).not.toContain('\n');
  return message;
}

describe('processes sharing a database without TOKEN_ENCRYPTION_KEY', () => {
  it('read each other’s tokens: one refreshes them, the other uses them', async () => {
    const database = await freshDatabase();
    const first = await startProcess(database);
    const second = await startProcess(database);
    const { owner, orgId, row } = await connectX(first, 'shared@key.test', 'shared_key');

    // Refreshed through the second API: it reads what the first sealed, and seals anew.
    const refresh = (app: TestApp) =>
      send(app.app, owner.jar, {
        method: 'GET',
        url: `/api/auth/x/refresh?orgId=${orgId}`,
        headers: { origin: TEST_PUBLIC_URL },
      });
    const throughSecond = await refresh(second);
    expect(throughSecond.statusCode, throughSecond.body).toBe(200);
    const refreshed = await rowOf(database, row.id);
    expect(refreshed.accessTokenEnc).not.toBe(row.accessTokenEnc);
    // …and the first reads what the second sealed.
    const throughFirst = await refresh(first);
    expect(throughFirst.statusCode, throughFirst.body).toBe(200);
    expect(toStoredAccount(first.cipher, refreshed).tokens.accessToken).toBe(
      toStoredAccount(second.cipher, refreshed).tokens.accessToken,
    );
    expect((await rowOf(database, row.id)).status).toBe('CONNECTED');
  }, 60_000);

  it('agree on one key when they start together on a new database', async () => {
    const database = await freshDatabase();
    const [one, other] = await Promise.all([startProcess(database), startProcess(database)]);
    expect(other.cipher.decrypt(one.cipher.encrypt('sealed by one'))).toBe('sealed by one');
    expect(one.cipher.decrypt(other.cipher.encrypt('sealed by the other'))).toBe(
      'sealed by the other',
    );
  }, 60_000);

  it('keep the tokens of an install whose key was in its data folder', async () => {
    const database = await freshDatabase();
    const legacy = randomBytes(32);
    const folder = dataFolder();
    mkdirSync(join(folder, 'secrets'));
    writeFileSync(join(folder, 'secrets', 'token.key'), legacy.toString('base64'));
    const sealed = new TokenCipher(legacy).encrypt('a token sealed before the upgrade');

    const upgraded = await startProcess(database, { HERALD_DATA_DIR: folder });
    expect(upgraded.cipher.decrypt(sealed)).toBe('a token sealed before the upgrade');
    // A process with an empty data folder finds the same key, in the database.
    const added = await startProcess(database);
    expect(added.cipher.decrypt(sealed)).toBe('a token sealed before the upgrade');
  }, 60_000);
});

describe('a key that cannot read the stored tokens', () => {
  it('refuses the start of a process configured with another key, in one line', async () => {
    const database = await freshDatabase();
    await startProcess(database, { TOKEN_ENCRYPTION_KEY: newKey() });

    const message = await refusal(startProcess(database, { TOKEN_ENCRYPTION_KEY: newKey() }));
    expect(message).toMatch(
      /^TOKEN_ENCRYPTION_KEY does not match the key that encrypted the stored tokens\./,
    );
    // Without a key, a process would generate one that reads none of them.
    expect(await refusal(startProcess(database))).toMatch(/^TOKEN_ENCRYPTION_KEY is not set/);
  }, 60_000);

  it('refuses a configured key once the generated one sealed the tokens, unless it replaces it', async () => {
    const database = await freshDatabase();
    const generated = await startProcess(database);
    const { row } = await connectX(generated, 'generated@key.test', 'generated_key');
    const before = toStoredAccount(generated.cipher, row).tokens.accessToken;

    // A configured key takes over from the generated one: the tokens are sealed again with it.
    const key = newKey();
    const configured = await startProcess(database, { TOKEN_ENCRYPTION_KEY: key });
    const after = await rowOf(database, row.id);
    expect(after.accessTokenEnc).not.toBe(row.accessTokenEnc);
    expect(toStoredAccount(new TokenCipher(Buffer.from(key, 'base64')), after).tokens).toEqual(
      toStoredAccount(configured.cipher, after).tokens,
    );
    expect(toStoredAccount(configured.cipher, after).tokens.accessToken).toBe(before);
    const names = (await database.db.select().from(appSecrets)).map((s) => s.name);
    expect(names).not.toContain('token_key');
    // From now on the key must be given.
    expect(await refusal(startProcess(database))).toMatch(/^TOKEN_ENCRYPTION_KEY is not set/);
  }, 60_000);

  it('changes keys with TOKEN_ENCRYPTION_KEY_PREVIOUS, after which the old key is refused', async () => {
    const database = await freshDatabase();
    const oldKey = newKey();
    const old = await startProcess(database, { TOKEN_ENCRYPTION_KEY: oldKey });
    const { row } = await connectX(old, 'rotate@key.test', 'rotate_key');
    const tokens = toStoredAccount(old.cipher, row).tokens;

    const key = newKey();
    await startProcess(database, {
      TOKEN_ENCRYPTION_KEY: key,
      TOKEN_ENCRYPTION_KEY_PREVIOUS: oldKey,
    });
    // Sealed again: the new key alone reads them.
    const only = await startProcess(database, { TOKEN_ENCRYPTION_KEY: key });
    expect(toStoredAccount(only.cipher, await rowOf(database, row.id)).tokens).toEqual(tokens);
    expect(await refusal(startProcess(database, { TOKEN_ENCRYPTION_KEY: oldKey }))).toMatch(
      /^TOKEN_ENCRYPTION_KEY does not match/,
    );
  }, 60_000);
});
