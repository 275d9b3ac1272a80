import { z } from 'zod';
import { successEnvelope } from './envelope.js';

/**
 * docs/webhooks.md: the events an organization's webhook endpoints can subscribe to. Names follow
 * Standard Webhooks (dot-delimited, letters, digits and underscores), one payload shape per name.
 */
export const WEBHOOK_EVENT_TYPES = [
  'post.created',
  'post.updated',
  'post.scheduled',
  'post.published',
  'post.partially_published',
  'post.failed',
  'post.needs_check',
  'post.deleted',
  'approval.requested',
  'approval.approved',
  'approval.rejected',
  'inbox.message.received',
  'inbox.conversation.assigned',
  'account.connected',
  'account.disconnected',
  'account.needs_reconnect',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent by "Send test event" only; no endpoint subscribes to it. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

const KNOWN = new Set<string>(WEBHOOK_EVENT_TYPES);

const EventsSchema = z
  .array(z.string('Each event is a name such as post.published.'), 'Choose the events to send.')
  .min(1, 'Choose at least one event to send.')
  .max(WEBHOOK_EVENT_TYPES.length, 'Choose each event once.')
  .superRefine((events, ctx) => {
    const unknown = events.filter((e) => !KNOWN.has(e));
    if (unknown.length > 0)
      ctx.addIssue({
        code: 'custom',
        message: `Herald sends no event named ${unknown.map((e) => `"${e}"`).join(', ')}; the events are ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
      });
    if (new Set(events).size !== events.length)
      ctx.addIssue({ code: 'custom', message: 'Choose each event once.' });
  })
  .transform((events) => events as WebhookEventType[]);

const UrlSchema = z
  .string('Give the URL Herald should post the events to.')
  .trim()
  .min(1, 'Give the URL Herald should post the events to.')
  .max(2000, 'The webhook URL is too long.');

const DescriptionSchema = z
  .string('The description is text.')
  .trim()
  .max(200, 'Keep the description under 200 characters.');

export const CreateWebhookEndpointRequestSchema = z.object({
  url: UrlSchema,
  events: EventsSchema,
  description: DescriptionSchema.optional(),
});
export type CreateWebhookEndpointRequest = z.input<typeof CreateWebhookEndpointRequestSchema>;

export const UpdateWebhookEndpointRequestSchema = z
  .object({
    url: UrlSchema.optional(),
    events: EventsSchema.optional(),
    description: DescriptionSchema.nullable().optional(),
    enabled: z.boolean('Enabled is true or false.').optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: 'Say what to change: url, events, description or enabled.',
  });
export type UpdateWebhookEndpointRequest = z.input<typeof UpdateWebhookEndpointRequestSchema>;

export const WebhookEndpointParamsSchema = z.object({
  orgId: z.uuid('The organization id is not valid.'),
  endpointId: z.uuid('The webhook endpoint id is not valid.'),
});
export const WebhookDeliveryParamsSchema = WebhookEndpointParamsSchema.extend({
  deliveryId: z.uuid('The delivery id is not valid.'),
});

export const WebhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  enabled: z.boolean(),
  /** Why Herald turned it off (failing for days), else null. */
  disabledReason: z.string().nullable(),
  /** Since when every attempt has failed; null while it answers. */
  failingSince: z.string().nullable(),
  /** While set, the previous secret signs too (rotation). */
  previousSecretExpiresAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

export const WebhookEndpointResponseSchema = successEnvelope(
  z.object({ endpoint: WebhookEndpointSchema }),
);
/** Creation and rotation: the signing secret, shown this once. */
export const WebhookEndpointWithSecretResponseSchema = successEnvelope(
  z.object({ endpoint: WebhookEndpointSchema, secret: z.string() }),
);
export const WebhookEndpointListResponseSchema = successEnvelope(
  z.object({ endpoints: z.array(WebhookEndpointSchema) }),
);

export const WEBHOOK_DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;

export const WebhookAttemptSchema = z.object({
  id: z.string(),
  attemptedAt: z.string(),
  /** The receiver's HTTP status; null when none came (refused, unreachable, timed out). */
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int(),
  /** The first kilobyte of the answer. */
  responseExcerpt: z.string().nullable(),
  error: z.string().nullable(),
  succeeded: z.boolean(),
});
export type WebhookAttempt = z.infer<typeof WebhookAttemptSchema>;

export const WebhookDeliverySchema = z.object({
  id: z.string(),
  /** The `webhook-id` header: the same on every attempt and redelivery. */
  messageId: z.string(),
  type: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attemptCount: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  attempts: z.array(WebhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookDeliveryListResponseSchema = successEnvelope(
  z.object({ deliveries: z.array(WebhookDeliverySchema) }),
);
export const WebhookDeliveryResponseSchema = successEnvelope(
  z.object({ delivery: WebhookDeliverySchema }),
);
