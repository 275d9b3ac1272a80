import type { MyOrganization } from '@herald/contract';
import { Building2, ChevronRight } from 'lucide-react';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { REDIRECT_DELAYS } from '@/config/timing';
import { toast, toastError } from '@/lib/toast';
import { useDelayedNavigate } from '@/lib/use-delayed-navigate';
import { useSwitchOrganization } from '@/lib/organization';
import { roleLabel } from '@/lib/role-label';

/** "Your Organizations": choosing one makes it current and opens its dashboard. */
export function OrganizationList({ organizations }: { organizations: MyOrganization[] }) {
  const switchOrganization = useSwitchOrganization();
  const navigateLater = useDelayedNavigate();

  if (organizations.length === 0) {
    return (
      <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-slate-600">
        You are not a member of any organization yet. Create one, or accept an invitation.
      </p>
    );
  }

  const onChoose = (organization: MyOrganization) =>
    switchOrganization.mutate(organization.id, {
      onSuccess: () => {
        toast.success(`Switched to ${organization.name}`);
        navigateLater(paths.dashboard, REDIRECT_DELAYS.afterSwitchOrganization);
      },
      onError: (error) => toastError(error, 'Failed to switch organization. Please try again.'),
    });

  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      {organizations.map((organization) => {
        const isSwitching =
          switchOrganization.isPending && switchOrganization.variables === organization.id;
        return (
          <li key={organization.id}>
            <button
              type="button"
              onClick={() => onChoose(organization)}
              disabled={switchOrganization.isPending || switchOrganization.isSuccess}
              aria-current={organization.isCurrent ? 'true' : undefined}
              className="flex w-full items-center gap-3 rounded-xl border border-slate-200 bg-white p-4 text-left shadow-sm hover:border-indigo-300 hover:bg-indigo-50/40 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:cursor-wait"
            >
              <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-indigo-50 text-indigo-700">
                <Building2 className="size-5" aria-hidden="true" />
              </span>
              <span className="min-w-0 flex-1">
                <span className="block truncate font-semibold text-slate-900">
                  {organization.name}
                </span>
                <span className="block text-sm text-slate-600">
                  {organization.role ? roleLabel(organization.role.name) : 'Member'}
                </span>
              </span>
              {organization.isCurrent && (
                <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">
                  Current
                </span>
              )}
              {isSwitching ? (
                <Spinner className="size-4" />
              ) : (
                <ChevronRight className="size-4 text-slate-400" aria-hidden="true" />
              )}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
