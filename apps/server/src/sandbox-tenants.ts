import { PLATFORM_NAMES, platformSlug } from '@herald/contract';
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from './db/client.js';
import { integrations, platforms } from './db/schema.js';
import type { LoadMembership } from './http/access.js';
import { AppError } from './lib/app-error.js';
import { listActiveMembershipsOfUser } from './modules/team/membership.js';
import type {
  ConsentSigner,
  EmuTenant,
  ResolveSigner,
  ResolveTenant,
} from './sandbox/kit/tenant.js';

/**
 * The lowercase names of the platform rows a sandbox slug stands for: the slug is the name's own
 * (`platformSlug`), which is not always its lowercase name (Google Business Profile is
 * `googlebusiness`); a slug of no known network stands for its own name.
 */
export function platformNamesOfSlug(slug: string): string[] {
  const names = PLATFORM_NAMES.filter((name) => platformSlug(name) === slug);
  return (names.length ? names : [slug]).map((name) => name.toLowerCase());
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The ids of the accounts these organizations connected on a network (their sandbox accounts among them). */
async function accountIdsOf(db: Db, organizationIds: readonly string[], slug: string) {
  if (organizationIds.length === 0) return new Set<string>();
  const rows = await db
    .select({ id: integrations.platformAccountId })
    .from(integrations)
    .innerJoin(platforms, eq(platforms.id, integrations.platformId))
    .where(
      and(
        inArray(integrations.organizationId, [...organizationIds]),
        inArray(sql`lower(${platforms.name})`, platformNamesOfSlug(slug)),
      ),
    );
  return new Set(rows.map((r) => r.id));
}

/** Whether an organization (other than `except`) connected one of these accounts of a network. */
async function anyConnected(
  db: Db,
  slug: string,
  ids: readonly string[],
  except: readonly string[] = [],
) {
  if (ids.length === 0) return false;
  const rows = await db
    .select({ id: integrations.id })
    .from(integrations)
    .innerJoin(platforms, eq(platforms.id, integrations.platformId))
    .where(
      and(
        inArray(sql`lower(${platforms.name})`, platformNamesOfSlug(slug)),
        inArray(integrations.platformAccountId, [...ids]),
        except.length ? notInArray(integrations.organizationId, [...except]) : undefined,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * The organization a `/_emu/` request names (`?organizationId=`), or the caller's only one; null
 * for an operator who belongs to none (they reach only what every organization shares).
 */
async function organizationOf(
  db: Db,
  loadMembership: LoadMembership,
  request: FastifyRequest,
  user: { id: string; isAdmin: boolean },
): Promise<string | null> {
  const userId = user.id;
  const named = (request.query as Record<string, unknown> | undefined)?.organizationId;
  if (named !== undefined) {
    if (typeof named !== 'string' || !UUID.test(named))
      throw new AppError(
        'BAD_REQUEST',
        'organizationId must be the id of one of your organizations, given once.',
      );
    if (!(await loadMembership(named, userId)))
      throw new AppError('FORBIDDEN', 'You are not a member of this organization.');
    return named;
  }
  const memberships = await listActiveMembershipsOfUser(db, userId);
  if (memberships.length === 1) return memberships[0]!.organization.id;
  if (memberships.length === 0 && user.isAdmin) return null;
  if (memberships.length === 0)
    throw new AppError(
      'FORBIDDEN',
      'You belong to no organization, so no sandbox account is yours to act on.',
    );
  throw new AppError(
    'BAD_REQUEST',
    'You belong to several organizations: name the one whose sandbox accounts you mean with ?organizationId=.',
  );
}

/**
 * The tenants of the emulators' `/_emu/` routes inside the app: the signed-in caller (the access
 * check has refused anyone else with 401) acting for one of their organizations, which owns the
 * sandbox accounts it connected. Platform operators also control what all tenants share.
 */
export function organizationTenants(
  db: Db,
  loadMembership: LoadMembership,
): (slug: string) => ResolveTenant {
  return (slug) =>
    async (request): Promise<EmuTenant> => {
      const auth = request.auth;
      if (!auth) throw new AppError('UNAUTHENTICATED', 'You are not signed in. Please sign in.');
      const organizationId = await organizationOf(db, loadMembership, request, auth.user);
      const owned = await accountIdsOf(db, organizationId ? [organizationId] : [], slug);
      return {
        organizationId,
        owns: (id) => !!id && owned.has(id),
        unclaimed: async (ids) => !(await anyConnected(db, slug, ids)),
        controlsSharedState: auth.user.isAdmin,
      };
    };
}

/**
 * Who is on a network's consent page inside the app: the person whose session cookie came with
 * the page (the authorize routes recognise a session without requiring one), acting for all of
 * their organizations, or for none when signed out. Ownership is the same as on the control
 * routes: the organization whose `integrations` row holds the account.
 */
export function consentSigners(db: Db): (slug: string) => ResolveSigner {
  return (slug) =>
    async (request): Promise<ConsentSigner> => {
      const user = request.auth?.user;
      const organizationIds = user
        ? (await listActiveMembershipsOfUser(db, user.id)).map((m) => m.organization.id)
        : [];
      const owned = await accountIdsOf(db, organizationIds, slug);
      return {
        organizationIds,
        owns: (ids) => ids.some((id) => owned.has(id)),
        connectedElsewhere: (ids) => anyConnected(db, slug, ids, organizationIds),
      };
    };
}
