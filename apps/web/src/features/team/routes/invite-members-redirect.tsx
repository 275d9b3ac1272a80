import { generatePath, Navigate } from 'react-router';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';

/** /invite-members: the invite page of the current organization (or onboarding without one). */
export function InviteMembersRedirect() {
  const { currentOrgId } = useAuth();
  const to = currentOrgId
    ? generatePath(paths.inviteMembers, { orgId: currentOrgId })
    : paths.onboarding;
  return <Navigate to={to} replace />;
}
