import { LayoutDashboard, Layers, Stethoscope, Users, WalletCards } from 'lucide-react';
import { NavLink, Outlet } from 'react-router';
import { ProfileMenu } from '@/components/layout/profile-menu';
import { AdminHeaderSearch, AdminSearchProvider } from '@/features/admin/components/admin-search';
import { Logo } from '@/components/ui/logo';
import { paths } from '@/config/paths';
import { navLinkClasses } from './shell/sidebar-nav';

const items = [
  { to: paths.adminDashboard, label: 'Dashboard', icon: LayoutDashboard },
  { to: paths.adminUsers, label: 'Users', icon: Users },
  { to: paths.adminPlans, label: 'Plans', icon: WalletCards },
  { to: paths.adminPlatforms, label: 'Platforms', icon: Layers },
  { to: paths.adminNetworkSetup, label: 'Network setup', icon: Stethoscope },
];

/**
 * Back-office frame (docs/product.md#back-office): navigation, the header search that filters the
 * current page's table, and the profile menu with a working Logout.
 */
export function AdminShell() {
  return (
    <AdminSearchProvider>
      <div className="min-h-dvh bg-slate-50 md:grid md:grid-cols-[15rem_minmax(0,1fr)]">
        <nav
          aria-label="Back-office"
          className="flex flex-col gap-4 border-b border-slate-200 bg-white p-4 md:sticky md:top-0 md:h-dvh md:border-r md:border-b-0"
        >
          <Logo to={paths.adminDashboard} className="px-2" />
          <ul className="flex gap-1 overflow-x-auto md:flex-col">
            {items.map(({ to, label, icon: Icon }) => (
              <li key={to}>
                <NavLink to={to} className={navLinkClasses}>
                  <Icon className="size-5 shrink-0" aria-hidden="true" />
                  {label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex min-w-0 flex-col">
          <header className="flex h-16 items-center gap-4 border-b border-slate-200 bg-white px-4 sm:px-6">
            <AdminHeaderSearch />
            <div className="ml-auto">
              <ProfileMenu />
            </div>
          </header>
          <main id="main" className="flex-1 p-4 sm:p-6 lg:p-8">
            <Outlet />
          </main>
        </div>
      </div>
    </AdminSearchProvider>
  );
}
