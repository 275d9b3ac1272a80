import { z } from 'zod';

/** Wraps an answer's data schema in the success envelope every API call uses. */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal('success'), data });
}

/** Pagination metadata returned beside lists that can grow. */
export const PageMetaSchema = z.object({
  page: z.number().int().min(1),
  pageSize: z.number().int().min(1),
  totalCount: z.number().int().min(0),
});

/** The answer of a call that changes something and has nothing to return. */
export const EmptySuccessSchema = successEnvelope(z.null());
