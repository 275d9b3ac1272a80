import type { Member, MemberStatus, Role } from '@herald/contract';
import dayjs from 'dayjs';
import { LogOut, UserMinus } from 'lucide-react';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { SCREEN_TOAST_DURATIONS } from '@/config/toast';
import { cn } from '@/lib/cn';
import { toast, toastError } from '@/lib/toast';
import { useChangeMemberRole } from '../api/members';
import { useRoleColors } from './role-colors';

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
          toast.success(`${name} is now ${updated.role?.name ?? 'in the new role'}`),
        onError: (error) =>
          toastError(error, 'Failed to update member role', {
            duration: SCREEN_TOAST_DURATIONS.teamError,
          }),
      },
    );

  return (
    <li
      aria-label={name}
      className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
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
                {r.name}
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
            {role?.name ?? 'No role'}
          </span>
        )}
        <span className="text-slate-500">{dateLine(member)}</span>
      </div>
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
