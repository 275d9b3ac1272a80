import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Db } from '../db/client.js';
import { integrations, platforms, sandboxRecords, users } from '../db/schema.js';
import { PlatformError } from '../platforms/errors.js';
import { platformNamesOfSlug } from '../sandbox-tenants.js';
import { type Actor, createOrg } from './factories.js';

/**
 * The preamble of a network's test file: starts a harness (sandbox-harness.ts or
 * graph-harness.ts) before the file's tests and closes it after. Returns a stand-in that reads
 * the live harness, so the tests use it like the harness itself.
 */
export function useHarness<H extends { close(): Promise<void> }>(start: () => Promise<H>): H {
  let harness: H | undefined;
  beforeAll(async () => {
    harness = await start();
  });
  afterAll(async () => {
    await harness?.close();
  });
  return new Proxy({} as H, {
    get(_target, key) {
      if (!harness) throw new Error('The harness starts in beforeAll: use it inside a test.');
      return Reflect.get(harness, key);
    },
  });
}

/** Awaits a call that must fail and returns its PlatformError (failing the test otherwise). */
export async function expectPlatformError(promise: Promise<unknown>): Promise<PlatformError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PlatformError);
  return err as PlatformError;
}

/** One developer per app: an operator who owns an organization. */
const developers = new WeakMap<FastifyInstance, Promise<{ actor: Actor; orgId: string }>>();

/** The ids Herald keeps for every account a network's emulator knows (kit/tenant.ts). */
async function sandboxAccountIds(db: Db, slug: string): Promise<string[]> {
  const rows = await db.select().from(sandboxRecords).where(eq(sandboxRecords.network, slug));
  return rows.flatMap(({ kind, id, data }) => {
    if (kind === 'account_id') return [id];
    // Google Business Profile connects locations, not the Google account.
    if (kind === 'gbp_location') return [id];
    // Networks of many servers (Mastodon) keep each server's accounts as `{id}@{server}`.
    if (kind.endsWith(':account_id')) return [`${id}@${kind.slice(0, -':account_id'.length)}`];
    if (kind === 'user')
      return (data.pages as Array<{ id: string; instagram: { id: string } | null }>).flatMap(
        (p) => [p.id, ...(p.instagram ? [p.instagram.id] : [])],
      );
    if (kind === 'member')
      return [
        `urn:li:person:${String(data.sub)}`,
        ...(data.orgIds as string[]).map((o) => `urn:li:organization:${o}`),
      ];
    return [];
  });
}

/**
 * Records every account of the network's emulator as connected by `orgId`, as Herald's callback
 * would have: tests that connect through the adapter skip it, and the emulators' control routes
 * act only on the caller's organization's accounts. Returns the rows it added.
 */
export async function connectEverySandboxAccount(
  db: Db,
  slug: string,
  orgId: string,
): Promise<string[]> {
  const ids = await sandboxAccountIds(db, slug);
  const [platform] = await db
    .select({ id: platforms.id })
    .from(platforms)
    .where(inArray(sql`lower(${platforms.name})`, platformNamesOfSlug(slug)));
  if (!platform || ids.length === 0) return [];
  const added = await db
    .insert(integrations)
    .values(
      ids.map((id) => ({
        organizationId: orgId,
        platformId: platform.id,
        platformAccountId: id,
        status: 'CONNECTED' as const,
        sandbox: true,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: integrations.id });
  return added.map((row) => row.id);
}

/**
 * Calls an emulator's control route (`/api/sandbox/{slug}/_emu/{path}`) inside the app, as a
 * signed-in developer: an operator (the emulator's clock is everyone's) whose organization
 * connected every account of the emulator for the call. The app refuses anonymous callers there.
 */
export async function emuInject(
  t: { app: FastifyInstance; database: { db: Db } },
  slug: string,
  method: 'GET' | 'POST',
  path: string,
  payload?: object,
): Promise<LightMyRequestResponse> {
  let developer = developers.get(t.app);
  if (!developer) {
    const email = 'emulator.developer@sandbox.test';
    developer = (async () => {
      // Operators are named at sign-in; the developer's row says so before the first one.
      await t.database.db.insert(users).values({ email, isAdmin: true, emailVerified: true });
      const { owner, orgId } = await createOrg(t.app, email, 'Emulator developers');
      return { actor: owner, orgId };
    })();
    developers.set(t.app, developer);
  }
  const { actor, orgId } = await developer;
  const added = await connectEverySandboxAccount(t.database.db, slug, orgId);
  try {
    return await t.app.inject({
      method,
      url: `/api/sandbox/${slug}/_emu/${path}`,
      headers: { cookie: actor.jar.header() },
      ...(payload !== undefined ? { payload } : {}),
    });
  } finally {
    // Only for this call: an account stays its organization's to sign in as again (a sandbox
    // refuses a sign-in as an account another organization connected).
    if (added.length)
      await t.database.db.delete(integrations).where(inArray(integrations.id, added));
  }
}
