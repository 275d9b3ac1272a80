import { z } from 'zod';
import { successEnvelope } from './envelope.js';
import { isoDateTime } from './text.js';

/**
 * docs/evergreen.md: evergreen collections refill the posting queue's empty slots with copies
 * of their posts, in turn, each post at most every `minDaysBetween` days; and "repeat every N
 * days or weeks until a date" on one post.
 */

/** How far ahead the evergreen job fills empty slots (the calendar projects further). */
export const EVERGREEN_FILL_AHEAD_HOURS = 24;
/** The widest range the calendar may ask a projection for (as for empty slots). */
export const EVERGREEN_PROJECTION_MAX_DAYS = 62;
/** Posts one collection may hold. */
export const EVERGREEN_MAX_POSTS = 500;

const IntegrationIdsSchema = z
  .array(
    z.uuid('Each account is the id of a connected account.'),
    'Choose the accounts to post to.',
  )
  .min(1, 'Choose at least one account to post to.')
  .max(10, 'A collection can post to at most 10 accounts.')
  .refine((ids) => new Set(ids).size === ids.length, 'Choose each account once.');

const NameSchema = z
  .string('Give the collection a name.')
  .trim()
  .min(1, 'Give the collection a name.')
  .max(100, 'Keep the name under 100 characters.');

const MinDaysSchema = z
  .number('minDaysBetween is a number of days.')
  .int('minDaysBetween is a whole number of days.')
  .min(1, 'A post can come back at most once a day: minDaysBetween is 1 or more.')
  .max(365, 'minDaysBetween is at most 365 days.');

const EndCyclesSchema = z
  .number('endAfterCycles is a number of times.')
  .int('endAfterCycles is a whole number of times.')
  .min(1, 'endAfterCycles is 1 or more (or null for no end).')
  .max(1000, 'endAfterCycles is at most 1,000.');

const PostIdsSchema = z
  .array(z.uuid('Each post is the id of a post.'), 'Choose the posts.')
  .min(1, 'Choose at least one post.')
  .max(100, 'Add at most 100 posts at a time.');

export const CreateEvergreenCollectionRequestSchema = z.object({
  name: NameSchema,
  integrationIds: IntegrationIdsSchema,
  minDaysBetween: MinDaysSchema.default(30),
  /** Each post goes out at most this many times from the collection; null: no end. */
  endAfterCycles: EndCyclesSchema.nullable().default(null),
  /** No fill after this moment; null: no end date. */
  endAt: isoDateTime('endAt').nullable().default(null),
  paused: z.boolean('paused is true or false.').default(false),
  /** Posts to start with, in this order. */
  postIds: PostIdsSchema.optional(),
});
export type CreateEvergreenCollectionRequest = z.input<
  typeof CreateEvergreenCollectionRequestSchema
>;

export const UpdateEvergreenCollectionRequestSchema = z
  .object({
    name: NameSchema.optional(),
    integrationIds: IntegrationIdsSchema.optional(),
    minDaysBetween: MinDaysSchema.optional(),
    endAfterCycles: EndCyclesSchema.nullable().optional(),
    endAt: isoDateTime('endAt').nullable().optional(),
    paused: z.boolean('paused is true or false.').optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message:
      'Say what to change: name, integrationIds, minDaysBetween, endAfterCycles, endAt or paused.',
  });
export type UpdateEvergreenCollectionRequest = z.input<
  typeof UpdateEvergreenCollectionRequestSchema
>;

export const EvergreenPostsRequestSchema = z.object({ postIds: PostIdsSchema });
export type EvergreenPostsRequest = z.input<typeof EvergreenPostsRequestSchema>;

export const EvergreenCollectionParamsSchema = z.object({
  orgId: z.uuid('The organization id is not valid.'),
  collectionId: z.uuid('The collection id is not valid.'),
});
export const EvergreenPostParamsSchema = EvergreenCollectionParamsSchema.extend({
  postId: z.uuid('The post id is not valid.'),
});

export const EvergreenPostSchema = z.object({
  postId: z.string(),
  /** The post's title, else the start of its text. */
  label: z.string(),
  position: z.number().int(),
  /** How many copies the collection has made of it, and the slot of the latest. */
  useCount: z.number().int(),
  lastUsedAt: z.string().nullable(),
  addedAt: z.string(),
});
export type EvergreenPost = z.infer<typeof EvergreenPostSchema>;

export const EvergreenCollectionSchema = z.object({
  id: z.string(),
  name: z.string(),
  integrationIds: z.array(z.string()),
  minDaysBetween: z.number().int(),
  endAfterCycles: z.number().int().nullable(),
  endAt: z.string().nullable(),
  paused: z.boolean(),
  /** true once the end is reached (the date passed, or every post went out endAfterCycles times). */
  ended: z.boolean(),
  postCount: z.number().int(),
  fillCount: z.number().int(),
  lastFillAt: z.string().nullable(),
  /** Why the last copy could not be made, in plain words; null when it worked. */
  lastError: z.string().nullable(),
  createdAt: z.string(),
});
export type EvergreenCollection = z.infer<typeof EvergreenCollectionSchema>;

export const EvergreenCollectionResponseSchema = successEnvelope(
  z.object({ collection: EvergreenCollectionSchema }),
);
export const EvergreenCollectionDetailResponseSchema = successEnvelope(
  z.object({ collection: EvergreenCollectionSchema, posts: z.array(EvergreenPostSchema) }),
);
export const EvergreenCollectionListResponseSchema = successEnvelope(
  z.object({ collections: z.array(EvergreenCollectionSchema) }),
);

/** GET …/evergreen-collections/projection?from&to: what the job will put in empty slots. */
export const EvergreenProjectionQuerySchema = z.object({
  from: isoDateTime('from'),
  to: isoDateTime('to'),
});
export const EvergreenFillSchema = z.object({
  at: z.string(),
  collectionId: z.string(),
  collectionName: z.string(),
  integrationIds: z.array(z.string()),
  postId: z.string(),
  label: z.string(),
});
export type EvergreenFill = z.infer<typeof EvergreenFillSchema>;
export const EvergreenProjectionResponseSchema = successEnvelope(
  z.object({ fills: z.array(EvergreenFillSchema) }),
);

/** "Repeat every N days or weeks until a date" on one post. */
export const REPEAT_UNITS = ['day', 'week'] as const;
export type RepeatUnit = (typeof REPEAT_UNITS)[number];

export const PutPostRepeatRequestSchema = z.object({
  every: z
    .number('every is a number.')
    .int('every is a whole number.')
    .min(1, 'Repeat at least every 1 day.')
    .max(365, 'Repeat at most every 365 days or weeks.'),
  unit: z.enum(REPEAT_UNITS, { error: 'unit is day or week.' }),
  until: isoDateTime('until'),
});
export type PutPostRepeatRequest = z.input<typeof PutPostRepeatRequestSchema>;

export const PostRepeatSchema = z.object({
  id: z.string(),
  /** The occurrence that goes out next (the next is made from it when it goes out). */
  postId: z.string(),
  every: z.number().int(),
  unit: z.enum(REPEAT_UNITS),
  until: z.string(),
  /** Occurrences made so far, the first included. */
  occurrences: z.number().int(),
  /** When the next occurrence would go out after the current one; null once past `until`. */
  nextAt: z.string().nullable(),
});
export type PostRepeat = z.infer<typeof PostRepeatSchema>;
export const PostRepeatResponseSchema = successEnvelope(
  z.object({ repeat: PostRepeatSchema.nullable() }),
);

const DAY_MS = 86_400_000;
/** The repeat's step in milliseconds (a week is seven days of 24 hours, as the slots count). */
export const repeatStepMs = (every: number, unit: RepeatUnit) =>
  every * (unit === 'week' ? 7 : 1) * DAY_MS;
