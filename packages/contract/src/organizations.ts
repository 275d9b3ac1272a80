import { z } from 'zod';
import { isTimeZone } from './auth.js';
import { OrganizationBrandingSchema } from './branding.js';
import { successEnvelope } from './envelope.js';

export const ORGANIZATION_NAME_MAX = 100;

/** Trimmed, non-blank organization name (docs/product.md#organization-and-settings-rules: 'Organization name cannot be empty.'). */
export const OrganizationNameSchema = z
  .string({ error: 'Organization name cannot be empty.' })
  .trim()
  .min(1, 'Organization name cannot be empty.')
  .max(
    ORGANIZATION_NAME_MAX,
    `Organization name must be at most ${ORGANIZATION_NAME_MAX} characters.`,
  );

const OrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  /**
   * The organization's IANA zone: when set, every member reads and enters times in it; null,
   * each member uses their own (`applicableTimeZone`, time-zone-rule.ts). Null until an org admin
   * sets it.
   */
  defaultTimeZone: z.string().nullable(),
  /** Posts of members without post:approve wait for an approver (docs/product.md#approvals). */
  requirePostApproval: z.boolean(),
  /**
   * The roles whose members need approval when it is on; empty means every member without
   * post:approve (docs/product.md#approvals).
   */
  postApprovalRoleIds: z.array(z.string()),
  /** Its logo and colour, on reports and guest pages (docs/reports.md#branding). */
  branding: OrganizationBrandingSchema,
  /** The user who owns it: their plan covers it, and only they hand it on (transfer-ownership). */
  ownerUserId: z.string().nullable(),
  createdAt: z.string(),
});
export type Organization = z.infer<typeof OrganizationSchema>;

/**
 * `PATCH /organizations/{orgId}` (org:manage): the organization default time zone (null clears
 * it), whether posts need approval and for which roles; what is left out stays as it is.
 */
export const UpdateOrganizationRequestSchema = z
  .object({
    defaultTimeZone: z
      .string({ error: 'Choose a time zone from the list.' })
      .trim()
      .refine(isTimeZone, 'Choose a time zone from the list (an IANA name such as Europe/Paris).')
      .nullable()
      .optional(),
    requirePostApproval: z.boolean({ error: 'Say whether posts need approval.' }).optional(),
    /** Roles of this organization whose members need approval; empty or null: every member. */
    postApprovalRoleIds: z
      .array(z.uuid({ error: 'Choose roles of this organization.' }), {
        error: 'Choose roles of this organization.',
      })
      .max(100, 'Choose at most 100 roles.')
      .nullable()
      .optional(),
  })
  .refine(
    (body) =>
      body.defaultTimeZone !== undefined ||
      body.requirePostApproval !== undefined ||
      body.postApprovalRoleIds !== undefined,
    { message: 'Send defaultTimeZone, requirePostApproval or postApprovalRoleIds.' },
  );
export type UpdateOrganizationRequest = z.infer<typeof UpdateOrganizationRequestSchema>;

/**
 * `POST /organizations/{orgId}/transfer-ownership`: the owner hands the organization to another
 * of its active Admins (docs/product.md#billing-groups: it leaves the old owner's billing group).
 */
export const TransferOwnershipRequestSchema = z.object({
  memberId: z.uuid({ error: 'Choose the Admin who becomes the owner.' }),
});
export type TransferOwnershipRequest = z.infer<typeof TransferOwnershipRequestSchema>;

export const CreateOrganizationRequestSchema = z.object({ name: OrganizationNameSchema });
export const OrganizationResponseSchema = successEnvelope(
  z.object({ organization: OrganizationSchema }),
);

/** One organization the caller belongs to, with their role in it (its branding is on its own record). */
const MyOrganizationSchema = OrganizationSchema.omit({ branding: true }).extend({
  memberId: z.string(),
  role: z.object({ id: z.string(), name: z.string() }).nullable(),
  isCurrent: z.boolean(),
});
export type MyOrganization = z.infer<typeof MyOrganizationSchema>;
export const MyOrganizationsResponseSchema = successEnvelope(
  z.object({ organizations: z.array(MyOrganizationSchema) }),
);

export const SetCurrentOrganizationRequestSchema = z.object({
  organizationId: z.uuid('Choose an organization.'),
});
export const CurrentOrganizationResponseSchema = successEnvelope(
  z.object({ organizationId: z.string() }),
);

/** Path parameters of every organization-scoped route. */
export const OrgParamsSchema = z.object({ orgId: z.uuid('The organization id is not valid.') });
