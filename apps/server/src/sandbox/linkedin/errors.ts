import type { FastifyReply } from 'fastify';

/** A LinkedIn REST error (docs/networks.md#linkedin-errors): `{message, serviceErrorCode, status, code?}`. */
export class LinkedInFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly serviceErrorCode?: number,
    readonly code?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  send(reply: FastifyReply) {
    return reply
      .status(this.status)
      .headers(this.headers)
      .send({
        message: this.message,
        ...(this.serviceErrorCode !== undefined ? { serviceErrorCode: this.serviceErrorCode } : {}),
        ...(this.code ? { code: this.code } : {}),
        status: this.status,
      });
  }
}

/** An OAuth error from the token endpoints: `{error, error_description}`. */
export class OAuthFailure extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    description: string,
  ) {
    super(description);
  }

  send(reply: FastifyReply) {
    return reply.status(this.status).send({ error: this.error, error_description: this.message });
  }
}

export const linkedInErrors = {
  emptyToken: () => new LinkedInFailure(401, 'Empty oauth2_access_token', 401),
  invalidToken: () => new LinkedInFailure(401, 'Invalid access token', 65600),
  revoked: () =>
    new LinkedInFailure(401, 'The token used in the request has been revoked by the user', 65601),
  expired: () => new LinkedInFailure(401, 'The token used in the request has expired', 65602),
  denied: (resource: string) =>
    new LinkedInFailure(403, `Not enough permissions to access: ${resource}`, 100, 'ACCESS_DENIED'),
  notFound: (what: string) => new LinkedInFailure(404, `${what} not found`, undefined, 'NOT_FOUND'),
  badRequest: (message: string) => new LinkedInFailure(400, message, undefined, 'ILLEGAL_ARGUMENT'),
  /** Validation of a request body: LinkedIn's `ERROR :: /path :: reason` form. */
  invalid: (path: string, reason: string) =>
    new LinkedInFailure(422, `ERROR :: ${path} :: ${reason}`, 100, 'UNPROCESSABLE_ENTITY'),
  duplicate: (urn: string) =>
    new LinkedInFailure(422, `Content is a duplicate of ${urn}`, 100, 'DUPLICATE_POST'),
  server: () =>
    new LinkedInFailure(500, 'Internal Server Error', undefined, 'INTERNAL_SERVER_ERROR'),
  /** LinkedIn's windows are daily and reset at midnight UTC (docs/networks.md#linkedin-limits). */
  throttled: (nowMs = Date.now()) => {
    const midnight = new Date(nowMs);
    midnight.setUTCHours(24, 0, 0, 0);
    const seconds = Math.max(1, Math.ceil((midnight.getTime() - nowMs) / 1000));
    return new LinkedInFailure(
      429,
      'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.',
      undefined,
      'TOO_MANY_REQUESTS',
      { 'retry-after': String(seconds) },
    );
  },
  versionMissing: () =>
    new LinkedInFailure(
      400,
      'A version must be present. Please specify a version by adding the LinkedIn-Version header.',
      undefined,
      'VERSION_MISSING',
    ),
  /** LinkedIn names the version as a day: `202510` is "20251001", `202508.02` "20250802". */
  versionInactive: (version: string) =>
    new LinkedInFailure(
      426,
      `Requested version ${version.replace(/^(\d{6})(?:\.(\d{2}))?$/, (_, month: string, patch?: string) => `${month}${patch ?? '01'}`)} is not active`,
      undefined,
      'NONEXISTENT_VERSION',
    ),
  invalidClient: () => new OAuthFailure(401, 'invalid_client', 'Client authentication failed'),
  badCode: () =>
    new OAuthFailure(
      400,
      'invalid_request',
      'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired. Or external member binding exists',
    ),
  badRefresh: () =>
    new OAuthFailure(
      400,
      'invalid_grant',
      'The provided authorization grant or refresh token is invalid, expired or revoked',
    ),
};
