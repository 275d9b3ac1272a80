import type { MyOrganization } from '@herald/contract';
import { Building2, Check, ChevronsUpDown, Layers, Plus, Search } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { useMyOrganizations, useSwitchOrganization } from '@/lib/organization';
import { errorMessage } from '@/lib/api-error';
import { useAuth } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { recentOrganizationIds } from '@/lib/recent-organizations';
import { toastError } from '@/lib/toast';
import { pathAfterSwitch } from './org-switch-path';

/** How many recently used organizations are offered above the full list. */
const RECENT_SHOWN = 3;
/** Below this many organizations the list is short enough to need neither search nor Recent. */
const SEARCH_FROM = 6;

function OrganizationOption({
  organization,
  current,
  onPick,
}: {
  organization: MyOrganization;
  current: boolean;
  onPick: (organization: MyOrganization) => void;
}) {
  return (
    <li>
      <button
        type="button"
        data-org-option=""
        aria-current={current || undefined}
        onClick={() => onPick(organization)}
        className="flex w-full items-center gap-3 rounded-lg px-2 py-2 text-left hover:bg-slate-100 focus-visible:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <span className="grid size-7 shrink-0 place-items-center rounded-md bg-indigo-50 text-xs font-semibold text-indigo-700">
          {organization.name.slice(0, 1).toUpperCase()}
        </span>
        <span className="min-w-0 flex-1">
          <span className="block truncate text-sm font-medium text-slate-900">
            {organization.name}
          </span>
          {organization.role && (
            <span className="block truncate text-xs text-slate-600">{organization.role.name}</span>
          )}
        </span>
        {current && <Check className="size-4 shrink-0 text-indigo-700" aria-label="Current" />}
      </button>
    </li>
  );
}

/**
 * The top bar's organization switcher (docs/product.md#shell): the current organization's name;
 * its panel searches the user's organizations and offers the recent ones first. Switching keeps
 * the section of the app the user is in (pathAfterSwitch).
 */
export function OrgSwitcher() {
  const { member, currentOrgId } = useAuth();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const organizations = useMyOrganizations({ enabled: open });
  const switchOrganization = useSwitchOrganization();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();

  const close = (refocus: boolean) => {
    setOpen(false);
    setQuery('');
    if (refocus) buttonRef.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    const outside = (event: MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) close(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open]);

  const all = useMemo(
    () => [...(organizations.data ?? [])].sort((a, b) => a.name.localeCompare(b.name)),
    [organizations.data],
  );
  const searching = all.length >= SEARCH_FROM;
  const needle = query.trim().toLocaleLowerCase();
  const matches = needle ? all.filter((o) => o.name.toLocaleLowerCase().includes(needle)) : all;
  const recent =
    searching && !needle
      ? recentOrganizationIds()
          .filter((id) => id !== currentOrgId)
          .map((id) => all.find((o) => o.id === id))
          .filter((o): o is MyOrganization => Boolean(o))
          .slice(0, RECENT_SHOWN)
      : [];

  useEffect(() => {
    if (open && searching) searchRef.current?.focus();
  }, [open, searching]);

  const pick = (organization: MyOrganization) => {
    if (organization.id === currentOrgId) {
      close(true);
      return;
    }
    switchOrganization.mutate(organization.id, {
      onSuccess: () => {
        close(false);
        void navigate(pathAfterSwitch(pathname, search));
      },
      onError: (error) =>
        toastError(error, `Could not switch to ${organization.name}.`, 'org-switch'),
    });
  };

  // Up and Down walk the options (and the search field), as in any menu.
  const onPanelKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
      return;
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const stops = [
      ...(searchRef.current ? [searchRef.current] : []),
      ...event.currentTarget.querySelectorAll<HTMLElement>('[data-org-option]'),
    ];
    if (stops.length === 0) return;
    event.preventDefault();
    const at = stops.indexOf(document.activeElement as HTMLElement);
    const next = event.key === 'ArrowDown' ? at + 1 : at - 1;
    stops[(next + stops.length) % stops.length]?.focus();
  };

  const name = member?.organization.name ?? 'Choose an organization';
  return (
    <div ref={rootRef} className="relative min-w-0">
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-haspopup="dialog"
        aria-label={`Organization: ${name}. Switch organization`}
        onClick={() => (open ? close(false) : setOpen(true))}
        className="flex max-w-48 items-center gap-2 rounded-lg border border-slate-200 px-2.5 py-1.5 text-sm font-semibold text-slate-900 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600 sm:max-w-64"
      >
        <Building2 className="size-4 shrink-0 text-indigo-700" aria-hidden="true" />
        <span className="truncate">{name}</span>
        <ChevronsUpDown className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
      </button>
      {open && (
        <div
          id={panelId}
          role="dialog"
          aria-label="Switch organization"
          onKeyDown={onPanelKeyDown}
          className="absolute left-0 z-40 mt-2 w-[min(20rem,calc(100vw-2rem))] rounded-xl border border-slate-200 bg-white p-2 shadow-lg"
        >
          {searching && (
            <label className="mb-2 flex items-center gap-2 rounded-lg border border-slate-300 px-2 focus-within:border-indigo-500 focus-within:outline-2 focus-within:outline-indigo-200">
              <Search className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
              <input
                ref={searchRef}
                type="search"
                value={query}
                onChange={(event) => setQuery(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' && matches.length === 1) pick(matches[0]!);
                }}
                aria-label="Search organizations"
                placeholder="Search organizations"
                className="min-w-0 flex-1 border-0 bg-transparent py-1.5 text-sm focus:outline-none"
              />
            </label>
          )}
          {organizations.isPending ? (
            <p className="px-2 py-3 text-sm text-slate-600">Loading your organizations…</p>
          ) : organizations.isError ? (
            <p role="alert" className="px-2 py-3 text-sm text-red-700">
              {errorMessage(organizations.error, 'Your organizations could not be loaded.')}
            </p>
          ) : (
            <div className="max-h-80 overflow-y-auto">
              {recent.length > 0 && (
                <>
                  <h3 className="px-2 pt-1 pb-1 text-xs font-semibold text-slate-600">Recent</h3>
                  <ul aria-label="Recent organizations">
                    {recent.map((o) => (
                      <OrganizationOption
                        key={o.id}
                        organization={o}
                        current={false}
                        onPick={pick}
                      />
                    ))}
                  </ul>
                  <h3 className="px-2 pt-2 pb-1 text-xs font-semibold text-slate-600">
                    All organizations
                  </h3>
                </>
              )}
              {matches.length === 0 ? (
                <p className="px-2 py-3 text-sm text-slate-600">
                  No organization is called “{query.trim()}”.
                </p>
              ) : (
                <ul aria-label="Your organizations">
                  {matches.map((o) => (
                    <OrganizationOption
                      key={o.id}
                      organization={o}
                      current={o.id === currentOrgId}
                      onPick={pick}
                    />
                  ))}
                </ul>
              )}
            </div>
          )}
          <div className="mt-1 border-t border-slate-200 pt-1">
            {all.length >= 2 && (
              <Link
                to={paths.allClients}
                onClick={() => close(false)}
                className={cn(
                  'flex items-center gap-2 rounded-lg px-2 py-2 text-sm font-medium text-indigo-800',
                  'hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600',
                )}
              >
                <Layers className="size-4" aria-hidden="true" />
                All clients: calendar, approvals and inbox together
              </Link>
            )}
            <Link
              to={paths.onboarding}
              onClick={() => close(false)}
              className={cn(
                'flex items-center gap-2 rounded-lg px-2 py-2 text-sm text-slate-700',
                'hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600',
              )}
            >
              <Plus className="size-4" aria-hidden="true" />
              Create or join an organization
            </Link>
          </div>
        </div>
      )}
    </div>
  );
}
