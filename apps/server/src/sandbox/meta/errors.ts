import { randomBytes } from 'node:crypto';

/** What Meta adds for people (shown in its apps) and for retry logic. */
export interface GraphFailureExtra {
  userTitle?: string;
  userMsg?: string;
  isTransient?: boolean;
  /** Meta's `error_data` (an upload's offsets). */
  errorData?: Record<string, unknown>;
}

/** A Graph error to answer with Meta's envelope (docs/networks.md#meta-errors, #meta-sandbox). */
export class GraphFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly subcode?: number,
    readonly type = 'OAuthException',
    readonly extra: GraphFailureExtra = {},
  ) {
    super(message);
  }

  /** Headers sent with the error (Meta's usage headers). */
  headers: Record<string, string> = {};

  body() {
    return {
      error: {
        message: this.message,
        type: this.type,
        code: this.code,
        ...(this.subcode !== undefined ? { error_subcode: this.subcode } : {}),
        ...(this.extra.isTransient !== undefined ? { is_transient: this.extra.isTransient } : {}),
        ...(this.extra.userTitle ? { error_user_title: this.extra.userTitle } : {}),
        ...(this.extra.userMsg ? { error_user_msg: this.extra.userMsg } : {}),
        ...(this.extra.errorData ? { error_data: this.extra.errorData } : {}),
        fbtrace_id: randomBytes(8).toString('base64url'),
      },
    };
  }
}

/** Throttling messages by code (docs/networks.md#meta-errors): app, user, Page, and per-API limits. */
const RATE_LIMIT_MESSAGES: Record<number, string> = {
  4: '(#4) Application request limit reached',
  17: '(#17) User request limit reached',
  32: '(#32) Page request limit reached',
  613: '(#613) Calls to this api have exceeded the rate limit.',
};

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
  notFound: (id: string, method: 'get' | 'post' | 'delete' = 'get') =>
    new GraphFailure(
      400,
      100,
      `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      33,
      'GraphMethodException',
    ),
  /** Codes 1/2: Meta's side failed; `is_transient` says trying again is fine. */
  unavailable: () =>
    new GraphFailure(
      500,
      2,
      'An unexpected error has occurred. Please retry your request later.',
      undefined,
      'OAuthException',
      { isTransient: true },
    ),
  rateLimited: (code: number) =>
    new GraphFailure(
      400,
      RATE_LIMIT_MESSAGES[code] ? code : 4,
      RATE_LIMIT_MESSAGES[code] ?? RATE_LIMIT_MESSAGES[4]!,
      undefined,
      'OAuthException',
      { isTransient: true },
    ),
  /**
   * A Business Use Case throttle: 80001 for a Page, 80002 for an Instagram account, with the
   * `X-Business-Use-Case-Usage` header Meta sends (usage per business object id, and the
   * minutes until calls are accepted again).
   */
  businessUseCaseThrottled: (instagram: boolean, objectId: string, minutes: number) => {
    const failure = new GraphFailure(
      400,
      instagram ? 80002 : 80001,
      `There have been too many calls to this ${instagram ? 'Instagram' : 'Page'} account. Wait a bit and try again. For more info, please refer to https://developers.facebook.com/docs/graph-api/overview/rate-limiting.`,
      undefined,
      'OAuthException',
      { isTransient: true },
    );
    failure.headers['x-business-use-case-usage'] = JSON.stringify({
      [objectId]: [
        {
          type: instagram ? 'instagram' : 'pages',
          call_count: 100,
          total_cputime: 12,
          total_time: 20,
          estimated_time_to_regain_access: minutes,
        },
      ],
    });
    return failure;
  },
  /** Code 368: the action was judged abusive or against the rules; blocked for a while. */
  policyBlocked: () =>
    new GraphFailure(
      400,
      368,
      'The action attempted has been deemed abusive or is otherwise disallowed',
      undefined,
      'OAuthException',
      {
        userTitle: "You Can't Post Right Now",
        userMsg:
          "You're temporarily blocked from posting because your account was found to be posting content that goes against our Community Standards.",
      },
    ),
  invalidParam: (message: string, userMsg?: string, subcode?: number) =>
    new GraphFailure(400, 100, message, subcode, 'OAuthException', {
      ...(userMsg ? { userTitle: 'Invalid parameter', userMsg } : {}),
    }),
  unknownPath: (path: string) => new GraphFailure(400, 2500, `Unknown path components: /${path}`),
  /** Instagram: `media_publish` before the container is FINISHED. */
  notReady: () =>
    new GraphFailure(400, 9007, 'Media ID is not available', 2207027, 'OAuthException', {
      userTitle: 'Media not ready',
      userMsg: 'The media is not ready for publishing, please wait for a moment',
    }),
  /** Instagram: the rolling 24 h publishing cap (`content_publishing_limit`). */
  publishLimit: (total: number) =>
    new GraphFailure(400, 9, 'Application request limit reached', 2207042, 'OAuthException', {
      userTitle: 'Reached publishing limit',
      userMsg: `You reached the maximum number of posts (${total}) that can be published with the API in 24 hours.`,
    }),
  /** Instagram fetches `image_url` when the container is created. */
  mediaFetch: () =>
    new GraphFailure(
      400,
      9004,
      'Only photo or video can be accepted as media type.',
      2207052,
      'OAuthException',
      {
        userTitle: 'Media download has failed',
        userMsg: "Media download has failed. The media URI doesn't meet our requirements.",
      },
    ),
  containerExpired: () =>
    new GraphFailure(400, 100, 'The media container has expired.', 2207008, 'OAuthException', {
      userTitle: 'Media expired',
      userMsg: 'This media container was not published within 24 hours. Create a new one.',
    }),
  containerFailed: (status: string) =>
    new GraphFailure(400, 9007, status, undefined, 'OAuthException', {
      userTitle: 'Media could not be processed',
      userMsg: status,
    }),
  alreadyPublished: () =>
    new GraphFailure(400, 9007, 'The media has already been published.', 2207006),
  duplicate: () =>
    new GraphFailure(400, 506, 'Duplicate status message', undefined, 'OAuthException', {
      userTitle: 'Duplicate post',
      userMsg:
        'This status update is identical to the last one you posted. Try posting something different, or delete your previous update.',
    }),
  pagePublishing: () =>
    new GraphFailure(
      403,
      200,
      '(#200) If posting to a page, requires both pages_read_engagement and pages_manage_posts as an admin with sufficient administrative permission',
    ),
  requiresUpload: () => new GraphFailure(400, 324, '(#324) Requires upload file'),
  /** A video Facebook could not take: no finished upload behind the handle. */
  videoUploadFailed: (userMsg: string) =>
    new GraphFailure(
      400,
      390,
      'There was a problem uploading your video file. Please try again.',
      1363030,
      'OAuthException',
      { userTitle: 'Video upload failed', userMsg },
    ),
  /**
   * Bytes sent from another offset than the session holds: Meta's upload refusal, with the
   * offset it expects in `error_data` (the shape of Facebook's chunked video uploads).
   */
  wrongOffset: (expected: number, length: number) =>
    new GraphFailure(
      400,
      6001,
      'There was a problem uploading your video. Please try again.',
      1363037,
      'OAuthException',
      {
        isTransient: false,
        userTitle: 'Error Uploading Video',
        userMsg: 'There was a problem uploading your video. Please try uploading it again.',
        errorData: { start_offset: expected, end_offset: length },
      },
    ),
  /** Instagram: "Create media fail, please try to re-create media" (code -1, try again). */
  createMediaFailed: () =>
    new GraphFailure(
      400,
      -1,
      'Create media fail, please try to re-create media',
      2207032,
      'OAuthException',
      {
        isTransient: true,
        userTitle: 'Create media failed',
        userMsg: 'Failed to create a media container. Try again.',
      },
    ),
  /** Instagram feed images: JPEG only. */
  /** Instagram: an image over 8 MB. */
  imageTooLarge: () =>
    new GraphFailure(400, 36001, 'The image size is too large.', 2207004, 'OAuthException', {
      userTitle: 'Image is too large',
      userMsg: 'The image is too large to download. It should be less than 8 MiB.',
    }),
  imageFormat: (format: string) =>
    new GraphFailure(
      400,
      36001,
      `The image format (${format}) is not supported.`,
      2207005,
      'OAuthException',
      {
        userTitle: 'Unsupported image format',
        userMsg: 'Instagram only accepts JPEG images. Use a JPEG file.',
      },
    ),
  /** Instagram feed images: width ÷ height from 4:5 to 1.91:1. */
  aspectRatio: (ratio: string) =>
    new GraphFailure(
      400,
      36003,
      `The submitted image with aspect ratio ('${ratio}') cannot be published. Please submit an image with a valid aspect ratio.`,
      2207009,
      'OAuthException',
      {
        userTitle: 'Invalid aspect ratio',
        userMsg: 'The aspect ratio is not supported. Use an image from 4:5 to 1.91:1.',
      },
    ),
};
