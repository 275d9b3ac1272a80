import { z } from 'zod';
import { successEnvelope } from './envelope.js';
import { WebUrlSchema } from './web-url.js';

/** The networks Herald can connect (docs/product.md#overview, #constants; LinkedIn added). */
export const PLATFORM_NAMES = [
  'X',
  'Instagram',
  'Facebook',
  'Threads',
  'TikTok',
  'LinkedIn',
  'Mastodon',
  'Bluesky',
  'YouTube',
  'Google Business Profile',
  'Pinterest',
] as const;
export type PlatformName = (typeof PLATFORM_NAMES)[number];

const bytes = z.number().int().positive();
const seconds = z.number().positive();
const dimensions = z.object({
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});

/** Rules for one media type (docs/product.md#platform-entity: allowedMimeTypes, maxFileSize, min/maxDuration, minDimensions). */
const MediaRuleSchema = z
  .object({
    allowedMimeTypes: z
      .array(z.string().regex(/^[a-z]+\/[a-z0-9.+-]+$/i, 'must be a MIME type like image/jpeg'))
      .min(1),
    maxFileSize: bytes.optional(),
    minDuration: seconds.optional(),
    maxDuration: seconds.optional(),
    minDimensions: dimensions.optional(),
    maxDimensions: dimensions.optional(),
    /** Narrowest and widest width ÷ height accepted (Instagram feed images: 0.8 = 4:5 to 1.91). */
    minAspectRatio: z.number().positive().optional(),
    maxAspectRatio: z.number().positive().optional(),
    /** Most media items in one post. */
    maxCount: z.number().int().positive().optional(),
  })
  .strict();
export type MediaRule = z.infer<typeof MediaRuleSchema>;

const TextRuleSchema = z
  .object({
    maxLength: z.number().int().positive(),
    /**
     * How the network counts: plain code points, X's weighted count, UTF-16 units, UTF-8 bytes, or
     * `emoji-bytes` (Threads: an emoji counts as its UTF-8 bytes, any other character as one), or
     * `urls-23` (Mastodon: code points, every link counted as 23 whatever its length, a mention
     * of someone on another server as its `@name` only), or `graphemes` (Bluesky: what a reader
     * sees as one character, 👍🏽 or é, counts once).
     */
    counting: z
      .enum([
        'codepoints',
        'x-weighted',
        'utf16',
        'utf8-bytes',
        'emoji-bytes',
        'urls-23',
        'graphemes',
      ])
      .default('codepoints'),
    /** Whether a post may have text and no media. */
    textOnlyAllowed: z.boolean().default(true),
  })
  .strict();

/** Per-platform rules, grouped by media type; every group is optional. */
export const MediaConstraintsSchema = z
  .object({
    image: MediaRuleSchema.optional(),
    video: MediaRuleSchema.optional(),
    reel: MediaRuleSchema.optional(),
    text: TextRuleSchema.optional(),
    /** Most items in one post, all types together. */
    maxMediaPerPost: z.number().int().positive().optional(),
  })
  .strict();
export type MediaConstraints = z.infer<typeof MediaConstraintsSchema>;

const PlatformSchema = z.object({
  id: z.string(),
  name: z.string(),
  isActive: z.boolean(),
  createdAt: z.string(),
  mediaConstraints: MediaConstraintsSchema,
  /** True when this server connects the network through its local sandbox (no credentials set). */
  sandbox: z.boolean(),
  /** Whether Herald has an adapter for it (operators may add names before one exists). */
  connectable: z.boolean(),
  /**
   * Networks whose accounts connect with an app password (Bluesky): whether this server also
   * offers signing in on the account's own server (AT Protocol OAuth, which needs Herald's public
   * https address). Absent for networks that always connect through their sign-in page.
   */
  offersSignInPage: z.boolean().optional(),
  /**
   * Networks that need one developer app per kind of account (LinkedIn: a personal profile or a
   * Page) offer one connect option per kind; absent for the others.
   */
  connectKinds: z
    .array(
      z.object({
        kind: z.string(),
        label: z.string(),
        /** What an account of this kind posts as, in one sentence for everyone. */
        description: z.string(),
        /** What the network's developer app needs for this kind, in one sentence for operators. */
        requirement: z.string(),
        sandbox: z.boolean(),
      }),
    )
    .optional(),
});
export type ConnectKindOption = NonNullable<Platform['connectKinds']>[number];
export type Platform = z.infer<typeof PlatformSchema>;
export const PlatformsResponseSchema = successEnvelope(
  z.object({ platforms: z.array(PlatformSchema) }),
);
export const PlatformResponseSchema = successEnvelope(z.object({ platform: PlatformSchema }));

/**
 * `GET /platforms/public-media-url` (operators): set when an active network that fetches post
 * media from Herald by URL (Instagram, Facebook, Threads, TikTok photos) runs with real
 * credentials and API_PUBLIC_URL is not a public https address; null when all is well.
 */
export const PublicMediaUrlFindingSchema = z.object({
  networks: z.array(z.string()),
  apiPublicUrl: z.string(),
  problem: z.string(),
  message: z.string(),
});
export type PublicMediaUrlFinding = z.infer<typeof PublicMediaUrlFindingSchema>;
export const PublicMediaUrlResponseSchema = successEnvelope(
  z.object({ finding: PublicMediaUrlFindingSchema.nullable() }),
);

export const CreatePlatformRequestSchema = z.object({
  name: z
    .string({ error: 'Name is required.' })
    .trim()
    .min(1, 'Name is required.')
    .max(60, 'Name must be at most 60 characters.'),
  mediaConstraints: MediaConstraintsSchema.default({}),
});
export const PlatformParamsSchema = z.object({ id: z.uuid('The platform id is not valid.') });

export const INTEGRATION_STATUSES = ['CONNECTED', 'DISCONNECTED', 'REFRESH_FAILED'] as const;

export const IntegrationSchema = z.object({
  id: z.string(),
  status: z.enum(INTEGRATION_STATUSES),
  platform: z.object({ id: z.string(), name: z.string() }),
  platformAccountId: z.string(),
  connectedAt: z.string(),
  tokenExpiresAt: z.string().nullable(),
  sandbox: z.boolean(),
  lastError: z.string().nullable(),
  metadata: z.object({
    pictureUrl: WebUrlSchema.nullable(),
    username: z.string().nullable(),
    name: z.string().nullable(),
  }),
  /** The connect kind it was connected as (LinkedIn `person` or `organization`); reconnecting uses it. */
  connectKind: z.string().nullable().optional(),
  /**
   * The account's own text limit, when it differs from its network's rule (an X Premium
   * subscriber may write long posts); null: the network's. See `constraintsForAccount`.
   */
  textLimit: z.number().int().positive().nullable(),
  /** Posts still to go out from this account (scheduled or publishing): what disconnecting it affects. */
  scheduledPostCount: z.number().int(),
});
export type Integration = z.infer<typeof IntegrationSchema>;
/** `GET /organizations/{orgId}/integrations` → data.platforms[] (docs/product.md#api-calls). */
export const IntegrationsResponseSchema = successEnvelope(
  z.object({ platforms: z.array(IntegrationSchema) }),
);
export const ConnectQuerySchema = z.object({
  orgId: z.uuid('Choose an organization before connecting an account.'),
});
/** `GET /auth/{platform}?orgId=&kind=`: `kind` picks the connect option of a network that has several. */
export const ConnectStartQuerySchema = ConnectQuerySchema.extend({
  kind: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z-]{1,40}$/, 'The kind of account is not valid.')
    .optional(),
  /**
   * The server to connect on, for networks of many servers (Mastodon): a host such as
   * `mastodon.social`, or what people paste for it (`https://mastodon.social/`, `@me@mastodon.social`).
   * For Bluesky's sign-in, the account that names its server (a handle or DID) or the server's
   * address (`https://bsky.social`).
   */
  instance: z
    .string()
    .trim()
    .max(300, 'The server name is too long.')
    .transform((v) => v.toLowerCase())
    .optional(),
});
export const PlatformSlugParamsSchema = z.object({ platform: z.string().trim().toLowerCase() });
export const DisconnectParamsSchema = z.object({
  platform: z.string().trim().toLowerCase(),
  orgId: z.uuid('The organization id is not valid.'),
});

/**
 * Connecting with the account's own credentials (Bluesky: its handle or DID and an app password),
 * for networks without a sign-in page for apps. The password is used once and not kept.
 */
export const AppPasswordConnectRequestSchema = z.object({
  identifier: z
    .string()
    .trim()
    .min(1, 'Type the handle of the account, such as alice.bsky.social.')
    .max(300, 'The handle is too long.'),
  appPassword: z
    .string()
    .trim()
    .min(1, 'Type the app password you created for Herald.')
    .max(200, 'The app password is too long.'),
});
export type AppPasswordConnectRequest = z.infer<typeof AppPasswordConnectRequestSchema>;

/** When one sign-in at the network can connect several accounts (Facebook Pages…), the user picks. */
const PendingAccountSchema = z.object({
  externalId: z.string(),
  name: z.string().nullable(),
  username: z.string().nullable(),
  pictureUrl: WebUrlSchema.nullable(),
  /** Why it cannot be connected (a Facebook Page without CREATE_CONTENT): shown, not choosable. */
  unavailableReason: z.string().nullable().optional(),
});
export const PendingConnectionResponseSchema = successEnvelope(
  z.object({
    id: z.string(),
    platform: z.object({ id: z.string(), name: z.string() }),
    accounts: z.array(PendingAccountSchema),
    expiresAt: z.string(),
  }),
);
export const PendingConnectionParamsSchema = z.object({
  orgId: z.uuid('The organization id is not valid.'),
  pendingId: z.uuid('This account choice has expired. Connect again.'),
});
export const ChooseAccountsRequestSchema = z.object({
  externalIds: z.array(z.string().min(1)).min(1, 'Choose at least one account to connect.'),
});
