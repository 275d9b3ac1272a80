import { CalendarDays, Menu, Users } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { NavLink } from 'react-router';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { OrgSwitcher } from './org-switcher';

// The menu's library (Radix dropdown and its positioning) loads beside the page instead of
// before it; until then a circle of the same size holds the place.
const ProfileMenu = lazy(async () => ({
  default: (await import('@/components/layout/profile-menu')).ProfileMenu,
}));

const links = [
  { to: paths.calendar, label: 'Calendar', icon: CalendarDays },
  { to: paths.team, label: 'Team', icon: Users },
];

export function TopBar({ onOpenMenu }: { onOpenMenu: () => void }) {
  return (
    <header className="sticky top-0 z-30 flex h-16 items-center gap-3 border-b border-slate-200 bg-white/95 px-4 backdrop-blur sm:px-6 print:hidden">
      <button
        type="button"
        onClick={onOpenMenu}
        aria-label="Open navigation menu"
        className="rounded-lg p-2 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600 lg:hidden"
      >
        <Menu className="size-5" aria-hidden="true" />
      </button>
      <OrgSwitcher />
      <nav aria-label="Workspace" className="flex flex-1 items-center gap-1">
        {links.map(({ to, label, icon: Icon }) => (
          <NavLink
            key={to}
            to={to}
            className={({ isActive }) =>
              cn(
                'flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium',
                'focus-visible:outline-2 focus-visible:outline-indigo-600',
                isActive ? 'bg-indigo-50 text-indigo-800' : 'text-slate-700 hover:bg-slate-100',
              )
            }
          >
            <Icon className="size-4" aria-hidden="true" />
            {/* On a phone the organization's name needs the room; the icons keep their names. */}
            <span className="sr-only sm:not-sr-only">{label}</span>
          </NavLink>
        ))}
      </nav>
      <Suspense
        fallback={<span aria-hidden="true" className="size-9 rounded-full bg-indigo-100" />}
      >
        <ProfileMenu />
      </Suspense>
    </header>
  );
}
