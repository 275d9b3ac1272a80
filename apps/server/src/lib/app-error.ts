import { ERROR_STATUS, type ErrorCode } from '@herald/contract';

/** The one error services throw. The error handler turns it into the API's error envelope. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }

  get statusCode(): number {
    return ERROR_STATUS[this.code];
  }
}

/**
 * An error of a lower layer that has an answer for an API caller (a network module's error the
 * user can act on): the error handler answers with `toAppError()` instead of a 500.
 */
export interface AnswerableError {
  toAppError(): AppError;
}

export function isAnswerable(err: unknown): err is AnswerableError {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as Partial<AnswerableError>).toAppError === 'function'
  );
}
