import { PlatformValidationErrorSchema, type PlatformValidationError } from '@herald/contract';
import { z } from 'zod';
import { errorMessage, isApiError } from '@/lib/api-error';

const NO_SUBSCRIPTION = 'No active subscription';
const FALLBACK = 'Something went wrong. Please try again.';

const ValidationDetailsSchema = z.object({
  platformValidationErrors: z.array(PlatformValidationErrorSchema).min(1),
});

/** How the composer answers a failed create (docs/product.md#messages "Post creation"). */
export type CreatePostFailure =
  /** 403 without a plan: the subscription dialog with the server's sentence. */
  | { kind: 'subscription'; message: string }
  /** 403 for a plan limit (posts per day): the Action Required modal, Upgrade Now. */
  | { kind: 'limit'; message: string }
  /** 400 with details.platformValidationErrors: the 6 s toast and the validation modal. */
  | { kind: 'media'; errors: PlatformValidationError[] }
  /** Anything else: a toast 'Failed to create post: {message}'. */
  | { kind: 'toast'; message: string };

export function classifyCreatePostError(
  error: unknown,
  /** 'update' when saving an edit: the toast then says 'Failed to update post: …'. */
  verb: 'create' | 'update' = 'create',
): CreatePostFailure {
  if (isApiError(error)) {
    const message = errorMessage(error, FALLBACK);
    if (error.status === 403 && message.includes(NO_SUBSCRIPTION)) {
      return { kind: 'subscription', message };
    }
    // The server's limit sentences end with a way out: "…or upgrade your plan."
    if (error.status === 403 && /upgrade/i.test(message)) return { kind: 'limit', message };
    if (error.status === 400) {
      const details = ValidationDetailsSchema.safeParse(error.details);
      if (details.success) return { kind: 'media', errors: details.data.platformValidationErrors };
    }
    return { kind: 'toast', message: `Failed to ${verb} post: ${message}` };
  }
  if (error instanceof z.ZodError) {
    return {
      kind: 'toast',
      message: `Failed to ${verb} post: ${error.issues[0]?.message ?? FALLBACK}`,
    };
  }
  return { kind: 'toast', message: `Failed to ${verb} post: ${FALLBACK}` };
}

/** 'X, Instagram': each refusing network once, in the server's order. */
export function platformList(errors: readonly PlatformValidationError[]): string {
  return [...new Set(errors.map((error) => error.platformName))].join(', ');
}
