import type { FastifyReply, FastifyRequest } from 'fastify';
import { callFault } from '../kit/call-knobs.js';
import { bearerToken } from '../kit/consent.js';
import type { AccessCheck, SandboxOAuth } from '../kit/oauth-state.js';
import { scopeMissing, tiktokError, tokenInvalid, TIKTOK_PUBLISHING } from './responses.js';

export type TikTokAccess = Extract<AccessCheck, { ok: true }>;

/**
 * The check every open.tiktokapis.com call starts with: the Bearer token, the per-call knobs
 * (latency, throttling, outages) and the scope the endpoint needs. Sends TikTok's error answer
 * and returns null when the call must stop.
 */
export async function tiktokAccess(
  request: FastifyRequest,
  reply: FastifyReply,
  oauth: SandboxOAuth,
  scope?: string,
): Promise<TikTokAccess | null> {
  const check = await oauth.verifyAccess(bearerToken(request));
  if (!check.ok) {
    tokenInvalid(reply);
    return null;
  }
  const fault = await callFault(check.scenario);
  if (fault === 'rate_limit') {
    tiktokError(
      reply,
      429,
      'rate_limit_exceeded',
      'The API rate limit was exceeded. Please try again later.',
    );
    return null;
  }
  if (fault === 'fail') {
    tiktokError(reply, 500, 'internal_error', 'Something went wrong. Please try again later.');
    return null;
  }
  if (scope && !check.scopes.includes(scope)) {
    scopeMissing(reply, scope);
    return null;
  }
  return check;
}

/**
 * What creator_info offers this account: a private account (knob `creator_private`) is offered
 * followers and only-me; `interactions_off` is a creator who turned comments, duets and
 * stitches off in the TikTok app (docs/networks.md#scenario-knobs).
 */
export function creatorOffers(access: TikTokAccess) {
  const off = access.scenario.isOn('interactions_off');
  return {
    privacyLevelOptions: access.scenario.isOn('creator_private')
      ? ['FOLLOWER_OF_CREATOR', 'SELF_ONLY']
      : [...TIKTOK_PUBLISHING.privacyLevelOptions],
    commentDisabled: off,
    duetDisabled: off,
    stitchDisabled: off,
  };
}
