import type { FastifyReply } from 'fastify';
import { randomBytes } from 'node:crypto';

/** The one scope of the Business Profile APIs (and its legacy name, still accepted). */
export const BUSINESS_MANAGE = 'https://www.googleapis.com/auth/business.manage';
export const KNOWN_SCOPES = new Set([
  BUSINESS_MANAGE,
  'https://www.googleapis.com/auth/plus.business.manage',
  'openid',
  'email',
  'profile',
]);

/** What the local post rules are (docs/networks.md#google-business-profile-sandbox). */
export const GBP_EMULATOR = {
  summaryMax: 1_500,
  photoMaxBytes: 5 * 1024 * 1024,
  photoMin: { width: 250, height: 250 },
  photoFormats: ['jpeg', 'png'],
  reviewsPageMax: 50,
  localPostsPageMax: 100,
  replyMaxBytes: 4_096,
  actionTypes: ['BOOK', 'ORDER', 'SHOP', 'LEARN_MORE', 'SIGN_UP', 'CALL', 'GET_OFFER'],
  topicTypes: ['STANDARD', 'EVENT', 'OFFER', 'ALERT'],
} as const;

/** Google's numeric ids: accounts and locations are long digit strings. */
export const digits = (n: number) =>
  Array.from(randomBytes(n), (b) => String(b % 10))
    .join('')
    .replace(/^0/, '1');

const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

/** Google's API error answer (google.rpc.Status): `{error: {code, message, status, details?}}`. */
export function gbpError(reply: FastifyReply, code: number, message: string, details?: unknown[]) {
  return reply.status(code).send({
    error: { code, message, status: STATUS[code] ?? 'UNKNOWN', ...(details ? { details } : {}) },
  });
}

/**
 * The v4 API's refusal of a local post: INVALID_ARGUMENT with a `ValidationError` naming each
 * field and what is wrong with it.
 */
export function validationError(
  reply: FastifyReply,
  problems: Array<{ field: string; message: string }>,
) {
  return gbpError(reply, 400, 'Request contains an invalid argument.', [
    {
      '@type': 'type.googleapis.com/google.mybusiness.v4.ValidationError',
      errorDetails: problems.map((p) => ({ code: 3, field: p.field, message: p.message })),
    },
  ]);
}

export const unauthenticated = (reply: FastifyReply) =>
  gbpError(
    reply,
    401,
    'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
  );

/** A project Google has not approved for the Business Profile APIs: quota 0, every call 429. */
export const notApproved = (reply: FastifyReply, service: string) =>
  gbpError(
    reply,
    429,
    `Quota exceeded for quota metric 'Requests' and limit 'Requests per minute' of service '${service}' for consumer 'project_number:0'.`,
    [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'RATE_LIMIT_EXCEEDED',
        domain: 'googleapis.com',
        metadata: { quota_limit_value: '0', service },
      },
    ],
  );
