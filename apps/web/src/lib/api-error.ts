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

/** The server's sentence when there is one, else the caller's fallback (spec §8). */
export function errorMessage(error: unknown, fallback: string): string {
  if (isApiError(error) && error.code !== 'INVALID_RESPONSE' && error.message) return error.message;
  return fallback;
}
