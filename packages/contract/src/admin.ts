import { z } from 'zod';
import { AnalyticsReadCountsSchema } from './analytics.js';
import { isTimeZone, UserSchema } from './auth.js';
import { PageMetaSchema, successEnvelope } from './envelope.js';

/** docs/product.md#constants: the back-office tables show ten rows a page. */
export const ADMIN_PAGE_SIZE = 10;

const pageQuery = {
  page: z.coerce
    .number({ error: 'The page must be a whole number of at least 1.' })
    .int('The page must be a whole number of at least 1.')
    .min(1, 'The page must be a whole number of at least 1.')
    .default(1),
  pageSize: z.coerce
    .number({ error: 'The page size must be a whole number from 1 to 100.' })
    .int('The page size must be a whole number from 1 to 100.')
    .min(1, 'The page size must be a whole number from 1 to 100.')
    .max(100, 'The page size must be a whole number from 1 to 100.')
    .default(ADMIN_PAGE_SIZE),
};

/** Words to look for in names and emails; blank means "everyone". */
const searchQuery = z
  .string()
  .trim()
  .max(200, 'Search for at most 200 characters.')
  .optional()
  .transform((v) => v || undefined);

/** `GET /users?search=&page=&pageSize=` (operators only). */
export const AdminUsersQuerySchema = z.object({ search: searchQuery, ...pageQuery });

export const AdminUsersResponseSchema = z.object({
  status: z.literal('success'),
  data: z.object({ users: z.array(UserSchema) }),
  meta: PageMetaSchema,
});
/** `GET /admin/overview`: the three totals of the back-office dashboard. */
const AdminOverviewSchema = z.object({
  counts: z.object({
    users: z.number().int().min(0),
    platforms: z.number().int().min(0),
    plans: z.number().int().min(0),
  }),
});
export type AdminOverview = z.infer<typeof AdminOverviewSchema>;
export const AdminOverviewResponseSchema = successEnvelope(AdminOverviewSchema);

/** How many days the activity chart covers, today included. */
export const ACTIVITY_DAYS = 30;

/** `GET /admin/activity?timezone=`: days are counted in the operator's time zone. */
export const AdminActivityQuerySchema = z.object({
  timezone: z
    .string()
    .trim()
    .refine(isTimeZone, 'The time zone must be an IANA name such as Europe/Paris.')
    .default('UTC'),
});

const ActivityDaySchema = z.object({
  /** The calendar day, YYYY-MM-DD, in the requested time zone. */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  signUps: z.number().int().min(0),
  posts: z.number().int().min(0),
});
export type ActivityDay = z.infer<typeof ActivityDaySchema>;

const AdminActivitySchema = z.object({
  timezone: z.string(),
  /** Oldest first; exactly ACTIVITY_DAYS entries, days without any activity included. */
  days: z.array(ActivityDaySchema),
});
export type AdminActivity = z.infer<typeof AdminActivitySchema>;
export const AdminActivityResponseSchema = successEnvelope(AdminActivitySchema);

/** What operators (and, for client approval links, organizations' approvers and clients) did. */
export const AUDIT_ACTIONS = [
  'user.update',
  'plan.create',
  'plan.update',
  'platform.create',
  'platform.activate',
  'platform.deactivate',
  'operator.grant',
  'operator.revoke',
  /** docs/product.md#client-approval-links: a link sent, withdrawn, and a client's decision. */
  'approval_link.create',
  'approval_link.revoke',
  'approval_link.decide',
  /** docs/api.md: an organization's API key made and revoked. */
  'api_key.create',
  'api_key.revoke',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGET_TYPES = ['user', 'plan', 'platform', 'approval_link', 'api_key'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** One recorded operator action: who, what, when, and the changed fields before and after. */
const AuditEntrySchema = z.object({
  id: z.string(),
  /**
   * Null when the action came from the command line (`herald admin grant|revoke`). A client of
   * an approval link has no account: `id` is null and `email` names them as the link does.
   */
  actor: z
    .object({
      id: z.string().nullable(),
      email: z.string(),
      /** The API key the user acted through (docs/api.md); null when signed in. */
      apiKeyId: z.string().nullable().optional(),
    })
    .nullable(),
  action: z.enum(AUDIT_ACTIONS),
  target: z.object({
    type: z.enum(AUDIT_TARGET_TYPES),
    id: z.string().nullable(),
    /** The name or email of the target when the action happened. */
    label: z.string(),
  }),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/** `GET /admin/audit-log?page=&pageSize=`: newest first. */
export const AuditLogQuerySchema = z.object({ ...pageQuery });
export const AuditLogResponseSchema = z.object({
  status: z.literal('success'),
  data: z.object({ entries: z.array(AuditEntrySchema) }),
  meta: PageMetaSchema,
});

/** docs/networks.md#preflight: how serious a finding of the network setup check is. */
export const SETUP_FINDING_LEVELS = ['ok', 'warning', 'problem'] as const;
export type SetupFindingLevel = (typeof SETUP_FINDING_LEVELS)[number];

/** What a finding is about, so a page can group or mark it. */
export const SETUP_FINDING_TOPICS = [
  'credentials',
  'redirect',
  'scopes',
  'app-kind',
  'media',
  'audit',
  'domain',
  'live',
  'storage',
  'api-version',
  'tokens',
  'quota',
  'inbox',
] as const;

/** One sentence saying what to do (or that nothing needs doing), with its level. */
export const NetworkSetupFindingSchema = z.object({
  level: z.enum(SETUP_FINDING_LEVELS),
  topic: z.enum(SETUP_FINDING_TOPICS),
  message: z.string(),
});
export type NetworkSetupFinding = z.infer<typeof NetworkSetupFindingSchema>;

/** One network's setup: how Herald reaches it and what the operator must register there. */
export const NetworkSetupSchema = z.object({
  slug: z.string(),
  /** The connect kind this entry is about, for networks with one developer app per kind (LinkedIn). */
  kind: z.string().optional(),
  name: z.string(),
  /** `configured`: real credentials; `sandbox`: the local emulator; `unavailable`: neither. */
  mode: z.enum(['configured', 'sandbox', 'unavailable']),
  /** Whether users are offered the network (the back-office switch); null when not known (CLI). */
  active: z.boolean().nullable(),
  /** The redirect URI exactly as Herald sends it: register it at the network. */
  redirectUri: z.string(),
  /** The scopes exactly as Herald asks for them. */
  scopes: z.array(z.string()),
  findings: z.array(NetworkSetupFindingSchema),
});
export type NetworkSetup = z.infer<typeof NetworkSetupSchema>;

export const NetworkSetupReportSchema = z.object({
  apiPublicUrl: z.string(),
  /** Whether the token endpoints were asked (`?live=true`). */
  live: z.boolean(),
  networks: z.array(NetworkSetupSchema),
  /**
   * About the deployment as a whole, from the processes serving the database
   * (docs/architecture.md#processes): whether they all read the same media. Empty when not known
   * (`herald doctor` on the embedded database).
   */
  deployment: z.array(NetworkSetupFindingSchema),
});
export type NetworkSetupReport = z.infer<typeof NetworkSetupReportSchema>;

/** `GET /admin/network-setup?live=true` also probes each network's token endpoint. */
export const NetworkSetupQuerySchema = z.object({
  live: z
    .enum(['true', 'false'], { error: 'live must be true or false.' })
    .optional()
    .transform((v) => v === 'true'),
});
export const NetworkSetupResponseSchema = successEnvelope(NetworkSetupReportSchema);

/**
 * `POST /admin/analytics/collect {organizationId}`: an operator's "collect now" — reads every
 * published post's metrics and every connected account's figures of one organization at once,
 * without waiting for the schedule (docs/analytics.md#schedule).
 */
export const AnalyticsCollectBodySchema = z.object({
  organizationId: z.uuid({ error: 'organizationId must be an organization id.' }),
});
/** The same counts as the organization's own "Refresh metrics" (one collection, two doors). */
export const AnalyticsCollectResultSchema = AnalyticsReadCountsSchema;
export const AnalyticsCollectResponseSchema = successEnvelope(AnalyticsCollectResultSchema);
