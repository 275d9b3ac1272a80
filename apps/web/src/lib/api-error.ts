import type { ErrorEnvelope } from '@herald/contract';

/**
 * An API call that did not succeed. `code` is one of the contract's error codes when the
 * server answered with its error envelope, or a client-side code: NETWORK_ERROR (no answer),
 * HTTP_ERROR (an answer without the envelope, e.g. from a proxy) or INVALID_RESPONSE (a
 * success answer that does not match the contract).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown;

  constructor(status: number, code: string, message: string, details?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The server's sentence when there is one, else the caller's fallback (docs/product.md#messages). */
export function errorMessage(error: unknown, fallback: string): string {
  if (isApiError(error) && error.code !== 'INVALID_RESPONSE' && error.message) return error.message;
  return fallback;
}

export const NETWORK_MESSAGE = 'Could not reach the server. Check your connection and try again.';

/**
 * The contract's error envelope (ErrorEnvelopeSchema), checked by hand: every page needs it, and
 * zod is not part of the first download. Unknown error codes are accepted too, so a newer
 * server never turns an error into a parse failure.
 */
function errorEnvelope(body: unknown): (Omit<ErrorEnvelope, 'code'> & { code: string }) | null {
  if (typeof body !== 'object' || body === null) return null;
  const { status, code, message, details } = body as Record<string, unknown>;
  if (status !== 'error' || typeof code !== 'string' || typeof message !== 'string') return null;
  return { status, code, message, details };
}

/** An answer's body as JSON, or undefined when it is empty or not JSON. */
export function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The error a failed answer stands for: the server's envelope, or a sentence about the status. */
export function apiErrorFrom(status: number, text: string): ApiError {
  const envelope = errorEnvelope(parseJson(text));
  if (envelope) return new ApiError(status, envelope.code, envelope.message, envelope.details);
  return new ApiError(
    status,
    'HTTP_ERROR',
    `The server answered with an unexpected error (${status}). Please try again.`,
  );
}
