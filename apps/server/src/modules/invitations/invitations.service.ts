import { createHash, randomBytes } from 'node:crypto';
import type { AcceptInviteRequest, PendingInvite } from '@herald/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { escapeHtml, type Mailer } from '../../lib/mailer.js';
import { countSeats, requireCapacity, requireEntitlement } from '../billing/entitlements.js';
import { assertCanGrant } from '../team/grants.js';
import type { MembershipContext } from '../team/membership.js';
import { narrowPermissions } from '../team/members.service.js';
import * as roles from '../team/roles.service.js';
import { setCurrentOrganization, type UserRow } from '../users/users.service.js';
import * as repo from './invitations.repository.js';
import {
  activeAdminUserIds,
  findUserIdByEmail,
  recordNotification,
} from '../notifications/notifications.service.js';

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const DEFAULT_INVITE_ROLE = 'SocialMediaManager';

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export interface InviteDeps {
  db: Db;
  mailer: Mailer | null;
  publicUrl: string;
  log: FastifyBaseLogger;
}

/** j***@example.com: enough for the right person to recognise, not enough to harvest. */
export function maskEmail(email: string) {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}

/**
 * Invites someone by email with a role, optionally narrowed. The inviter can only hand out
 * permissions they hold themselves. Answers the invite link when no email could be sent.
 */
export async function inviteMember(
  deps: InviteDeps,
  inviter: { user: UserRow; membership: MembershipContext },
  input: { email: string; roleId?: string; permissions?: string[] },
) {
  const { db } = deps;
  const organizationId = inviter.membership.organizationId;
  const plan = await requireEntitlement(db, organizationId, 'invite');
  const token = randomBytes(32).toString('base64url');
  const member = await db.transaction(async (tx) => {
    const role = input.roleId
      ? await roles.findRole(tx, organizationId, input.roleId)
      : await roles.findRoleByName(tx, organizationId, DEFAULT_INVITE_ROLE);
    if (!role)
      throw new AppError(
        'VALIDATION_FAILED',
        input.roleId ? 'Selected role is invalid' : 'Please select a role',
      );
    const rolePermissions = await roles.rolePermissionNames(tx, role.id);
    const narrowed = narrowPermissions(role, rolePermissions, input.permissions);
    assertCanGrant(inviter.membership, role, narrowed ?? rolePermissions);
    const existing = await repo.findMemberByEmail(tx, organizationId, input.email);
    if (existing?.status === 'ACTIVE')
      throw new AppError('CONFLICT', `${input.email} is already a member of this organization.`);
    if (
      existing?.status === 'PENDING' &&
      existing.inviteExpiresAt &&
      existing.inviteExpiresAt > new Date()
    ) {
      throw new AppError(
        'CONFLICT',
        `${input.email} has already been invited to this organization.`,
      );
    }
    requireCapacity(plan, 'invites', await countSeats(tx, organizationId));
    const invitee = await findUserIdByEmail(tx, input.email);
    if (invitee) {
      await recordNotification(
        tx,
        organizationId,
        { userIds: [invitee] },
        {
          type: 'ORGANIZATION_INVITE',
          priority: 'MEDIUM',
          message: `${inviter.user.displayName ?? inviter.user.email} invited you to join ${inviter.membership.organizationName}.`,
        },
      );
    }
    return repo.upsertInvitation(
      tx,
      {
        organizationId,
        email: input.email,
        roleId: role.id,
        permissions: narrowed,
        invitedByUserId: inviter.user.id,
        inviteTokenHash: hashToken(token),
        inviteExpiresAt: new Date(Date.now() + INVITATION_TTL_MS),
      },
      existing?.id ?? null,
    );
  });
  const inviteUrl = `${deps.publicUrl}/invite/accept?token=${token}`;
  const emailSent = await sendInvitationEmail(deps, {
    to: input.email,
    inviteUrl,
    inviter: inviter.user,
    organizationName: inviter.membership.organizationName,
  });
  return {
    member: {
      id: member.id,
      email: member.email,
      status: 'PENDING' as const,
      roleId: member.roleId,
    },
    inviteUrl: emailSent ? null : inviteUrl,
    emailSent,
  };
}

async function sendInvitationEmail(
  deps: InviteDeps,
  m: { to: string; inviteUrl: string; inviter: UserRow; organizationName: string },
): Promise<boolean> {
  const who = m.inviter.displayName ?? m.inviter.email;
  if (!deps.mailer) {
    deps.log.info(
      { to: m.to, organization: m.organizationName },
      `Invitation link (no SMTP_URL configured): ${m.inviteUrl}`,
    );
    return false;
  }
  try {
    await deps.mailer.send({
      to: m.to,
      subject: `${who} invited you to ${m.organizationName} on Herald`,
      text: `${who} invited you to join ${m.organizationName} on Herald.\n\nAccept the invitation: ${m.inviteUrl}\n\nThe link works once and expires in 7 days. If you did not expect it, ignore this email.`,
      html: `<p>${escapeHtml(who)} invited you to join <strong>${escapeHtml(m.organizationName)}</strong> on Herald.</p><p><a href="${escapeHtml(m.inviteUrl)}">Accept the invitation</a></p><p>The link works once and expires in 7 days. If you did not expect it, ignore this email.</p>`,
    });
    return true;
  } catch (err) {
    deps.log.error(
      { err, to: m.to },
      'invitation email failed; the link is given to the inviter instead',
    );
    return false;
  }
}

/** Issues a fresh token for a pending invitation of the organization; the old link stops working. */
async function renewInvitationLink(
  deps: { db: Db; publicUrl: string },
  organizationId: string,
  memberId: string,
) {
  return deps.db.transaction(async (tx) => {
    const invitation = await repo.findPendingInOrganization(tx, organizationId, memberId);
    if (!invitation) {
      throw new AppError('NOT_FOUND', 'This invitation does not exist or was already answered.');
    }
    const token = randomBytes(32).toString('base64url');
    const renewed = await repo.replaceToken(tx, memberId, {
      inviteTokenHash: hashToken(token),
      inviteExpiresAt: new Date(Date.now() + INVITATION_TTL_MS),
    });
    if (!renewed) throw new AppError('CONFLICT', 'This invitation was answered meanwhile.');
    return {
      email: invitation.member.email,
      inviteUrl: `${deps.publicUrl}/invite/accept?token=${token}`,
    };
  });
}

/** "Copy link": a fresh link for the inviter to pass on; the previous link no longer works. */
export async function copyInvitationLink(
  deps: { db: Db; publicUrl: string },
  organizationId: string,
  memberId: string,
) {
  const { inviteUrl } = await renewInvitationLink(deps, organizationId, memberId);
  return { inviteUrl };
}

/** "Resend email": only when Herald can send email; the new email carries a fresh link. */
export async function resendInvitation(
  deps: InviteDeps,
  sender: { user: UserRow; membership: MembershipContext },
  memberId: string,
) {
  if (!deps.mailer) {
    throw new AppError(
      'CONFLICT',
      'Herald sends no email here (SMTP_URL is not configured). Copy the link instead.',
    );
  }
  const { email, inviteUrl } = await renewInvitationLink(
    deps,
    sender.membership.organizationId,
    memberId,
  );
  const sent = await sendInvitationEmail(deps, {
    to: email,
    inviteUrl,
    inviter: sender.user,
    organizationName: sender.membership.organizationName,
  });
  if (!sent) {
    throw new AppError(
      'UNAVAILABLE',
      'The invitation email could not be sent. Copy the link instead.',
    );
  }
  return { emailSent: true as const };
}

export async function listPendingInvites(db: Db, user: UserRow): Promise<PendingInvite[]> {
  // Invitations are matched by email: only an address the provider verified may see them.
  if (!user.emailVerified) return [];
  const rows = await repo.listPendingForEmail(db, user.email, new Date());
  return rows.map((r) => ({
    id: r.member.id,
    inviteToken: null,
    organization: r.organization,
    inviter: r.inviter
      ? { email: r.inviter.email, displayName: r.inviter.displayName }
      : { email: null, displayName: null },
    role: r.role,
    expiresAt: r.member.inviteExpiresAt!.toISOString(),
  }));
}

/** Finds the invitation and checks it can be answered by this user; throws a sentence otherwise. */
async function answerableInvitation(db: Db, user: UserRow, by: AcceptInviteRequest) {
  const invitation =
    'token' in by
      ? await repo.findInvitationByTokenHash(db, hashToken(by.token))
      : await repo.findInvitationById(db, by.invitationId);
  if (!invitation || invitation.member.status === 'INACTIVE') {
    throw new AppError('NOT_FOUND', 'This invitation does not exist or was withdrawn.');
  }
  const { member } = invitation;
  // Without the link's token, only the email proves it is theirs: it must be verified.
  if ('invitationId' in by && !user.emailVerified) {
    throw new AppError(
      'FORBIDDEN',
      'Confirm your email address with your identity provider, or open the link from the invitation email.',
    );
  }
  if (member.email.toLowerCase() !== user.email.toLowerCase()) {
    throw new AppError(
      'FORBIDDEN',
      `This invitation was sent to ${maskEmail(member.email)}. Sign in with that address to accept it.`,
    );
  }
  if (member.status === 'ACTIVE')
    throw new AppError('CONFLICT', 'This invitation has already been accepted.');
  if (member.status === 'DECLINED') throw new AppError('CONFLICT', 'This invitation was declined.');
  if (!member.inviteExpiresAt || member.inviteExpiresAt <= new Date()) {
    throw new AppError('EXPIRED', 'This invitation has expired. Ask for a new one.');
  }
  return invitation;
}

export async function acceptInvite(db: Db, user: UserRow, by: AcceptInviteRequest) {
  return db.transaction(async (tx) => {
    const invitation = await answerableInvitation(tx, user, by);
    if (!(await repo.markAccepted(tx, invitation.member.id, user.id))) {
      throw new AppError('CONFLICT', 'This invitation has already been accepted.');
    }
    await setCurrentOrganization(tx, user.id, invitation.organization.id);
    const admins = await activeAdminUserIds(tx, invitation.organization.id);
    const name = user.displayName ? `${user.displayName} (${user.email})` : user.email;
    await recordNotification(
      tx,
      invitation.organization.id,
      { userIds: admins.filter((id) => id !== user.id) },
      {
        type: 'ORGANIZATION_INVITE',
        priority: 'LOW',
        message: `${name} accepted the invitation and joined ${invitation.organization.name}.`,
      },
    );
    return {
      member: {
        id: invitation.member.id,
        orgId: invitation.organization.id,
        organizationId: invitation.organization.id,
        organization: { name: invitation.organization.name },
      },
    };
  });
}

/** Declines for good: the invitation disappears and does not come back unless sent again. */
export async function declineInvite(db: Db, user: UserRow, invitationId: string) {
  const invitation = await answerableInvitation(db, user, { invitationId });
  if (!(await repo.markDeclined(db, invitation.member.id))) {
    throw new AppError('CONFLICT', 'This invitation was already answered.');
  }
  return { message: 'Invitation declined.' };
}
