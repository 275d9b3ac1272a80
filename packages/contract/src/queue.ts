import { z } from 'zod';
import { successEnvelope } from './envelope.js';
import { isoDateTime } from './text.js';

/**
 * The posting queue (docs/queue-and-import.md): weekly time slots per connected account, read in
 * the queue's time zone (docs/queue-and-import.md#the-queues-time-zone). "Add to queue" schedules
 * a post at the earliest slot time that every chosen account has and that no scheduled post of
 * any of them occupies.
 */

/** Weekdays as the queue numbers them: 0 = Monday … 6 = Sunday. */
export const QUEUE_WEEKDAYS = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const;
/** The most slots one account's week may have. */
export const QUEUE_MAX_SLOTS = 100;
/** How far ahead "Add to queue" looks for a free slot. */
export const QUEUE_HORIZON_WEEKS = 12;
/** The widest range of empty slots the calendar may ask for at once. */
export const QUEUE_SLOTS_MAX_DAYS = 62;

export const QueueSlotSchema = z.object({
  weekday: z
    .number()
    .int()
    .min(0, 'weekday must be 0 (Monday) to 6 (Sunday).')
    .max(6, 'weekday must be 0 (Monday) to 6 (Sunday).'),
  /** Wall time "HH:mm" (24-hour) in the queue's time zone. */
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'time must be HH:mm, like 09:00 or 17:30.'),
});
export type QueueSlot = z.infer<typeof QueueSlotSchema>;

/** Three times each weekday, the hours most audiences read. */
export const SUGGESTED_QUEUE_TIMES = ['09:00', '12:00', '17:00'] as const;
/**
 * The week an account starts with when it is first connected and no other account of the
 * organization has times to copy, and what the settings offer for an empty week.
 */
export const SUGGESTED_QUEUE_WEEK: readonly QueueSlot[] = [0, 1, 2, 3, 4].flatMap((weekday) =>
  SUGGESTED_QUEUE_TIMES.map((time) => ({ weekday, time })),
);

export const QueueAccountSchema = z.object({
  integrationId: z.string(),
  platformName: z.string(),
  name: z.string().nullable(),
  username: z.string().nullable(),
  slots: z.array(QueueSlotSchema),
  /** Posts placed by "Add to queue" still waiting in their slot. */
  queuedCount: z.number().int(),
});
export type QueueAccount = z.infer<typeof QueueAccountSchema>;

/**
 * Where the queue's time zone comes from: `organization`, the organization's time zone;
 * `queue`, the zone kept with the queue when its times were first saved while the organization
 * had none (the member who saved them is `timeZoneSetBy`, null when it was the organization's
 * zone then, or they left); `member`, nothing saved yet: the caller's own zone, which their first
 * save keeps; `default`, UTC (neither the organization nor the caller has a zone).
 */
export const QUEUE_TIME_ZONE_SOURCES = ['organization', 'queue', 'member', 'default'] as const;
export type QueueTimeZoneSource = (typeof QUEUE_TIME_ZONE_SOURCES)[number];

export const QueueResponseSchema = successEnvelope(
  z.object({
    /** The IANA zone every slot's wall time is read in. */
    timeZone: z.string(),
    timeZoneSource: z.enum(QUEUE_TIME_ZONE_SOURCES),
    timeZoneSetBy: z.object({ id: z.string(), name: z.string() }).nullable(),
    accounts: z.array(QueueAccountSchema),
  }),
);
export type QueueData = z.infer<typeof QueueResponseSchema>['data'];

export const QueueAccountParamsSchema = z.object({
  orgId: z.uuid('The organization id is not valid.'),
  integrationId: z.uuid('The account id is not valid.'),
});

/** PUT …/queue/{integrationId}: the account's whole week (duplicates are kept once). */
export const PutQueueSlotsRequestSchema = z.object({
  slots: z
    .array(QueueSlotSchema)
    .max(QUEUE_MAX_SLOTS, `An account's queue can have at most ${QUEUE_MAX_SLOTS} slots a week.`),
});
export type PutQueueSlotsRequest = z.infer<typeof PutQueueSlotsRequestSchema>;
export const QueueAccountResponseSchema = successEnvelope(
  z.object({ account: QueueAccountSchema }),
);

/**
 * POST …/queue/{integrationId}/copy: gives these other accounts the account's saved week,
 * replacing theirs (their scheduled posts do not move).
 */
export const CopyQueueSlotsRequestSchema = z.object({
  integrationIds: z
    .array(z.uuid('integrationIds must be ids of connected accounts.'))
    .min(1, 'Choose at least one account to copy the times to.')
    .max(100, 'Choose at most 100 accounts.'),
});
export type CopyQueueSlotsRequest = z.infer<typeof CopyQueueSlotsRequestSchema>;
export const CopyQueueSlotsResponseSchema = successEnvelope(
  z.object({ accounts: z.array(QueueAccountSchema) }),
);

/** POST …/queue/{integrationId}/reshuffle: how many queued posts moved. */
export const ReshuffleResponseSchema = successEnvelope(
  z.object({ moved: z.number().int(), queued: z.number().int() }),
);

const IdListSchema = z.preprocess(
  (value) => (typeof value === 'string' ? value.split(',').filter(Boolean) : value),
  z
    .array(z.uuid('integrationIds must be ids of connected accounts, separated by commas.'))
    .min(1, 'Choose at least one account.')
    .max(10, 'Choose at most 10 accounts.'),
);

/** GET …/queue/next?integrationIds=a,b: the time "Add to queue" would use now. */
export const NextSlotQuerySchema = z.object({ integrationIds: IdListSchema });
export const NextSlotResponseSchema = successEnvelope(z.object({ at: z.string().nullable() }));

/** GET …/queue/slots?from&to: the empty slots of the range (the calendar's markers). */
export const EmptySlotsQuerySchema = z.object({
  from: isoDateTime('from'),
  to: isoDateTime('to'),
  integrationIds: IdListSchema.optional(),
});
export const EmptySlotSchema = z.object({ at: z.string(), integrationIds: z.array(z.string()) });
export type EmptySlot = z.infer<typeof EmptySlotSchema>;
export const EmptySlotsResponseSchema = successEnvelope(
  z.object({ slots: z.array(EmptySlotSchema) }),
);

/** Minutes of the day of "HH:mm". */
export const slotMinute = (time: string) =>
  Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
/** "HH:mm" of a minute of the day. */
export const slotTime = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
