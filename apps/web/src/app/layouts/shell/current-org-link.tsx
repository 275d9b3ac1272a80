import { Building2, ChevronsUpDown } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useCurrentOrgId } from '@/lib/current-org';

/**
 * Sidebar footer: the current organization, leading to /onboarding to switch. There is no
 * organization API yet, so a chosen organization reads "Organization"; the organizations
 * issue replaces `label` with the organization's name from its query.
 */
export function CurrentOrgLink({ onNavigate }: { onNavigate?: () => void }) {
  const currentOrgId = useCurrentOrgId();
  const label = currentOrgId ? 'Organization' : 'Select Organization';

  return (
    <Link
      to={paths.onboarding}
      onClick={onNavigate}
      className="flex items-center gap-3 rounded-lg border border-slate-200 px-3 py-2.5 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <span className="grid size-8 shrink-0 place-items-center rounded-md bg-indigo-50 text-indigo-700">
        <Building2 className="size-4" aria-hidden="true" />
      </span>
      <span className="min-w-0 flex-1">
        <span className="block text-xs text-slate-600">Current organization</span>
        <span className="block truncate text-sm font-semibold text-slate-900">{label}</span>
      </span>
      <ChevronsUpDown className="size-4 text-slate-500" aria-hidden="true" />
    </Link>
  );
}
