import { z } from 'zod';
import { isWebUrl } from './web-url.js';

/**
 * What a Google Business Profile local post says besides its text
 * (docs/networks.md#google-business-profile-publishing): its kind (`topicType`), an event's title
 * and schedule, an offer's coupon, redeem link and terms, and a call-to-action button. They
 * travel with each Google Business Profile location of a post, as Mastodon's settings do.
 * Product posts cannot be made through the API; alerts are Google's own (COVID-19) and not offered.
 */
export const GBP_TOPIC_TYPES = ['STANDARD', 'EVENT', 'OFFER'] as const;
export type GbpTopicType = (typeof GBP_TOPIC_TYPES)[number];
export const GBP_TOPIC_LABELS: Record<GbpTopicType, string> = {
  STANDARD: 'Update',
  EVENT: 'Event',
  OFFER: 'Offer',
};

/** `callToAction.actionType` (v4 LocalPost ActionType); CALL dials the location's phone, no URL. */
export const GBP_ACTION_TYPES = ['BOOK', 'ORDER', 'SHOP', 'LEARN_MORE', 'SIGN_UP', 'CALL'] as const;
export type GbpActionType = (typeof GBP_ACTION_TYPES)[number];
export const GBP_ACTION_LABELS: Record<GbpActionType, string> = {
  BOOK: 'Book',
  ORDER: 'Order online',
  SHOP: 'Buy',
  LEARN_MORE: 'Learn more',
  SIGN_UP: 'Sign up',
  CALL: 'Call now',
};

/** An event's or offer's title: Google refuses more than 58 characters. */
export const GBP_EVENT_TITLE_MAX = 58;
/** The offer's terms and conditions. */
export const GBP_TERMS_MAX = 5_000;
export const GBP_COUPON_MAX = 58;

const day = z
  .string({ error: 'Dates must be written as YYYY-MM-DD.' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates must be written as YYYY-MM-DD.');
const time = z
  .string({ error: 'Times must be written as HH:MM.' })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Times must be written as HH:MM (24-hour clock).');
const link = z
  .string()
  .trim()
  .max(2048, 'The link can be at most 2,048 characters.')
  .refine(
    (v) => v === '' || isWebUrl(v),
    'The link must be a full web address starting with https://.',
  );

export const GbpEventSchema = z.object({
  title: z
    .string()
    .trim()
    .max(GBP_EVENT_TITLE_MAX, `The title can be at most ${GBP_EVENT_TITLE_MAX} characters.`)
    .default(''),
  startDate: day.nullable().default(null),
  startTime: time.nullable().default(null),
  endDate: day.nullable().default(null),
  endTime: time.nullable().default(null),
});
export type GbpEvent = z.infer<typeof GbpEventSchema>;

export const GbpPostSettingsSchema = z.object({
  topicType: z
    .enum(GBP_TOPIC_TYPES, {
      error: 'The Google Business Profile post type must be STANDARD, EVENT or OFFER.',
    })
    .default('STANDARD'),
  /** EVENT and OFFER: the title and when it runs (Google requires both). */
  event: GbpEventSchema.nullable().default(null),
  /** OFFER only. */
  offer: z
    .object({
      couponCode: z
        .string()
        .trim()
        .max(GBP_COUPON_MAX, `The coupon code can be at most ${GBP_COUPON_MAX} characters.`)
        .default(''),
      redeemOnlineUrl: link.default(''),
      termsConditions: z
        .string()
        .trim()
        .max(GBP_TERMS_MAX, `The terms can be at most ${GBP_TERMS_MAX} characters.`)
        .default(''),
    })
    .nullable()
    .default(null),
  /** The button under the post; Google ignores it on offers, so Herald refuses it there. */
  callToAction: z
    .object({
      actionType: z.enum(GBP_ACTION_TYPES, {
        error: 'The button must be one of BOOK, ORDER, SHOP, LEARN_MORE, SIGN_UP or CALL.',
      }),
      url: link.default(''),
    })
    .nullable()
    .default(null),
});
export type GbpPostSettings = z.infer<typeof GbpPostSettingsSchema>;

/** Account (integration) id → its settings (the multipart field `googleBusiness`, as JSON). */
export const GbpSettingsByAccountSchema = z.record(z.string(), GbpPostSettingsSchema);

export const emptyGbpSettings = (): GbpPostSettings => ({
  topicType: 'STANDARD',
  event: null,
  offer: null,
  callToAction: null,
});

export type GbpSettingsField = 'title' | 'schedule' | 'callToAction' | 'offer';
export interface GbpSettingsIssue {
  field: GbpSettingsField;
  message: string;
}

const at = (date: string, t: string | null) => `${date}T${t ?? '00:00'}`;

/**
 * What Google would refuse in these settings, in sentences the composer shows beside the field
 * and the server answers with (a draft may stay incomplete). The adapter does not repeat these
 * checks: Google's own refusal is what a post that got past them meets.
 */
export function gbpSettingsIssues(settings: GbpPostSettings): GbpSettingsIssue[] {
  const issues: GbpSettingsIssue[] = [];
  const { topicType, event, callToAction } = settings;
  if (topicType !== 'STANDARD') {
    const kind = topicType === 'EVENT' ? 'An event' : 'An offer';
    if (!event?.title) issues.push({ field: 'title', message: `${kind} post needs a title.` });
    if (!event?.startDate || !event.endDate)
      issues.push({ field: 'schedule', message: `${kind} post needs a start and an end date.` });
    else if (at(event.endDate, event.endTime) < at(event.startDate, event.startTime))
      issues.push({ field: 'schedule', message: `${kind} cannot end before it starts.` });
  }
  if (topicType === 'OFFER' && callToAction)
    issues.push({
      field: 'callToAction',
      message: 'Google shows no button on offer posts: use the redeem link instead.',
    });
  if (callToAction && callToAction.actionType !== 'CALL' && !callToAction.url)
    issues.push({ field: 'callToAction', message: 'The button needs the link it opens.' });
  return issues;
}
