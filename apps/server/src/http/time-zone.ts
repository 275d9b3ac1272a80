import { applicableTimeZone, type ApplicableTimeZone } from '@herald/contract';
import type { FastifyRequest } from 'fastify';

/**
 * The zone that applies to the caller (`applicableTimeZone`): on an organization route the
 * organization's time zone when it has one, else the caller's own, else UTC. Read from what the
 * access check already loaded (the session's user, the membership), so it costs no query.
 */
export function callerTimeZone(request: FastifyRequest): ApplicableTimeZone {
  return applicableTimeZone(
    request.member?.organizationTimeZone ?? null,
    request.auth?.user.timezone ?? null,
  );
}
