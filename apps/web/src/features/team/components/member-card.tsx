import type { Integration, Member, MemberStatus, Role } from '@herald/contract';
import dayjs from 'dayjs';
import { Link2, LogOut, Mail, UserMinus } from 'lucide-react';
import { useId, useState } from 'react';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { SCREEN_TOAST_DURATIONS } from '@/config/toast';
import { cn } from '@/lib/cn';
import { toast, toastError } from '@/lib/toast';
import { useChangeMemberRole, useCopyInvitationLink, useResendInvitation } from '../api/members';
import { MemberAccounts } from './member-accounts';
import { useRoleColors } from './role-colors';
import { roleLabel } from '@/lib/role-label';

/** docs/product.md#member-states: the server's PENDING reads INVITED on screen. */
const statusBadges: Record<MemberStatus, { label: string; className: string }> = {
  ACTIVE: { label: 'ACTIVE', className: 'bg-emerald-100 text-emerald-800' },
  PENDING: { label: 'INVITED', className: 'bg-amber-100 text-amber-900' },
  INACTIVE: { label: 'INACTIVE', className: 'bg-slate-200 text-slate-700' },
};

export function memberName(member: Member): string {
  return member.user?.displayName?.trim() || member.email;
}

function dateLine(member: Member): string {
  const formatDate = (iso: string | null) => (iso ? dayjs(iso).format('MMM D, YYYY') : '—');
  return member.status === 'PENDING'
    ? `Invited ${formatDate(member.invitedAt)}`
    : `Joined ${formatDate(member.joinedAt)}`;
}

interface MemberCardProps {
  orgId: string;
  member: Member;
  roles: Role[];
  isSelf: boolean;
  canChangeRole: boolean;
  canRemove: boolean;
  /** May issue a fresh link for, or resend, a pending invitation (member:invite). */
  canInvite?: boolean;
  /** Herald can email invitations (SMTP_URL is configured). */
  invitationEmail?: boolean;
  /** May limit the member to some connected accounts (offered for roles other than Admin). */
  canLimitAccounts?: boolean;
  /** The organization's connected accounts, for that choice. */
  accounts?: Integration[];
  onRemove: (member: Member) => void;
  onLeave: (member: Member) => void;
}

export function MemberCard({
  orgId,
  member,
  roles,
  isSelf,
  canChangeRole,
  canRemove,
  canInvite = false,
  invitationEmail = false,
  canLimitAccounts = false,
  accounts = [],
  onRemove,
  onLeave,
}: MemberCardProps) {
  const colors = useRoleColors();
  const changeRole = useChangeMemberRole(orgId);
  const name = memberName(member);
  const status = statusBadges[member.status];
  const role = member.role ?? roles.find((r) => r.id === member.roleId) ?? null;

  const onChangeRole = (roleId: string) =>
    changeRole.mutate(
      { memberId: member.id, roleId },
      {
        onSuccess: (updated) =>
          toast.success(
            `${name} is now ${updated.role ? roleLabel(updated.role.name) : 'in the new role'}`,
          ),
        onError: (error) =>
          toastError(error, 'Failed to update member role', {
            duration: SCREEN_TOAST_DURATIONS.teamError,
          }),
      },
    );

  const isInvitation = member.status === 'PENDING' && canInvite;
  const isAdmin = roles.find((r) => r.id === member.roleId)?.isAdmin ?? false;

  return (
    <li
      aria-label={name}
      className="flex min-w-0 flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex items-start gap-3">
        <Avatar name={name} url={member.user?.avatarUrl} />
        <div className="min-w-0 flex-1">
          <p className="truncate font-semibold text-slate-900">
            {name}
            {isSelf && <span className="font-normal text-slate-500"> (you)</span>}
          </p>
          <p className="truncate text-sm text-slate-600">{member.email}</p>
        </div>
        <span className={cn('rounded-full px-2 py-0.5 text-xs font-semibold', status.className)}>
          {status.label}
        </span>
      </div>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        {canChangeRole && !isSelf ? (
          <select
            aria-label={`Role of ${name}`}
            value={member.roleId ?? ''}
            disabled={changeRole.isPending}
            onChange={(event) => onChangeRole(event.target.value)}
            className="rounded-lg border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900"
          >
            {!member.roleId && <option value="">No role</option>}
            {roles.map((r) => (
              <option key={r.id} value={r.id}>
                {roleLabel(r.name)}
              </option>
            ))}
          </select>
        ) : (
          <span
            className={cn(
              'rounded-full px-2.5 py-0.5 font-semibold',
              role ? colors.badgeOf(role) : 'bg-slate-100 text-slate-700',
            )}
          >
            {role ? roleLabel(role.name) : 'No role'}
          </span>
        )}
        <span className="text-slate-500">{dateLine(member)}</span>
      </div>
      {canLimitAccounts && !isSelf && !isAdmin && (
        <MemberAccounts orgId={orgId} member={member} name={name} accounts={accounts} />
      )}
      {isInvitation && (
        <InvitationActions orgId={orgId} member={member} invitationEmail={invitationEmail} />
      )}
      {(isSelf || canRemove) && (
        <div className="flex justify-end border-t border-slate-100 pt-3">
          {isSelf ? (
            <Button size="sm" variant="ghost" onClick={() => onLeave(member)}>
              <LogOut className="size-4" aria-hidden="true" />
              Leave organization
            </Button>
          ) : (
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Remove ${name}`}
              onClick={() => onRemove(member)}
            >
              <UserMinus className="size-4" aria-hidden="true" />
              Remove
            </Button>
          )}
        </div>
      )}
    </li>
  );
}

/**
 * A pending invitation's link can be issued again (the previous one stops working), and, when
 * Herald sends email, the invitation email can go out again.
 */
function InvitationActions({
  orgId,
  member,
  invitationEmail,
}: {
  orgId: string;
  member: Member;
  invitationEmail: boolean;
}) {
  const copyLink = useCopyInvitationLink(orgId);
  const resend = useResendInvitation(orgId);
  const [link, setLink] = useState<string | null>(null);
  const inputId = useId();
  const failure = { duration: SCREEN_TOAST_DURATIONS.teamError };

  const onCopy = () =>
    copyLink.mutate(member.id, {
      onSuccess: async (url) => {
        setLink(url);
        try {
          await navigator.clipboard.writeText(url);
          toast.success(
            `A new invite link for ${member.email} was copied. The previous link no longer works.`,
          );
        } catch {
          toast.error(
            'A new invite link was made but could not be copied. Copy it from the card; the previous link no longer works.',
            failure,
          );
        }
      },
      onError: (error) => toastError(error, 'Failed to make a new invite link', failure),
    });

  const onResend = () =>
    resend.mutate(member.id, {
      onSuccess: () => {
        setLink(null);
        toast.success(`The invitation was emailed to ${member.email} again`);
      },
      onError: (error) => toastError(error, 'Failed to resend the invitation', failure),
    });

  return (
    <div className="flex flex-col gap-2 border-t border-slate-100 pt-3">
      <div className="flex flex-wrap justify-end gap-2">
        <Button
          size="sm"
          variant="secondary"
          aria-label={`Copy invite link for ${member.email}`}
          disabled={copyLink.isPending}
          onClick={onCopy}
        >
          <Link2 className="size-4" aria-hidden="true" />
          Copy link
        </Button>
        {invitationEmail && (
          <Button
            size="sm"
            variant="secondary"
            aria-label={`Resend invitation email to ${member.email}`}
            disabled={resend.isPending}
            onClick={onResend}
          >
            <Mail className="size-4" aria-hidden="true" />
            Resend email
          </Button>
        )}
      </div>
      {link && (
        <div>
          <label htmlFor={inputId} className="block text-xs font-medium text-slate-700">
            New invite link for {member.email}
          </label>
          <input
            id={inputId}
            readOnly
            value={link}
            onFocus={(event) => event.target.select()}
            className="mt-1 block w-full min-w-0 rounded-lg border border-slate-300 bg-slate-50 px-2 py-1 font-mono text-xs text-slate-800"
          />
        </div>
      )}
    </div>
  );
}
