import { z } from 'zod';
import { successEnvelope } from './envelope.js';
import { WebUrlSchema } from './web-url.js';
import { PERMISSION_NAMES, type PermissionName } from './permissions.js';

const PermissionSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
});
export type Permission = z.infer<typeof PermissionSchema>;
/** `GET /permissions` answers a bare array (docs/product.md#api-calls). */
export const PermissionsResponseSchema = z.array(PermissionSchema);

/** The refused value as a message shows it: short values whole, long ones cut, never echoed in full. */
function shownValue(input: unknown): string {
  if (typeof input !== 'string') return input === null ? 'null' : `a value of type ${typeof input}`;
  return input.length > 60 ? `${input.slice(0, 40)}… (${input.length} characters)` : input;
}

export const PermissionNameSchema = z.enum(
  PERMISSION_NAMES as [PermissionName, ...PermissionName[]],
  {
    error: (issue) => `Unknown permission: ${shownValue(issue.input)}.`,
  },
);

const RoleSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  permissions: z.array(PermissionSchema),
  /** The Admin role always holds every permission and cannot be edited or deleted. */
  isAdmin: z.boolean(),
  memberCount: z.number().int().min(0),
});
export type Role = z.infer<typeof RoleSchema>;
/**
 * The most roles one organization has, its four defaults included: the whole list is one small
 * answer, and no team needs more.
 */
export const ORGANIZATION_ROLES_MAX = 50;
/**
 * `GET /organizations/{orgId}/roles` answers a bare array (docs/product.md#api-calls), whole:
 * an organization has at most `ORGANIZATION_ROLES_MAX` roles.
 */
export const RolesResponseSchema = z.array(RoleSchema);
export const RoleResponseSchema = successEnvelope(z.object({ role: RoleSchema }));

export const SaveRoleRequestSchema = z.object({
  name: z
    .string({ error: 'Role name is required' })
    .trim()
    .min(1, 'Role name is required')
    .max(60, 'Role name must be at most 60 characters.'),
  description: z
    .string()
    .trim()
    .max(300, 'Description must be at most 300 characters.')
    .nullish()
    .transform((v) => (v ? v : null)),
  permissionIds: z
    .array(PermissionNameSchema, { error: 'At least one permission is required' })
    .min(1, 'At least one permission is required'),
});
export type SaveRoleRequest = z.input<typeof SaveRoleRequestSchema>;
export const RoleParamsSchema = z.object({
  orgId: z.uuid('The organization id is not valid.'),
  roleId: z.uuid('The role id is not valid.'),
});

export const MEMBER_STATUSES = ['ACTIVE', 'PENDING', 'INACTIVE'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

const MemberSchema = z.object({
  id: z.string(),
  email: z.string(),
  status: z.enum(MEMBER_STATUSES),
  roleId: z.string().nullable(),
  role: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** Effective permissions: the role's, narrowed by the invitation when it chose fewer. */
  permissions: z.array(z.string()),
  /** The connected accounts the member is limited to; null: every account (always for an Admin). */
  accountIds: z.array(z.string()).nullable(),
  user: z
    .object({
      id: z.string(),
      displayName: z.string().nullable(),
      avatarUrl: WebUrlSchema.nullable(),
    })
    .nullable(),
  joinedAt: z.string().nullable(),
  invitedAt: z.string().nullable(),
  organizationId: z.string(),
});
export type Member = z.infer<typeof MemberSchema>;

export const MembersQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(100),
  search: z.string().trim().max(200).optional(),
});
export const MembersResponseSchema = z.object({
  status: z.literal('success'),
  data: z.object({ members: z.array(MemberSchema) }),
  meta: z.object({
    page: z.number(),
    pageSize: z.number(),
    totalCount: z.number(),
    /** Whether Herald can email invitations (SMTP_URL is configured): "Resend email" is offered. */
    invitationEmail: z.boolean().optional(),
  }),
});
export const MemberParamsSchema = z.object({
  orgId: z.uuid('The organization id is not valid.'),
  memberId: z.uuid('The member id is not valid.'),
});
export const UpdateMemberRequestSchema = z.object({
  roleId: z.uuid('Selected role is invalid'),
  permissions: z.array(PermissionNameSchema).min(1, 'Choose at least one permission.').optional(),
});
/**
 * `PUT /organizations/{orgId}/members/{memberId}/accounts`: the connected accounts the member may
 * work with (posting, inbox, comments, analytics); null gives every account back.
 */
export const MemberAccountsRequestSchema = z.object({
  integrationIds: z
    .array(z.uuid('An account id is not valid.'))
    .max(1000, 'Choose at most 1000 accounts.')
    .nullable(),
});
export type MemberAccountsRequest = z.infer<typeof MemberAccountsRequestSchema>;
export const MemberResponseSchema = successEnvelope(z.object({ member: MemberSchema }));

/** A simple address check, as the team modal does (docs/product.md#invite-rules). */
export const InviteEmailSchema = z
  .string({ error: 'Please enter a valid email address' })
  .trim()
  .toLowerCase()
  .pipe(z.email('Please enter a valid email address'));

/**
 * `POST /member/invite/{orgId}`: the team modal sends a roleId; the invite page sends only
 * permissions, and the SocialMediaManager role applies. Permissions may only narrow the role's.
 */
export const InviteRequestSchema = z.object({
  email: InviteEmailSchema,
  roleId: z.uuid('Selected role is invalid').optional(),
  permissions: z.array(PermissionNameSchema).min(1, 'Choose at least one permission.').optional(),
});
export type InviteRequest = z.input<typeof InviteRequestSchema>;
export const InviteResponseSchema = successEnvelope(
  z.object({
    member: z.object({
      id: z.string(),
      email: z.string(),
      status: z.enum(MEMBER_STATUSES),
      roleId: z.string().nullable(),
    }),
    /** The link to pass on yourself; present only when Herald sends no email (no SMTP_URL). */
    inviteUrl: z.string().nullable(),
    emailSent: z.boolean(),
  }),
);
export const InviteOrgParamsSchema = z.object({
  orgId: z.uuid('The organization id is not valid.'),
});

/** `…/invitations/{memberId}/link` and `…/resend`: a pending invitation of the organization. */
export const InvitationParamsSchema = z.object({
  orgId: z.uuid('The organization id is not valid.'),
  memberId: z.uuid('The invitation id is not valid.'),
});
/** A fresh link for a pending invitation; the previous link stops working. */
export const InvitationLinkResponseSchema = successEnvelope(z.object({ inviteUrl: z.string() }));
/** The invitation email went out again, with a fresh link; the previous link stops working. */
export const InvitationResendResponseSchema = successEnvelope(
  z.object({ emailSent: z.literal(true) }),
);

const PendingInviteSchema = z.object({
  id: z.string(),
  /** Tokens are stored hashed: the pending list cannot show them; accept by id instead. */
  inviteToken: z.null(),
  organization: z.object({ id: z.string(), name: z.string() }),
  inviter: z.object({ email: z.string().nullable(), displayName: z.string().nullable() }),
  role: z.object({ id: z.string(), name: z.string() }).nullable(),
  expiresAt: z.string(),
});
export type PendingInvite = z.infer<typeof PendingInviteSchema>;
export const PendingInvitesResponseSchema = successEnvelope(
  z.object({ pendingInvites: z.array(PendingInviteSchema) }),
);

/** Accept with the link's token, or (from /onboarding) with the invitation's id. */
export const AcceptInviteRequestSchema = z.union(
  [
    z.object({ token: z.string().trim().min(1, 'Invalid invitation link.') }),
    z.object({ invitationId: z.uuid('Invalid invitation link.') }),
  ],
  { error: 'Invalid invitation link.' },
);
export type AcceptInviteRequest = z.infer<typeof AcceptInviteRequestSchema>;
export const AcceptInviteResponseSchema = successEnvelope(
  z.object({
    member: z.object({
      id: z.string(),
      orgId: z.string(),
      organizationId: z.string(),
      organization: z.object({ name: z.string() }),
    }),
  }),
);
export const DeclineInviteRequestSchema = z.object({ invitationId: z.uuid('Invalid invitation.') });
