import { z } from 'zod';

/**
 * Every error the API can answer, with its HTTP status. Services throw `AppError(code, message)`;
 * one handler turns it into the envelope `{status:'error', code, message, details?}`.
 */
export const ERROR_STATUS = {
  /** The request body or query does not match the contract. */
  VALIDATION_FAILED: 400,
  /** The body could not be parsed (malformed JSON, wrong content type). */
  BAD_REQUEST: 400,
  /** No valid session: sign in (or refresh) first. */
  UNAUTHENTICATED: 401,
  /** Signed in, but the role or plan does not allow this. */
  FORBIDDEN: 403,
  /** The path or the record does not exist (or belongs to another organization). */
  NOT_FOUND: 404,
  /** The record changed meanwhile or already exists. */
  CONFLICT: 409,
  /** The link or token was valid once but has expired. */
  EXPIRED: 410,
  /** The body is larger than the server accepts. */
  PAYLOAD_TOO_LARGE: 413,
  /** The body's media type is not accepted by this route. */
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** Too many requests in a short time. */
  RATE_LIMITED: 429,
  /** A bug on our side; the message never carries internals. */
  INTERNAL: 500,
  /** A dependency (the database) is unreachable; try again shortly. */
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export const ErrorEnvelopeSchema = z.object({
  status: z.literal('error'),
  code: z.enum(ERROR_CODES),
  message: z.string(),
  details: z.unknown().optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;
