import { z } from 'zod';
import { ORG_ROUTE_PERMISSIONS, type OrgRoute } from './access.js';
import { successEnvelope } from './envelope.js';
import { InboxConversationSchema } from './inbox.js';
import { PostSchema } from './posts.js';
import { isoDateTime } from './text.js';

/**
 * "All clients": one view across every organization a person belongs to (an agency's clients).
 * Each view covers the organizations where the person may open the matching organization view,
 * by the same rule (ORG_ROUTE_PERMISSIONS) — never more — and marks every item with its
 * organization.
 */
export const ALL_CLIENTS_VIEWS = {
  calendar: 'GET /organizations/:orgId/posts',
  approvals: 'GET /organizations/:orgId/approvals',
  inbox: 'GET /organizations/:orgId/inbox/conversations',
} as const satisfies Record<string, OrgRoute>;
export type AllClientsView = keyof typeof ALL_CLIENTS_VIEWS;

/** Whether a member with `permissions` sees an organization in the view. */
export function coversOrganization(view: AllClientsView, permissions: readonly string[]) {
  const needs = ORG_ROUTE_PERMISSIONS[ALL_CLIENTS_VIEWS[view]].needs;
  return needs === 'member' || permissions.includes(needs);
}

/** The widest calendar range asked at once. */
export const ALL_CLIENTS_MAX_DAYS = 62;

const ClientSchema = z.object({ id: z.string(), name: z.string() });
export type Client = z.infer<typeof ClientSchema>;

/** `GET /me/all-clients/calendar?from&to`: the posts of [from, to) in every covered organization. */
export const AllClientsCalendarQuerySchema = z
  .object({ from: isoDateTime('from'), to: isoDateTime('to') })
  .refine((q) => Date.parse(q.to) > Date.parse(q.from), {
    message: 'to must be after from.',
    path: ['to'],
  })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= ALL_CLIENTS_MAX_DAYS * 86_400_000, {
    message: `Ask for at most ${ALL_CLIENTS_MAX_DAYS} days at once.`,
    path: ['to'],
  });

export const AllClientsCalendarResponseSchema = successEnvelope(
  z.object({
    /** The organizations this view covers, by name. */
    clients: z.array(ClientSchema),
    /** Soonest first; each post names its organization (`organizationId`). */
    posts: z.array(PostSchema),
    /** Organizations with more posts in the range than one answer carries. */
    truncated: z.array(z.string()),
  }),
);

/** `GET /me/all-clients/approvals`: posts waiting for approval wherever the person approves. */
export const AllClientsApprovalsResponseSchema = successEnvelope(
  z.object({
    clients: z.array(ClientSchema.extend({ waiting: z.number().int().min(0) })),
    posts: z.array(PostSchema),
  }),
);

/** `GET /me/all-clients/inbox`: the latest open conversations of every organization, newest first. */
export const AllClientsInboxResponseSchema = successEnvelope(
  z.object({
    clients: z.array(ClientSchema),
    conversations: z.array(
      z.object({ organizationId: z.string(), conversation: InboxConversationSchema }),
    ),
  }),
);
