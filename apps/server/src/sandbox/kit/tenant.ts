import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.js';

/**
 * Who a test-facing `/_emu/` request acts for. The emulators' memory is shared by every
 * organization of the server (one sandbox app per network, as Herald has one app per network), so
 * each `/_emu/` route reads and changes only what concerns the caller's accounts: the sandbox
 * accounts their organization connected.
 */
export interface EmuTenant {
  /** The organization the caller acts for; null in a harness that plays a single tenant. */
  organizationId: string | null;
  /**
   * Whether an account belongs to the caller's organization, by the id Herald keeps for it
   * (`integrations.platform_account_id`: an X user id, a Page id, a LinkedIn URN…).
   */
  owns(accountId: string | null | undefined): boolean;
  /**
   * Whether no organization has connected any of these accounts (nor, for no account at all, a
   * name that stands for none yet): a scenario may be prepared on such an account before it is
   * connected, since it is no one's yet.
   */
  unclaimed(accountIds: readonly string[]): Promise<boolean>;
  /**
   * Whether the caller may change what every organization's accounts share (the emulator's
   * clock, the sandbox app's one webhook): platform operators only.
   */
  controlsSharedState: boolean;
}

/** Works out the tenant of a `/_emu/` request (or refuses it with an AppError). */
export type ResolveTenant = (request: FastifyRequest) => Promise<EmuTenant>;

/** A harness that mounts one emulator for one test file: every account is the caller's. */
export const WHOLE_SANDBOX: EmuTenant = {
  organizationId: null,
  owns: () => true,
  unclaimed: async () => true,
  controlsSharedState: true,
};

const tenants = new WeakMap<FastifyRequest, EmuTenant>();

/**
 * The tenant of a `/_emu/` request. Only routes hooked by `scopeEmuRoutes` have one: a route
 * that forgot would fail here rather than answer for every organization.
 */
export function emuTenant(request: FastifyRequest): EmuTenant {
  const tenant = tenants.get(request);
  if (!tenant) throw new AppError('UNAUTHENTICATED', 'You are not signed in. Please sign in.');
  return tenant;
}

/** The refusal of a record or account that is not the caller's: as if it did not exist. */
export const notYours = (what: string) =>
  new AppError(
    'NOT_FOUND',
    `No ${what} of your organization's sandbox accounts has this id or name.`,
  );

/** The refusal of a change to state every organization shares. */
export function requireSharedControl(tenant: EmuTenant, what: string) {
  if (!tenant.controlsSharedState)
    throw new AppError(
      'FORBIDDEN',
      `${what} is shared by every organization's sandbox accounts: only a platform operator may change it.`,
    );
}

/**
 * Who is on a network's consent page: the person signed in to Herald in that browser (the page
 * is served on Herald's own origin, so the session cookie comes along), by their organizations.
 * A sandbox account stands for whichever organization connected it, and its name (or ids made
 * from names) is all a sign-in asks for: a person may sign in again as an account one of their
 * organizations connected, never as one another organization connected.
 */
export interface ConsentSigner {
  /** The person's organizations (none when signed out); null in a harness that plays a single tenant. */
  organizationIds: readonly string[] | null;
  /** Whether one of the person's organizations connected one of these accounts (offered on the page). */
  owns(accountIds: readonly string[]): boolean;
  /** Whether an organization the person is not a member of connected one of these accounts. */
  connectedElsewhere(accountIds: readonly string[]): Promise<boolean>;
}

/** Works out who is on a consent page. */
export type ResolveSigner = (request: FastifyRequest) => Promise<ConsentSigner>;

/** A harness that mounts one emulator for one test file: every account is the person's. */
export const WHOLE_SANDBOX_SIGNER: ConsentSigner = {
  organizationIds: null,
  owns: () => true,
  connectedElsewhere: async () => false,
};

/** What the consent page says when the account named is another organization's. */
export const CONNECTED_ELSEWHERE =
  'This sandbox account is connected by another organization; choose another name.';

/** Path segment of the emulators' test-facing routes. */
const EMULATOR_CONTROL = '/_emu/';

/**
 * Makes every `/_emu/` route of an emulator scope (but public ones, such as placeholder
 * pictures) work out its tenant before its handler runs. Register before the emulator's routes.
 */
export function scopeEmuRoutes(scope: FastifyInstance, resolve: ResolveTenant) {
  scope.addHook('onRoute', (route) => {
    if (!route.url.includes(EMULATOR_CONTROL) || route.config?.access === 'public') return;
    const existing = route.preHandler ? [route.preHandler].flat() : [];
    route.preHandler = [
      async (request: FastifyRequest) => {
        tenants.set(request, await resolve(request));
      },
      ...existing,
    ];
  });
}
