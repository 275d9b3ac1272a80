import type { Member } from '@herald/contract';
import { Search, ShieldCheck, UserPlus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LoadingIndicator } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { SCREEN_TOAST_DURATIONS } from '@/config/toast';
import { errorMessage } from '@/lib/api-error';
import { useAuth, useOrganizationChanged } from '@/lib/auth';
import { useIntegrations } from '@/lib/integrations';
import { usePermissions } from '@/lib/permissions';
import { toast, toastError } from '@/lib/toast';
import { useMembers, useRemoveMember } from '../api/members';
import { usePermissionCatalog, useRoles } from '../api/roles';
import { InviteModal } from '../components/invite-modal';
import { MemberCard, memberName } from '../components/member-card';
import { RoleModal } from '../components/role-modal';
import { TeamStats, teamSummary } from '../components/team-stats';
import { roleLabel } from '@/lib/role-label';

export const TEAM_LOAD_FAILED = 'Failed to load team data';
const errorToast = { duration: SCREEN_TOAST_DURATIONS.teamError };

function matches(member: Member, search: string, roleId: string): boolean {
  const text = search.trim().toLowerCase();
  const inText =
    !text ||
    member.email.toLowerCase().includes(text) ||
    (member.user?.displayName ?? '').toLowerCase().includes(text);
  return inText && (!roleId || member.roleId === roleId);
}

/** /team (docs/product.md#team): who is in the organization, their roles, and invitations. */
export function TeamPage() {
  const { member: me, currentOrgId } = useAuth();
  const orgId = currentOrgId ?? '';
  const permissions = usePermissions();
  const roles = useRoles(orgId);
  const members = useMembers(orgId);
  const integrations = useIntegrations(orgId);
  const catalog = usePermissionCatalog();
  const removeMember = useRemoveMember(orgId);
  const organizationChanged = useOrganizationChanged();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [roleFilter, setRoleFilter] = useState('');
  const [dialog, setDialog] = useState<'roles' | 'invite' | null>(null);
  const [toRemove, setToRemove] = useState<Member | null>(null);
  const loadError = roles.error ?? members.error ?? catalog.error;
  const orgName = me?.organization.name ?? 'this organization';
  const isLeaving = toRemove !== null && toRemove.id === me?.id;

  useEffect(() => {
    if (loadError) toastError(loadError, TEAM_LOAD_FAILED, { id: 'team-load', ...errorToast });
  }, [loadError]);

  const onConfirmRemove = (member: Member) => {
    if (!orgId) {
      toast.error('No organization selected', errorToast);
      return;
    }
    removeMember.mutate(member.id, {
      onSuccess: () => {
        setToRemove(null);
        if (member.id !== me?.id) {
          toast.success(`${memberName(member)} was removed from ${orgName}`);
          return;
        }
        toast.success(`You left ${orgName}`);
        void organizationChanged(null);
        void navigate(paths.onboarding, { replace: true });
      },
      onError: (error) => {
        setToRemove(null);
        toastError(error, 'Failed to remove member', errorToast);
      },
    });
  };

  const allMembers = members.data?.members ?? [];
  const visible = allMembers.filter((m) => matches(m, search, roleFilter));
  const roleList = roles.data ?? [];
  const isLoading = roles.isPending || members.isPending || catalog.isPending;

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6">
      <title>Team Management · Herald</title>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">Team Management</h1>
          <p className="mt-1 text-slate-600">Members, roles and invitations of {orgName}.</p>
          {members.data && (
            <p className="mt-1 text-sm font-medium text-slate-700" data-testid="team-summary">
              {teamSummary(allMembers, members.data.totalCount)}
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-3">
          {permissions.canCall('POST /organizations/:orgId/roles') && (
            <Button variant="secondary" onClick={() => setDialog('roles')} disabled={isLoading}>
              <ShieldCheck className="size-4" aria-hidden="true" />
              Manage Roles
            </Button>
          )}
          {permissions.canCall('POST /member/invite/:orgId') && (
            <Button onClick={() => setDialog('invite')} disabled={isLoading}>
              <UserPlus className="size-4" aria-hidden="true" />
              Invite Member
            </Button>
          )}
        </div>
      </div>

      {loadError && (
        <Alert>
          {errorMessage(loadError, TEAM_LOAD_FAILED)}{' '}
          <button
            type="button"
            className="font-semibold underline"
            onClick={() =>
              void Promise.all([roles.refetch(), members.refetch(), catalog.refetch()])
            }
          >
            Try again
          </button>
        </Alert>
      )}

      {isLoading && !loadError ? (
        <LoadingIndicator label="Loading team" className="py-16" />
      ) : (
        <>
          <TeamStats
            members={allMembers}
            totalCount={members.data?.totalCount ?? allMembers.length}
            roles={roleList}
          />
          <div className="flex flex-col gap-3 sm:flex-row">
            <label className="relative flex-1">
              <span className="sr-only">Search members</span>
              <Search
                className="pointer-events-none absolute top-2.5 left-3 size-4 text-slate-400"
                aria-hidden="true"
              />
              <input
                type="search"
                value={search}
                onChange={(event) => setSearch(event.target.value)}
                placeholder="Search by name or email"
                className="w-full rounded-lg border border-slate-300 bg-white py-2 pr-3 pl-9 text-sm"
              />
            </label>
            <label>
              <span className="sr-only">Filter by role</span>
              <select
                value={roleFilter}
                onChange={(event) => setRoleFilter(event.target.value)}
                className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm sm:w-56"
              >
                <option value="">All Roles</option>
                {roleList.map((role) => (
                  <option key={role.id} value={role.id}>
                    {roleLabel(role.name)}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {visible.length === 0 ? (
            <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">
              {allMembers.length === 0 ? 'No members yet.' : 'No members match your filters.'}
            </p>
          ) : (
            <ul
              aria-label="Members"
              className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3"
            >
              {visible.map((member) => (
                <MemberCard
                  key={member.id}
                  orgId={orgId}
                  member={member}
                  roles={roleList}
                  isSelf={member.id === me?.id}
                  canChangeRole={permissions.canCall('PUT /organizations/:orgId/members/:memberId')}
                  canRemove={permissions.canCall('DELETE /organizations/:orgId/members/:memberId')}
                  canInvite={permissions.canCall(
                    'POST /organizations/:orgId/invitations/:memberId/link',
                  )}
                  invitationEmail={members.data?.invitationEmail ?? false}
                  canLimitAccounts={permissions.canCall(
                    'PUT /organizations/:orgId/members/:memberId/accounts',
                  )}
                  accounts={integrations.data ?? []}
                  onRemove={setToRemove}
                  onLeave={setToRemove}
                />
              ))}
            </ul>
          )}
        </>
      )}

      <RoleModal
        open={dialog === 'roles'}
        onOpenChange={(open) => setDialog(open ? 'roles' : null)}
        orgId={orgId}
        roles={roleList}
        catalog={catalog.data ?? []}
      />
      <InviteModal
        open={dialog === 'invite'}
        onOpenChange={(open) => setDialog(open ? 'invite' : null)}
        orgId={orgId}
        roles={roleList}
        catalog={catalog.data ?? []}
      />
      <ConfirmDialog
        open={toRemove !== null}
        onOpenChange={(open) => !open && setToRemove(null)}
        title={isLeaving ? 'Leave organization' : 'Remove member'}
        message={
          isLeaving
            ? `Leave ${orgName}? You will need a new invitation to come back.`
            : `Remove ${toRemove ? memberName(toRemove) : ''} from ${orgName}? They lose access at once.`
        }
        confirmLabel={isLeaving ? 'Leave' : 'Remove'}
        isPending={removeMember.isPending}
        onConfirm={() => toRemove && onConfirmRemove(toRemove)}
      />
    </div>
  );
}
