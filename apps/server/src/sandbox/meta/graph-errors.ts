import { randomBytes } from 'node:crypto';

/** A Graph error to answer with Meta's envelope (§2.7, §7.2). */
export class GraphFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly subcode?: number,
    readonly type = 'OAuthException',
  ) {
    super(message);
  }

  body() {
    return {
      error: {
        message: this.message,
        type: this.type,
        code: this.code,
        ...(this.subcode !== undefined ? { error_subcode: this.subcode } : {}),
        fbtrace_id: randomBytes(8).toString('base64url'),
      },
    };
  }
}

/** The errors the emulator gives, with Meta's codes and wording. */
export const graphErrors = {
  noToken: () =>
    new GraphFailure(
      400,
      2500,
      'An active access token must be used to query information about the current user.',
    ),
  badToken: () =>
    new GraphFailure(400, 190, 'Invalid OAuth access token - Cannot parse access token'),
  expired: () =>
    new GraphFailure(400, 190, 'Error validating access token: Session has expired.', 463),
  appRemoved: () =>
    new GraphFailure(
      400,
      190,
      'Error validating access token: The user has not authorized application herald-sandbox.',
      458,
    ),
  sessionInvalidated: () =>
    new GraphFailure(
      400,
      190,
      'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.',
      460,
    ),
  badAppId: () =>
    new GraphFailure(400, 101, 'Error validating application. Invalid application ID.'),
  badSecret: () => new GraphFailure(400, 1, 'Error validating client secret.'),
  redirectMismatch: () =>
    new GraphFailure(
      400,
      100,
      'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
      36008,
    ),
  unknownCode: () => new GraphFailure(400, 100, 'Invalid verification code format.'),
  codeUsed: () => new GraphFailure(400, 100, 'This authorization code has been used.', 36009),
  codeExpired: () => new GraphFailure(400, 100, 'This authorization code has expired.', 36007),
  missingParam: (name: string) =>
    new GraphFailure(
      400,
      100,
      `(#100) Missing parameter: ${name}`,
      undefined,
      'GraphMethodException',
    ),
  noPermission: (permission: string) =>
    new GraphFailure(
      403,
      10,
      `(#10) Application does not have permission for this action (${permission})`,
    ),
  unknownField: (field: string, nodeType: string) =>
    new GraphFailure(
      400,
      100,
      `(#100) Tried accessing nonexisting field (${field}) on node type (${nodeType})`,
    ),
  notFound: (id: string) =>
    new GraphFailure(
      400,
      100,
      `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      33,
      'GraphMethodException',
    ),
  unknownPath: (path: string) => new GraphFailure(400, 2500, `Unknown path components: /${path}`),
};
