import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isApiVersionServed, LINKEDIN_API_VERSIONS } from '../../lib/api-versions.js';
import type { EmuKit } from '../kit/emu-kit.js';
import { LinkedInFailure, linkedInErrors } from './errors.js';
import { roleOn, type LinkedInState, type Organization } from './state.js';

/**
 * docs/networks.md#linkedin-sandbox: every /rest call needs `LinkedIn-Version` and Rest.li
 * protocol 2.0.0. Whether LinkedIn still serves the version depends on the emulator's clock, so
 * that is checked before, by `refuseUnservedVersion`.
 */
function checkRestHeaders(request: FastifyRequest) {
  const version = request.headers['linkedin-version'];
  if (typeof version !== 'string' || !version) throw linkedInErrors.versionMissing();
  if (request.headers['x-restli-protocol-version'] !== '2.0.0') {
    throw linkedInErrors.badRequest('X-Restli-Protocol-Version 2.0.0 is required.');
  }
}

/**
 * A /rest call naming a version LinkedIn does not serve on `now` is refused with 426, as
 * LinkedIn refuses it: a sunset version, one not released yet, or one that never existed. The
 * versions are Herald's one table (lib/api-versions.ts), which the preflight reads too.
 */
export function refuseUnservedVersion(request: FastifyRequest, now: Date) {
  const version = request.headers['linkedin-version'];
  if (typeof version !== 'string' || !version) return;
  if (!isApiVersionServed(LINKEDIN_API_VERSIONS, version, now))
    throw linkedInErrors.versionInactive(version);
}

/** Runs a handler with LinkedIn's error shape for failures; `rest` routes check the headers. */
export const linkedInRoute =
  (rest: boolean, fn: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
  async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      if (rest) checkRestHeaders(request);
      return await fn(request, reply);
    } catch (err) {
      if (err instanceof LinkedInFailure) return err.send(reply);
      throw err;
    }
  };

const logoAsset = (orgId: string) => `C4D0BAQ${orgId}`;

/** An organization logo as the Images API shows it, if `urn` is one (docs/networks.md#linkedin-oauth). */
export async function logoImage(state: LinkedInState, kit: EmuKit, urn: string) {
  const orgId = /^urn:li:image:C4D0BAQ(\d+)$/.exec(urn)?.[1];
  const org = orgId ? await state.getOrganization(orgId) : null;
  if (!org) return null;
  return {
    id: urn,
    status: 'AVAILABLE',
    owner: `urn:li:organization:${org.id}`,
    downloadUrl: kit.pictureUrl(org.id, org.name),
    downloadUrlExpiresAt: Date.now() + 24 * 60 * 60 * 1000,
  };
}

/** Member identity and the organization endpoints needed to connect pages (docs/networks.md#linkedin-sandbox). */
export function registerLinkedInRest(scope: FastifyInstance, kit: EmuKit, state: LinkedInState) {
  const handle = linkedInRoute;

  const organizationBody = (org: Organization) => ({
    id: Number(org.id),
    $URN: `urn:li:organization:${org.id}`,
    localizedName: org.name,
    name: { localized: { en_US: org.name }, preferredLocale: { country: 'US', language: 'en' } },
    vanityName: org.vanityName,
    logoV2: {
      original: `urn:li:digitalmediaAsset:${logoAsset(org.id)}`,
      cropped: `urn:li:digitalmediaAsset:${logoAsset(org.id)}`,
      cropInfo: { x: 0, y: 0, width: 0, height: 0 },
    },
  });

  scope.get(
    '/v2/userinfo',
    handle(false, async (request) => {
      const { grant, member } = await state.authenticate(request.headers.authorization);
      if (!grant.scopes.includes('openid')) throw linkedInErrors.denied('userinfo.GET.NO_VERSION');
      const name = [member.givenName, member.familyName].filter(Boolean).join(' ');
      const profile = grant.scopes.includes('profile');
      return {
        sub: member.sub,
        ...(profile
          ? {
              name,
              given_name: member.givenName,
              family_name: member.familyName,
              picture: kit.pictureUrl(member.sub, name),
              locale: { country: 'US', language: 'en' },
            }
          : {}),
        ...(grant.scopes.includes('email')
          ? { email: `${member.sub.toLowerCase()}@sandbox.example`, email_verified: true }
          : {}),
      };
    }),
  );

  scope.get(
    '/rest/organizationAcls',
    handle(true, async (request) => {
      const { grant, member } = await state.authenticate(request.headers.authorization);
      const q = request.query as Record<string, string | undefined>;
      if (q.q !== 'roleAssignee')
        throw linkedInErrors.badRequest('Unsupported finder; use q=roleAssignee.');
      if (
        !grant.scopes.some((s) => s === 'rw_organization_admin' || s === 'r_organization_admin')
      ) {
        throw linkedInErrors.denied('organizationAcls.FINDER-roleAssignee');
      }
      const all = member.orgIds
        .map((id) => ({
          organization: `urn:li:organization:${id}`,
          role: roleOn(member, id) ?? 'ADMINISTRATOR',
          state: 'APPROVED',
          roleAssignee: `urn:li:person:${member.sub}`,
        }))
        .filter((acl) => (!q.role || acl.role === q.role) && (!q.state || acl.state === q.state));
      const start = Math.max(Number(q.start) || 0, 0);
      const count = Math.min(Math.max(Number(q.count) || 10, 1), 100);
      return {
        elements: all.slice(start, start + count),
        paging: { start, count, total: all.length, links: [] },
      };
    }),
  );

  scope.get(
    '/rest/organizations/:id',
    handle(true, async (request) => {
      await state.authenticate(request.headers.authorization);
      const org = await state.getOrganization((request.params as { id: string }).id);
      if (!org) throw linkedInErrors.notFound('Organization');
      return organizationBody(org);
    }),
  );
}
