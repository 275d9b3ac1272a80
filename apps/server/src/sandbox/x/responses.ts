import type { FastifyReply, FastifyRequest } from 'fastify';

/** X's answer shapes and numbers as the emulator needs them (docs/networks.md#x, #x-sandbox). */
export const X_EMULATOR = {
  accessTokenSeconds: 7200,
  codeMaxAgeSeconds: 30,
  usersMeLimit: 75,
  windowSeconds: 900,
} as const;

/** Scopes X knows; anything else on the authorize URL is `invalid_scope`. */
export const X_KNOWN_SCOPES = new Set([
  'tweet.read',
  'tweet.write',
  'tweet.moderate.write',
  'users.read',
  'users.email',
  'follows.read',
  'follows.write',
  'offline.access',
  'space.read',
  'mute.read',
  'mute.write',
  'like.read',
  'like.write',
  'list.read',
  'list.write',
  'block.read',
  'block.write',
  'bookmark.read',
  'bookmark.write',
  'media.write',
  'dm.read',
  'dm.write',
]);

/** The API's RFC 7807 problem body. */
export function xProblem(
  reply: FastifyReply,
  status: number,
  title: string,
  detail: string,
  type = 'about:blank',
) {
  return reply.status(status).send({ title, detail, type, status });
}

export const xUnauthorized = (reply: FastifyReply) =>
  xProblem(reply, 401, 'Unauthorized', 'Unauthorized');

export function xRateLimited(reply: FastifyReply) {
  const reset = Math.ceil(Date.now() / 1000) + X_EMULATOR.windowSeconds;
  reply.headers({
    'x-rate-limit-limit': String(X_EMULATOR.usersMeLimit),
    'x-rate-limit-remaining': '0',
    'x-rate-limit-reset': String(reset),
  });
  return xProblem(reply, 429, 'Too Many Requests', 'Too Many Requests');
}

/** The token endpoint's OAuth error body. */
export const xOAuthError = (
  reply: FastifyReply,
  status: number,
  error: string,
  description: string,
) => reply.status(status).send({ error, error_description: description });

/** Publishing numbers the emulator enforces (docs/networks.md#x-publishing, #x-limits, #x-sandbox). */
export const X_PUBLISHING = {
  /** Weighted characters for accounts without a subscription. */
  maxWeightedLength: 280,
  /** Weighted characters for X Premium subscribers (the `premium` knob; docs/networks.md#x-limits). */
  maxWeightedLengthPremium: 25_000,
  maxMediaPerPost: 4,
  /** Video length (https://docs.x.com/x-api/media/quickstart/best-practices): 0.5–140 s. */
  videoSeconds: { min: 0.5, max: 140 },
  /**
   * Cashtags one API post may carry on self-serve tiers
   * (https://docs.x.com/x-api/posts/manage-tweets/integrate, "Post creation restrictions").
   */
  maxCashtags: 1,
  maxSegments: 1000,
  maxChunkBytes: 5 * 1024 * 1024,
  /** Room for a 5 MB chunk sent as base64 JSON or multipart. */
  uploadBodyLimit: 8 * 1024 * 1024,
  mediaExpiresSeconds: 86_400,
  /** How long video and GIF processing takes unless the processing_ms knob says otherwise. */
  processingMs: 1_500,
  /** `POST /2/tweets`: 100 per 15 min per user (publish_cap replaces the 100). */
  postsPerWindow: 100,
  postWindowSeconds: 900,
  /** The 24-hour cap per user the `daily_cap_next` knob reports (the free tier's 17), and when it resets. */
  postsPerDay: 17,
  dailyCapResetSeconds: 6 * 3600,
  /** Recent search sees the last 7 days. */
  searchWindowMs: 7 * 86_400_000,
  /** An identical text within this time is a duplicate. */
  duplicateWindowMs: 86_400_000,
} as const;

/** Media categories: the types each accepts, its size limit, and the media_key prefix. */
export const X_MEDIA_CATEGORIES: Record<
  string,
  { types: readonly string[]; maxBytes: number; keyPrefix: string; processes: boolean }
> = {
  tweet_image: {
    types: ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/bmp', 'image/pjpeg'],
    maxBytes: 5 * 1024 * 1024,
    keyPrefix: '3',
    processes: false,
  },
  tweet_gif: { types: ['image/gif'], maxBytes: 15 * 1024 * 1024, keyPrefix: '16', processes: true },
  tweet_video: {
    types: ['video/mp4', 'video/quicktime', 'video/webm'],
    maxBytes: 512 * 1024 * 1024,
    keyPrefix: '7',
    processes: true,
  },
  amplify_video: {
    types: ['video/mp4', 'video/quicktime', 'video/webm'],
    maxBytes: 512 * 1024 * 1024,
    keyPrefix: '13',
    processes: true,
  },
};

const PROBLEMS = 'https://api.x.com/2/problems';

/**
 * An X API error answer, thrown by the emulator's route code and sent by `xRoute`: an RFC 7807
 * problem, with `errors[]` for invalid requests as X sends them.
 */
export class XFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(String(body.detail ?? body.title ?? status));
  }

  send(reply: FastifyReply) {
    return reply.status(this.status).headers(this.headers).send(this.body);
  }
}

const problem = (status: number, title: string, detail: string, type = 'about:blank') =>
  new XFailure(status, { title, detail, type, status });

export const xFailures = {
  unauthorized: () => problem(401, 'Unauthorized', 'Unauthorized'),
  forbidden: (detail: string) => problem(403, 'Forbidden', detail),
  /** A token without a scope the endpoint needs. */
  missingScope: () =>
    problem(
      403,
      'Forbidden',
      'You are not permitted to perform this action.',
      `${PROBLEMS}/client-forbidden`,
    ),
  /**
   * An endpoint the app's access level does not include: since 2026-04-20 liking, following and
   * quote posts for every self-serve (pay-per-use) app (https://docs.x.com/changelog; the problem
   * type of https://docs.x.com/x-api/fundamentals/response-codes-and-errors).
   */
  clientNotEnrolled: () =>
    new XFailure(403, {
      title: 'Client Forbidden',
      detail:
        'This endpoint is not available to your app: it needs an access level above self-serve (pay-per-use). Enterprise access includes it.',
      reason: 'client-not-enrolled',
      required_enrollment: 'Appropriate Level of API Access',
      registration_url: 'https://docs.x.com/x-api/getting-started/pricing',
      type: `${PROBLEMS}/client-forbidden`,
      status: 403,
    }),
  notFound: (id: string) =>
    problem(
      404,
      'Not Found Error',
      `Could not find tweet with id: [${id}].`,
      `${PROBLEMS}/resource-not-found`,
    ),
  invalid: (message: string, parameters: Record<string, string[]> = {}) =>
    new XFailure(400, {
      errors: [{ parameters, message }],
      title: 'Invalid Request',
      detail: 'One or more parameters to your request was invalid.',
      type: `${PROBLEMS}/invalid-request`,
    }),
  server: () => problem(500, 'Internal Server Error', 'Internal Server Error'),
  rateLimited: (resetEpochSeconds: number, limit: number) =>
    new XFailure(
      429,
      { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
      {
        'x-rate-limit-limit': String(limit),
        'x-rate-limit-remaining': '0',
        'x-rate-limit-reset': String(resetEpochSeconds),
      },
    ),
};

/**
 * A post refused by the 24-hour cap of the user (X's answer on self-serve tiers): the 15-minute
 * window still has room, the daily one resets at `dailyResetEpochSeconds`.
 */
export function xDailyCapped(
  nowEpochSeconds: number,
  dailyResetEpochSeconds: number,
  dailyLimit: number,
) {
  return new XFailure(
    429,
    {
      title: 'Too Many Requests',
      detail: 'Too Many Requests',
      type: 'about:blank',
      status: 429,
    },
    {
      'x-rate-limit-limit': String(X_PUBLISHING.postsPerWindow),
      'x-rate-limit-remaining': String(X_PUBLISHING.postsPerWindow - 1),
      'x-rate-limit-reset': String(nowEpochSeconds + X_PUBLISHING.postWindowSeconds),
      'x-user-limit-24hour-limit': String(dailyLimit),
      'x-user-limit-24hour-remaining': '0',
      'x-user-limit-24hour-reset': String(dailyResetEpochSeconds),
      'x-app-limit-24hour-limit': '10000',
      'x-app-limit-24hour-remaining': '9000',
      'x-app-limit-24hour-reset': String(dailyResetEpochSeconds),
    },
  );
}

/** Wraps a route so a thrown XFailure becomes X's answer. */
export const xRoute =
  (handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
  async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      return await handler(request, reply);
    } catch (err) {
      if (err instanceof XFailure) return err.send(reply);
      throw err;
    }
  };

/** X escapes &, < and > in the text it returns. */
export const xEscapeText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
