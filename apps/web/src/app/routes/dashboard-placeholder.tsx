import { NotYetAvailable } from '@/components/ui/not-yet-available';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';

/**
 * The dashboard arrives in a later issue; meanwhile its placeholder names the organization
 * (spec §2: "{organization name} Dashboard"), so the user sees where they landed.
 */
export function DashboardPlaceholder() {
  const { member } = useAuth();
  const title = member ? `${member.organization.name} Dashboard` : 'Dashboard';
  return (
    <NotYetAvailable
      title={title}
      description="Your organization at a glance: posts, messages, connected platforms and your plan."
      backTo={paths.home}
      backLabel="Back to home"
    />
  );
}
