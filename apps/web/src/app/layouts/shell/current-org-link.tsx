import { Building2, ChevronsUpDown } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';

/** Sidebar footer: the current organization's name, leading to /onboarding to switch. */
export function CurrentOrgLink({ onNavigate }: { onNavigate?: () => void }) {
  const { member } = useAuth();
  const label = member?.organization.name ?? 'Select Organization';

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
